import { randomUUID } from 'node:crypto';
import { EventStore, NewEvent, StoredEvent, WrongExpectedRevision } from '@app/event-store';
import { checkCommand, DiceSource, FightCore, findSystem, ManualDice, RuleCommand, RuleEvent, RuleSystem, RuleViolation, SeededDice, seedCommitment } from '@app/rules';
import { ACTIONS_UNDONE, buildFightLog, FightLog, foldFight, planUndo, toLogEntry, UNDO_COMMAND } from '@app/audit';
import { AppError, concurrencyConflict, expectedSeqMismatch, fightNotFound } from './errors';
import { EventMetadata, FIGHT_STREAM_PREFIX, FightEvent, fightStream, toFightEvent } from './fight-event';
import { eventHash, GENESIS_HASH } from './hash-chain';
import { KeyedLock } from './keyed-lock';
import { CommandIndex } from './command-index';
import { FightFeed } from './live/fight-feed';
import { LiveFightStream } from './live/live-stream';
import { SeedVault } from './seed-vault';

export interface CreateFightInput {
  system: string;
  name?: string;
  dice?: { mode?: 'fair' | 'seeded' | 'manual'; seed?: string; clientSeed?: string; drawKey?: string };
  combatants?: unknown[];
  options?: Record<string, unknown>;
}

export interface CommandInput {
  type: string;
  commandId?: string;
  expectedSeq?: number;
  [field: string]: unknown;
}

/** Who sends a command: recorded as the events' actor; `scope` lists the combatants a player may act for. */
export interface Actor {
  name: string;
  scope: 'all' | string[];
  tenantId?: string;
  /** Carried into the events' metadata, to follow one request from the logs to the log. */
  requestId?: string;
}

export const GM_ACTOR: Actor = { name: 'gm', scope: 'all' };

export interface CommandResult {
  fightId: string;
  seq: number;
  events: FightEvent[];
  view: Record<string, unknown>;
  /** True when `commandId` was seen before: the first result, nothing appended. */
  replayed: boolean;
}

export interface FightViewResult {
  fightId: string;
  seq: number;
  view: Record<string, unknown>;
}

interface LoadedFight {
  fightId: string;
  system: RuleSystem<FightCore>;
  state: FightCore;
  /** Revision of the last event (0-based). */
  revision: bigint;
  drawsUsed: number;
  /** Hash of the last event (hash-chain.ts). */
  headHash: string;
  /** hash of each commandId → the first seq of the commands with that hash (command-index.ts: a few bytes per command). */
  commands: CommandIndex;
  seed?: string;
}

const CACHE_LIMIT = 5000;

/** The one command path for every transport (DESIGN.md "Commands, end to end"). */
export class FightService {
  private readonly cache = new Map<string, LoadedFight>();
  private readonly lock = new KeyedLock();
  private readonly vault: SeedVault;
  readonly feed = new FightFeed();
  /** Called after every commit this instance makes or hears of (the projection runner listens). */
  readonly onCommit = new Set<() => void>();
  /** Called after each command with its outcome (metrics listen). */
  readonly onCommandDone = new Set<(done: { system: string; type: string; seconds: number; outcome: 'ok' | 'rejected' | 'failed'; events: number }) => void>();
  /** Events of streams other than fights (access control), as the global log delivers them. */
  readonly onOtherEvent = new Set<(e: StoredEvent) => void>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: EventStore,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.vault = new SeedVault(store);
  }

  /**
   * Follows the global log from `after` (where the caller's own read of the log stopped):
   * events of other instances reach this one's cache and subscribers.
   */
  start(after: string | undefined): void {
    void this.follow(after);
  }

  private async follow(after: string | undefined): Promise<void> {
    try {
      const live = this.store.subscribeAll({ after, signal: this.stopping.signal });
      for await (const e of live) {
        if (e.stream.startsWith(FIGHT_STREAM_PREFIX)) this.observe(e);
        else for (const listener of this.onOtherEvent) listener(e);
        after = e.checkpoint;
      }
    } catch {
      if (!this.stopping.signal.aborted) setTimeout(() => void this.follow(after), 1000).unref();
    }
  }

  /** Every fight event of the global log, whichever instance wrote it. */
  private observe(e: StoredEvent): void {
    const event = toFightEvent(e);
    const cached = this.cache.get(event.fightId);
    if (cached && e.revision === cached.revision + 1n && e.type !== ACTIONS_UNDONE) this.remember(fold(cached, e));
    else if (cached && e.type === ACTIONS_UNDONE && e.revision > cached.revision) this.cache.delete(event.fightId);
    else if (cached && e.revision > cached.revision + 1n) this.cache.delete(event.fightId);
    this.feed.publish(event);
    for (const listener of this.onCommit) listener();
  }

  /** Every event after `after`, then live; see LiveFightStream. */
  async watch(fightId: string, after = 0): Promise<LiveFightStream> {
    await this.load(fightId);
    return new LiveFightStream(after, (from) => this.events(fightId, from), (deliver) => this.feed.on(fightId, deliver));
  }

  /** The view now, then after each change (bursts coalesce into their last view). */
  async watchViews(fightId: string): Promise<AsyncIterableIterator<FightViewResult>> {
    const now = await this.view(fightId);
    const events = await this.watch(fightId, now.seq);
    let first: FightViewResult | undefined = now;
    let lastSeq = now.seq;
    const iterator: AsyncIterableIterator<FightViewResult> = {
      next: async () => {
        if (first) {
          const value = first;
          first = undefined;
          return { value, done: false };
        }
        for (;;) {
          const r = await events.next();
          if (r.done) return { value: undefined, done: true };
          const view = await this.viewAtLeast(fightId, r.value.seq);
          if (view.seq <= lastSeq) continue;
          lastSeq = view.seq;
          return { value: view, done: false };
        }
      },
      return: async () => {
        await events.return();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  private async viewAtLeast(fightId: string, seq: number): Promise<FightViewResult> {
    const cached = this.cache.get(fightId);
    const fight = cached && Number(cached.revision) + 1 >= seq ? cached : await this.refresh(fightId);
    return { fightId, seq: Number(fight.revision) + 1, view: this.viewOf(fight) };
  }

  stop(): void {
    this.stopping.abort();
  }

  async create(input: CreateFightInput, actor: Actor = GM_ACTOR, beforeAppend?: (fightId: string) => Promise<void>): Promise<CommandResult> {
    const system = findSystem(input.system);
    if (!system) throw new AppError(422, 'UNKNOWN_SYSTEM', `no rule system ${input.system}`, 'system');
    const mode = input.dice?.mode ?? 'fair';
    if (mode === 'seeded' && !input.dice?.seed) throw new AppError(422, 'DICE_SEED_REQUIRED', 'RULINGS.md C2: seeded dice need dice.seed', 'dice.seed');
    if (mode !== 'seeded' && input.dice?.seed !== undefined) throw new AppError(422, 'DICE_SEED_NOT_ALLOWED', 'RULINGS.md C2: only seeded dice take a seed from the caller', 'dice.seed');
    const drawKey = input.dice?.drawKey;
    if (drawKey !== undefined && mode !== 'seeded') throw new AppError(422, 'DICE_DRAW_KEY_NOT_ALLOWED', `docs/rulings.md C14: only seeded dice take a drawKey; ${mode} dice cannot be reproduced in another fight`, 'dice.drawKey');
    const fightId = randomUUID();
    const seed = mode === 'seeded' ? input.dice!.seed! : SeedVault.newSeed();
    const command: RuleCommand = {
      type: 'StartFight',
      name: input.name,
      dice: { mode, commitment: seedCommitment(seed), clientSeed: input.dice?.clientSeed, ...(drawKey !== undefined && { drawKey }) },
      combatants: input.combatants ?? [],
      options: input.options,
    };
    checkCommand(system.contract.commands, command);
    const state = system.start(fightId);
    const events = system.decide(state, command, new ManualDice({}));
    await beforeAppend?.(fightId);
    await this.vault.seal(fightId, seed);
    const fight: LoadedFight = { fightId, system, state, revision: -1n, drawsUsed: 0, headHash: GENESIS_HASH, commands: new CommandIndex(), seed };
    return this.append(fight, events, { commandId: randomUUID(), actor: actor.name, drawsUsed: 0, command, tenantId: actor.tenantId, requestId: actor.requestId }, 'no_stream');
  }

  async execute(fightId: string, input: CommandInput, actor: Actor = GM_ACTOR): Promise<CommandResult> {
    const started = process.hrtime.bigint();
    let system = 'unknown';
    const done = (outcome: 'ok' | 'rejected' | 'failed', events: number) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      for (const listener of this.onCommandDone) listener({ system, type: String(input.type).slice(0, 60), seconds, outcome, events });
    };
    try {
      const result = await this.executeLocked(fightId, input, actor, (id) => (system = id));
      done('ok', result.replayed ? 0 : result.events.length);
      return result;
    } catch (e) {
      done(e instanceof RuleViolation || e instanceof AppError ? 'rejected' : 'failed', 0);
      throw e;
    }
  }

  private executeLocked(fightId: string, input: CommandInput, actor: Actor, seen: (system: string) => void): Promise<CommandResult> {
    return this.lock.run(fightId, async () => {
      for (let attempt = 0; ; attempt++) {
        const fight = attempt === 0 ? await this.load(fightId) : await this.refresh(fightId);
        seen(fight.system.id);
        try {
          return await this.decideAndAppend(fight, input, actor);
        } catch (e) {
          if (!(e instanceof WrongExpectedRevision)) throw e;
          // DESIGN.md step 5: decide once more on fresh state; a second conflict is a 409.
          if (attempt > 0) throw concurrencyConflict(fightId);
        }
      }
    });
  }

  private async decideAndAppend(fight: LoadedFight, input: CommandInput, actor: Actor): Promise<CommandResult> {
    const { commandId = randomUUID(), expectedSeq, ...command } = input;
    const seen = fight.commands.candidates(commandId);
    const replayed = seen.length === 0 ? undefined : await this.replay(fight, commandId, seen);
    if (replayed) return replayed;
    // The contract: unknown fields, wrong JSON types and out-of-range values are refused here, naming the field.
    checkCommand(fight.system.contract.commands, command as RuleCommand);
    const seq = Number(fight.revision) + 1;
    if (expectedSeq !== undefined && expectedSeq !== seq) throw expectedSeqMismatch(expectedSeq, seq);
    if (actor.scope !== 'all') assertPlayerMayAct(fight, command as RuleCommand, actor.scope);
    if (command.type === UNDO_COMMAND) return this.undo(fight, command as RuleCommand, commandId, actor.name);
    if (command.type === 'EndFight') command.revealedSeed = await this.seedOf(fight);
    const dice = await this.diceFor(fight, command);
    const events = fight.system.decide(fight.state, command as RuleCommand, dice);
    if (dice instanceof ManualDice) dice.assertAllUsed();
    if (events.length === 0) return { fightId: fight.fightId, seq, events: [], view: this.viewOf(fight), replayed: false };
    const drawsUsed = dice instanceof SeededDice ? dice.drawsUsed : fight.drawsUsed;
    return this.append(fight, events, { commandId, actor: actor.name, drawsUsed, command: command as RuleCommand, requestId: actor.requestId }, fight.revision);
  }

  private async append(fight: LoadedFight, events: RuleEvent[], meta: { commandId: string; actor: string; drawsUsed: number; command: RuleCommand; tenantId?: string; requestId?: string }, expected: bigint | 'no_stream'): Promise<CommandResult> {
    const at = this.clock().toISOString();
    const first = Number(fight.revision) + 2;
    let headHash = fight.headHash;
    const out: FightEvent[] = events.map((e, i) => {
      const event = { fightId: fight.fightId, seq: first + i, type: e.type, v: 1, at, actor: meta.actor, commandId: meta.commandId, data: e.data };
      headHash = eventHash(headHash, event);
      return { ...event, hash: headHash };
    });
    const toStore: NewEvent[] = out.map((e, i) => {
      const metadata: EventMetadata = { fightId: fight.fightId, v: 1, at, actor: meta.actor, commandId: meta.commandId, drawsUsed: meta.drawsUsed, hash: e.hash };
      // The command rides on its first event, so an auditor can decide it again (issue "Audit").
      if (i === 0) metadata.command = recordable(meta.command);
      if (meta.tenantId) metadata.tenantId = meta.tenantId;
      if (meta.requestId) metadata.requestId = meta.requestId;
      return { id: randomUUID(), type: e.type, data: e.data, metadata };
    });
    try {
      await this.store.append(fightStream(fight.fightId), toStore, { expectedRevision: expected });
    } catch (e) {
      // The append may or may not have landed: the next command reads the store again.
      this.cache.delete(fight.fightId);
      throw e;
    }
    const next: LoadedFight = {
      ...fight,
      state: events.reduce(fight.system.evolve, fight.state),
      revision: fight.revision + BigInt(events.length),
      drawsUsed: meta.drawsUsed,
      headHash,
    };
    next.commands.add(meta.commandId, first);
    this.remember(next);
    for (const e of out) this.feed.publish(e);
    for (const listener of this.onCommit) listener();
    return { fightId: fight.fightId, seq: first + events.length - 1, events: out, view: this.viewOf(next), replayed: false };
  }

  /** Issue "Audit": undo appends ActionsUndone; nothing is deleted and the dice draw counter never goes back. */
  private async undo(fight: LoadedFight, command: RuleCommand, commandId: string, actor: string): Promise<CommandResult> {
    const history = (await this.store.readStream(fightStream(fight.fightId))).map(toFightEvent);
    const data = planUndo(history, command.count);
    const result = await this.append(fight, [{ type: ACTIONS_UNDONE, data: { ...data } }], { commandId, actor, drawsUsed: fight.drawsUsed, command: { type: UNDO_COMMAND, count: command.count } }, fight.revision);
    const refolded = await this.reload(fight.fightId);
    return { ...result, view: this.viewOf(refolded) };
  }

  /** Folds the whole stream again, honouring undo. */
  private async reload(fightId: string): Promise<LoadedFight> {
    this.cache.delete(fightId);
    return this.refresh(fightId);
  }

  /** The state right after event `at` (time travel), as the view shows it. */
  async viewAt(fightId: string, at: number): Promise<FightViewResult> {
    const stored = await this.store.readStream(fightStream(fightId));
    if (stored.length === 0) throw fightNotFound(fightId);
    if (at < 1 || at > stored.length) throw new AppError(422, 'SEQ_OUT_OF_RANGE', `at must be between 1 and ${stored.length}`, 'at');
    const events = stored.slice(0, at).map(toFightEvent);
    const system = blank(fightId, stored[0]).system;
    const state = foldFight(system, fightId, events);
    return { fightId, seq: at, view: { ...system.view(state), seq: at, headHash: events[at - 1].hash } };
  }

  /** Every stored event with the metadata an auditor needs (issue "Audit" export). */
  async exportLog(fightId: string): Promise<FightLog> {
    const stored = await this.store.readStream(fightStream(fightId));
    if (stored.length === 0) throw fightNotFound(fightId);
    return buildFightLog(stored.map(toLogEntry));
  }

  /**
   * The first result of a command seen before: the candidate whose stored events carry exactly `commandId`;
   * undefined when every candidate is another id sharing its index key (a collision: the command is new).
   */
  private async replay(fight: LoadedFight, commandId: string, candidates: readonly number[]): Promise<CommandResult | undefined> {
    const from = candidates[0] - 1;
    const stored = await this.store.readStream(fightStream(fight.fightId), { from: BigInt(from) });
    const start = candidates.find((seq) => (stored[seq - 1 - from]?.metadata as EventMetadata | undefined)?.commandId === commandId);
    if (start === undefined) return undefined;
    const events: FightEvent[] = [];
    for (const e of stored.slice(start - 1 - from).map(toFightEvent)) {
      if (e.commandId !== commandId) break;
      events.push(e);
    }
    return { fightId: fight.fightId, seq: Number(fight.revision) + 1, events, view: this.viewOf(fight), replayed: true };
  }

  private async diceFor(fight: LoadedFight, command: Record<string, unknown>): Promise<DiceSource> {
    const { mode, clientSeed, drawKey } = fight.state.dice;
    if (mode === 'manual') return new ManualDice(command as { dice?: number[]; rerollFaces?: number[]; followUpFaces?: number[] });
    for (const field of ['dice', 'rerollFaces', 'followUpFaces']) {
      if (command[field] !== undefined) throw new RuleViolation('DICE_NOT_MANUAL', `RULINGS.md C2: this fight rolls ${mode} dice; faces cannot be supplied`, field);
    }
    return new SeededDice({ seed: await this.seedOf(fight), fightId: fight.fightId, drawKey, clientSeed, drawsUsed: fight.drawsUsed });
  }

  private async seedOf(fight: LoadedFight): Promise<string> {
    fight.seed ??= await this.vault.open(fight.fightId);
    return fight.seed;
  }

  /** The current view, caught up with the store (another instance may have written). */
  async view(fightId: string): Promise<FightViewResult> {
    const fight = await this.refresh(fightId);
    return { fightId, seq: Number(fight.revision) + 1, view: this.viewOf(fight) };
  }

  async events(fightId: string, after = 0): Promise<FightEvent[]> {
    const stored = await this.store.readStream(fightStream(fightId), { from: BigInt(after) });
    if (stored.length === 0 && after === 0) throw fightNotFound(fightId);
    return stored.map(toFightEvent);
  }

  private viewOf(fight: LoadedFight): Record<string, unknown> {
    return { ...fight.system.view(fight.state), seq: Number(fight.revision) + 1, headHash: fight.headHash };
  }

  private async load(fightId: string): Promise<LoadedFight> {
    const cached = this.cache.get(fightId);
    if (cached) return cached;
    return this.refresh(fightId);
  }

  private async refresh(fightId: string): Promise<LoadedFight> {
    const cached = this.cache.get(fightId);
    const from = cached ? cached.revision + 1n : 0n;
    const stored = await this.store.readStream(fightStream(fightId), { from });
    if (!cached && stored.length === 0) throw fightNotFound(fightId);
    if (cached && stored.some((e) => e.type === ACTIONS_UNDONE)) return this.reload(fightId);
    const fight = foldStored(cached ?? blank(fightId, stored[0]), stored);
    this.remember(fight);
    return fight;
  }

  private remember(fight: LoadedFight): void {
    this.cache.delete(fight.fightId);
    this.cache.set(fight.fightId, fight);
    if (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
  }
}

function blank(fightId: string, first: StoredEvent): LoadedFight {
  const system = findSystem((first.data as { system: string }).system);
  if (!system) throw new Error(`fight ${fightId} uses an unknown system`);
  return { fightId, system, state: system.start(fightId), revision: -1n, drawsUsed: 0, headHash: GENESIS_HASH, commands: new CommandIndex() };
}

/** Folds stored events; a log with undo is folded as a whole by the audit folder. */
function foldStored(start: LoadedFight, stored: StoredEvent[]): LoadedFight {
  if (!stored.some((e) => e.type === ACTIONS_UNDONE)) return stored.reduce(fold, start);
  const folded = stored.reduce(fold, start);
  const state = foldFight(start.system, start.fightId, stored.map(toFightEvent));
  return { ...folded, state };
}

function fold(fight: LoadedFight, e: StoredEvent): LoadedFight {
  const m = e.metadata as EventMetadata;
  const seq = Number(e.revision) + 1;
  fight.commands.add(m.commandId, seq);
  return { ...fight, state: fight.system.evolve(fight.state, { type: e.type, data: e.data as Record<string, unknown> }), revision: e.revision, drawsUsed: m.drawsUsed ?? fight.drawsUsed, headHash: m.hash };
}

/** The command as an auditor replays it: the revealed seed is not stored twice. */
function recordable(command: RuleCommand): RuleCommand {
  const { revealedSeed: _seed, ...rest } = command;
  return rest as RuleCommand;
}

/**
 * RULINGS.md C3, C12: a player acts only for their own combatants, answers only their own decisions and sets
 * none of the GM's fields.
 */
function assertPlayerMayAct(fight: LoadedFight, command: RuleCommand, scope: string[]): void {
  const acting = fight.system.actorOf?.(fight.state, command);
  if (!acting) throw new AppError(403, 'GM_ONLY', `only the GM may send ${command.type}`, 'type');
  if (!scope.includes(acting.combatantId)) throw new AppError(403, 'NOT_YOUR_COMBATANT', `this token does not act for ${acting.combatantId}`, acting.field);
  const gmField = acting.gmOnly?.[0];
  if (gmField) throw new AppError(403, 'GM_ONLY_FIELD', `RULINGS.md C12: only the GM may set ${gmField} on ${command.type}`, gmField);
  const other = acting.speaksFor?.find((o) => !scope.includes(o.combatantId));
  if (other) throw new AppError(403, 'NOT_YOUR_COMBATANT', `RULINGS.md C12: ${other.field} answers for ${other.combatantId || 'another combatant'}, and this token does not act for it`, other.field);
}
