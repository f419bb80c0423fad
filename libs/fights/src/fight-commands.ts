import { randomUUID } from 'node:crypto';
import { EventStore, WrongExpectedRevision } from '@app/event-store';
import { blankFight, decideCommand, DecisionInputs, envelopeOf, EventMetadata, evolveFight, FightEvent, fightStream, LogEntry, needsOf, sealEvents, toFightEvent, toNewEvent, undoStackOf } from '@app/fight-log';
import { checkCommand, findSystem, RuleCommand, RuleViolation, seedCommitment } from '@app/rules';
import { CommandIndex } from './command-index';
import { AppError, concurrencyConflict, expectedSeqMismatch } from './errors';
import { FightCache, LoadedFight, viewOf } from './fight-cache';
import { KeyedLock } from './keyed-lock';
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

export type CommandOutcome = { system: string; type: string; seconds: number; outcome: 'ok' | 'rejected' | 'failed'; events: number };

/**
 * The command path for every transport (DESIGN.md "Commands, end to end"): load the fight, decide the command
 * with the command core (libs/fight-log), append its sealed events, evolve the cached fight.
 */
export class FightCommands {
  private readonly lock = new KeyedLock();
  private readonly vault: SeedVault;
  /** Called after each command with its outcome (metrics listen). */
  readonly onCommandDone = new Set<(done: CommandOutcome) => void>();

  constructor(
    private readonly store: EventStore,
    private readonly cache: FightCache,
    private readonly clock: () => Date,
    /** Told of every event this instance appends, in order. */
    private readonly committed: (events: FightEvent[]) => void,
  ) {
    this.vault = new SeedVault(store);
  }

  async create(input: CreateFightInput, actor: Actor, beforeAppend?: (fightId: string) => Promise<void>): Promise<CommandResult> {
    const { system, seed, command } = startCommand(input);
    const fight: LoadedFight = { ...blankFight(system, randomUUID()), commands: new CommandIndex(), seed };
    const decision = decideCommand(fight, command, {});
    await beforeAppend?.(fight.fightId);
    await this.vault.seal(fight.fightId, seed);
    const sealed = sealEvents(fight, decision, { commandId: randomUUID(), actor: actor.name, at: this.clock().toISOString(), command });
    return this.append(fight, sealed, { tenantId: actor.tenantId, requestId: actor.requestId });
  }

  async execute(fightId: string, input: CommandInput, actor: Actor): Promise<CommandResult> {
    const started = process.hrtime.bigint();
    let system = 'unknown';
    const done = (outcome: CommandOutcome['outcome'], events: number) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      for (const listener of this.onCommandDone) listener({ system, type: String(input.type).slice(0, 60), seconds, outcome, events });
    };
    try {
      const result = await this.lock.run(fightId, () =>
        this.retried(fightId, (fight) => {
          system = fight.system.id;
          return this.handle(fight, input, actor);
        }),
      );
      done('ok', result.replayed ? 0 : result.events.length);
      return result;
    } catch (e) {
      done(e instanceof RuleViolation || e instanceof AppError ? 'rejected' : 'failed', 0);
      throw e;
    }
  }

  /** DESIGN.md step 5: on a conflict, decide once more on fresh state; a second conflict is a 409. */
  private async retried(fightId: string, attempt: (fight: LoadedFight) => Promise<CommandResult>): Promise<CommandResult> {
    try {
      return await attempt(await this.cache.load(fightId));
    } catch (e) {
      if (!(e instanceof WrongExpectedRevision)) throw e;
    }
    try {
      return await attempt(await this.cache.refresh(fightId));
    } catch (e) {
      throw e instanceof WrongExpectedRevision ? concurrencyConflict(fightId) : e;
    }
  }

  /** Load state (done), decide, append, evolve. */
  private async handle(fight: LoadedFight, input: CommandInput, actor: Actor): Promise<CommandResult> {
    const { commandId = randomUUID(), expectedSeq, ...sent } = input;
    const replayed = await this.replay(fight, commandId);
    if (replayed) return replayed;
    const command = admit(fight, sent, expectedSeq, actor);
    const decision = decideCommand(fight, command, await this.inputsFor(fight, command));
    if (decision.events.length === 0) return { fightId: fight.fightId, seq: fight.seq, events: [], view: viewOf(fight), replayed: false };
    const sealed = sealEvents(fight, decision, { commandId, actor: actor.name, at: this.clock().toISOString(), command });
    return this.append(fight, sealed, { requestId: actor.requestId });
  }

  /** Appends sealed events at the fight's head and evolves the cached fight (an undo folds its stream again). */
  private async append(fight: LoadedFight, sealed: LogEntry[], extra: { tenantId?: string; requestId?: string }): Promise<CommandResult> {
    const expectedRevision = fight.seq === 0 ? 'no_stream' : BigInt(fight.seq - 1);
    try {
      await this.store.append(fightStream(fight.fightId), sealed.map((e) => toNewEvent(e, extra)), { expectedRevision });
    } catch (e) {
      // The append may or may not have landed: the next command reads the store again.
      this.cache.forget(fight.fightId);
      throw e;
    }
    const evolved = evolveFight(fight, sealed);
    if (evolved) {
      evolved.commands.add(sealed[0].commandId, sealed[0].seq);
      this.cache.remember(evolved);
    }
    const events = sealed.map(envelopeOf);
    this.committed(events);
    const next = evolved ?? (await this.cache.reload(fight.fightId));
    return { fightId: fight.fightId, seq: sealed[sealed.length - 1].seq, events, view: viewOf(next), replayed: false };
  }

  /** The seed (dice, EndFight) and the undo stack (UndoCommands), read only when the command needs them. */
  private async inputsFor(fight: LoadedFight, command: RuleCommand): Promise<DecisionInputs> {
    const needs = needsOf(fight, command);
    const inputs: DecisionInputs = {};
    if (needs.seed) inputs.seed = fight.seed ??= await this.vault.open(fight.fightId);
    if (needs.undo) inputs.undo = undoStackOf((await this.store.readStream(fightStream(fight.fightId))).map(toFightEvent));
    return inputs;
  }

  /**
   * The first result of a command seen before: the candidate whose stored events carry exactly `commandId`;
   * undefined when the id is new, or every candidate is another id sharing its index key (a collision).
   */
  private async replay(fight: LoadedFight, commandId: string): Promise<CommandResult | undefined> {
    const candidates = fight.commands.candidates(commandId);
    if (candidates.length === 0) return undefined;
    const from = candidates[0] - 1;
    const stored = await this.store.readStream(fightStream(fight.fightId), { from: BigInt(from) });
    const start = candidates.find((seq) => (stored[seq - 1 - from]?.metadata as EventMetadata | undefined)?.commandId === commandId);
    if (start === undefined) return undefined;
    const events: FightEvent[] = [];
    for (const e of stored.slice(start - 1 - from).map(toFightEvent)) {
      if (e.commandId !== commandId) break;
      events.push(e);
    }
    return { fightId: fight.fightId, seq: fight.seq, events, view: viewOf(fight), replayed: true };
  }
}

/** POST /fights: the rule system, the seed and StartFight, or a 422 naming the field. */
function startCommand(input: CreateFightInput) {
  const system = findSystem(input.system);
  if (!system) throw new AppError(422, 'UNKNOWN_SYSTEM', `no rule system ${input.system}`, 'system');
  const mode = input.dice?.mode ?? 'fair';
  if (mode === 'seeded' && !input.dice?.seed) throw new AppError(422, 'DICE_SEED_REQUIRED', 'RULINGS.md C2: seeded dice need dice.seed', 'dice.seed');
  if (mode !== 'seeded' && input.dice?.seed !== undefined) throw new AppError(422, 'DICE_SEED_NOT_ALLOWED', 'RULINGS.md C2: only seeded dice take a seed from the caller', 'dice.seed');
  const drawKey = input.dice?.drawKey;
  if (drawKey !== undefined && mode !== 'seeded') throw new AppError(422, 'DICE_DRAW_KEY_NOT_ALLOWED', `docs/rulings.md C14: only seeded dice take a drawKey; ${mode} dice cannot be reproduced in another fight`, 'dice.drawKey');
  const seed = mode === 'seeded' ? input.dice!.seed! : SeedVault.newSeed();
  const command: RuleCommand = {
    type: 'StartFight',
    name: input.name,
    dice: { mode, commitment: seedCommitment(seed), clientSeed: input.dice?.clientSeed, ...(drawKey !== undefined && { drawKey }) },
    combatants: input.combatants ?? [],
    options: input.options,
  };
  checkCommand(system.contract.commands, command);
  return { system, seed, command };
}

/**
 * The edge's checks before the rules decide: the contract (unknown fields, wrong JSON types and out-of-range
 * values are refused, naming the field), the seq the caller expects, and what a player may send.
 */
function admit(fight: LoadedFight, sent: Omit<CommandInput, 'commandId' | 'expectedSeq'>, expectedSeq: number | undefined, actor: Actor): RuleCommand {
  const command = sent as RuleCommand;
  checkCommand(fight.system.contract.commands, command);
  if (expectedSeq !== undefined && expectedSeq !== fight.seq) throw expectedSeqMismatch(expectedSeq, fight.seq);
  if (actor.scope !== 'all') assertPlayerMayAct(fight, command, actor.scope);
  return command;
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
