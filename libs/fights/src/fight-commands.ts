import { randomUUID } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import { EventStore, NewEvent, WrongExpectedRevision } from '@app/event-store';
import {
  blankFight,
  canonicalJson,
  decideCommand,
  DecisionInputs,
  envelopeOf,
  EventMetadata,
  evolveFight,
  FightEvent,
  fightStream,
  LogEntry,
  needsOf,
  recordedCommand,
  sealEvents,
  toFightEvent,
  toNewEvent,
  UNDO_COMMAND,
  undoStackOf,
} from '@app/fight-log';
import { ContractViolation, RuleCommand, RuleViolation } from '@app/rules';
import {
  Actor,
  admit,
  admitSystem,
  CommandInput,
  CreateFightInput,
  DECLARED_FOR,
  startCommand,
} from './command-admission';
import { CommandIndex } from './command-index';
import { AppError, concurrencyConflict } from './errors';
import { FightCache, LoadedFight, viewOf } from './fight-cache';
import { SeedVault } from './seed-vault';

/** A refusal that depends on the fight's state: the rules' (422), or a state the command was admitted against. */
const isRefusal = (e: unknown): boolean =>
  (e instanceof RuleViolation || (e instanceof AppError && e.status === 422)) && !STATELESS.has(e);

/**
 * Refusals of the command's system (WRONG_SYSTEM) or shape against its system's contract (admit's
 * checkCommand): the fight's state plays no part in them, so none is judged again on the fight read on
 * from the store (a flood of malformed commands costs no reads).
 */
const STATELESS = new WeakSet<object>();

/** `check` run; a refusal it throws of the command's system or shape is marked STATELESS. */
function stateless<T>(check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof ContractViolation || (e instanceof AppError && e.code === 'WRONG_SYSTEM'))
      STATELESS.add(e);
    throw e;
  }
}

/** Events read at a time when a command's first result is read back (most commands append fewer). */
const REPLAY_PAGE = 16;
/**
 * How many more times a command without a precondition is decided after its append met another instance's
 * (README, "Several instances can share one PostgreSQL"); then it is 409 CONCURRENCY_CONFLICT. Each conflict
 * means another command landed, so the fight moves on; the bound keeps one request from chasing a fight others
 * keep writing. Losses come in runs: the instance that just appended decides its next command on a cached
 * fight, the loser reads first, so it loses again while the other has commands queued. 120 notes sent through
 * two instances at once on PostgreSQL gave runs of up to 16 (with 5, about one command in a hundred was
 * still a 409).
 */
export const CONFLICT_RETRIES = 20;

export interface CommandResult {
  fightId: string;
  seq: number;
  events: FightEvent[];
  view: Record<string, unknown>;
  /** True when `commandId` was seen before: the first result, nothing appended. */
  replayed: boolean;
}

/** A command waiting for its fight's round (FightCommands.drain). */
interface Waiting {
  /** The command, with its commandId. */
  sent: CommandInput;
  actor: Actor;
  settle(settled: Settled): void;
}

/** A command's answer, and the rule system of its fight (for the metrics). */
type Settled = ({ result: CommandResult } | { error: unknown }) & { system: string };

/**
 * The most commands of one fight decided and appended together (FightCommands.runTogether): a round of
 * them is one transaction, and its first answer waits for its last decision.
 */
const MAX_TOGETHER = 64;

export type CommandOutcome = {
  system: string;
  type: string;
  seconds: number;
  outcome: 'ok' | 'rejected' | 'failed';
  events: number;
};

/**
 * The command path for every transport (DESIGN.md "Commands, end to end"): load the fight, decide the command
 * with the command core (libs/fight-log), append its sealed events, evolve the cached fight.
 */
export class FightCommands {
  /** Per fight, the commands waiting while one of its rounds runs (drain): one round at a time per fight. */
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly vault: SeedVault;
  /** Called after each command with its outcome (metrics listen). */
  readonly onCommandDone = new Set<(done: CommandOutcome) => void>();
  /**
   * Called after each append of a fight's events: with no argument once it is stored, with the error when the
   * store failed it (a conflict, which wrote nothing because another writer was first, is not the store's failure).
   */
  readonly onAppend = new Set<(failure?: unknown) => void>();

  constructor(
    private readonly store: EventStore,
    private readonly cache: FightCache,
    private readonly clock: () => Date,
    /** Told of every event this instance appends, in order. */
    private readonly committed: (events: FightEvent[]) => void,
  ) {
    this.vault = new SeedVault(store);
  }

  async create(
    input: CreateFightInput,
    actor: Actor,
    beforeAppend?: (fightId: string) => Promise<void>,
  ): Promise<CommandResult> {
    const { commandId, ...fields } = input;
    if (commandId !== undefined) return this.createOnce(commandId, fields, actor, beforeAppend);
    const { system, seed, command } = startCommand(fields);
    const fight: LoadedFight = { ...blankFight(system, randomUUID()), commands: new CommandIndex(), seed };
    const decision = decideCommand(fight, command, {});
    await beforeAppend?.(fight.fightId);
    await this.vault.seal(fight.fightId, seed);
    return this.appendCreation(fight, decision, randomUUID(), command, actor);
  }

  /**
   * A creation with an idempotency key: the fight's id is derived from the tenant and the key, so a retry (after
   * a timeout, on any instance) lands on the same fight. A creation is three appends (ownership, sealed seed,
   * the fight's first events); a retry resumes after those an earlier attempt made, keeping the seed it sealed,
   * and once the fight exists answers its first result (replayed), or COMMAND_ID_REUSED when the key created a
   * fight from other fields. Two attempts at once: the one whose append loses goes round again and replays.
   */
  private async createOnce(
    commandId: string,
    input: Omit<CreateFightInput, 'commandId'>,
    actor: Actor,
    beforeAppend?: (fightId: string) => Promise<void>,
  ): Promise<CommandResult> {
    const fightId = creationFightId(actor.tenantId, commandId);
    for (let attempt = 0; attempt < CONFLICT_RETRIES; attempt++) {
      // The fight first, then its seed: an attempt that finishes between the two reads has sealed its seed before
      // its fight's first events, so a fight found here is compared with the command its own seed makes (read the
      // other way round, a seed not sealed yet made a command of another seed, refused as COMMAND_ID_REUSED).
      const exists = (await this.store.readStream(fightStream(fightId), { limit: 1 })).length > 0;
      const sealed = await this.vault.sealed(fightId);
      const { system, seed, command } = startCommand(input, sealed);
      if (exists) return this.createdBefore(await this.cache.refresh(fightId), commandId, command);
      if (sealed !== undefined && seed !== sealed) throw creationKeyReused(commandId, fightId);
      const fight: LoadedFight = { ...blankFight(system, fightId), commands: new CommandIndex(), seed };
      const decision = decideCommand(fight, command, {});
      await beforeAppend?.(fightId);
      try {
        if (sealed === undefined) await this.vault.seal(fightId, seed);
        return await this.appendCreation(fight, decision, commandId, command, actor);
      } catch (e) {
        // Another attempt of the same creation sealed or appended first: read what it left, and go on from there.
        if (!(e instanceof WrongExpectedRevision)) throw e;
      }
    }
    throw concurrencyConflict(fightId);
  }

  /** The first result of a creation whose fight exists: the same StartFight, or COMMAND_ID_REUSED. */
  private async createdBefore(
    fight: LoadedFight,
    commandId: string,
    command: RuleCommand,
  ): Promise<CommandResult> {
    const { events, command: recorded } = await this.commandAt(fight.fightId, 1, commandId);
    if (events.length === 0 || !recorded || !sameCommand(recorded, recordedCommand(command)))
      throw creationKeyReused(commandId, fight.fightId);
    return { fightId: fight.fightId, seq: fight.seq, events, view: viewOf(fight), replayed: true };
  }

  private appendCreation(
    fight: LoadedFight,
    decision: ReturnType<typeof decideCommand>,
    commandId: string,
    command: RuleCommand,
    actor: Actor,
  ): Promise<CommandResult> {
    const sealed = sealEvents(fight, decision, {
      commandId,
      actor: actor.name,
      at: this.clock().toISOString(),
      command,
    });
    return this.append(fight, sealed, { tenantId: actor.tenantId, requestId: actor.requestId });
  }

  async execute(fightId: string, input: CommandInput, actor: Actor): Promise<CommandResult> {
    const started = process.hrtime.bigint();
    // One id for every decision of this command: whichever of them landed, the next one replays it.
    const sent: CommandInput = { ...input, commandId: input.commandId ?? randomUUID() };
    const settled = await new Promise<Settled>((resolve) => {
      let answered = false;
      const job: Waiting = {
        sent,
        actor,
        settle: (s) => {
          if (!answered) resolve(s);
          answered = true;
        },
      };
      const waiting = this.waiting.get(fightId);
      if (waiting) return void waiting.push(job);
      this.waiting.set(fightId, [job]);
      void this.drain(fightId);
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const type = String(input.type).slice(0, 60);
    const outcome = (o: CommandOutcome['outcome'], events: number) => {
      for (const listener of this.onCommandDone)
        listener({ system: settled.system, type, seconds, outcome: o, events });
    };
    if ('result' in settled) {
      outcome('ok', settled.result.replayed ? 0 : settled.result.events.length);
      return settled.result;
    }
    const e = settled.error;
    outcome(e instanceof RuleViolation || e instanceof AppError ? 'rejected' : 'failed', 0);
    throw e;
  }

  /**
   * Runs the commands waiting for one fight, in the order they came, until none are left. The first runs
   * alone; those that came meanwhile run together (runTogether): one append for all their events, so a
   * busy fight's commands share a transaction as different fights' do (group commit).
   */
  private async drain(fightId: string): Promise<void> {
    const waiting = this.waiting.get(fightId)!;
    while (waiting.length > 0) {
      const round = waiting.splice(0, MAX_TOGETHER);
      try {
        const left = round.length > 1 ? await this.runTogether(fightId, round) : round;
        // None taken together: the first runs alone.
        if (left.length === round.length) await this.runAlone(fightId, left.shift()!);
        waiting.unshift(...left);
      } catch (error) {
        // Not an answer (refusals are): the cache or the store failed outside an append. No command waits on.
        for (const job of round) job.settle({ error, system: 'unknown' });
      }
    }
    this.waiting.delete(fightId);
  }

  /** One command on its own: decided, appended, retried on a conflict (retried). */
  private async runAlone(fightId: string, job: Waiting): Promise<void> {
    let system = 'unknown';
    try {
      const result = await this.retried(fightId, job.sent.expectedSeq, (fight) => {
        system = fight.system.id;
        return this.handle(fight, job.sent, job.actor);
      });
      job.settle({ result, system });
    } catch (error) {
      job.settle({ error, system });
    }
  }

  /**
   * Commands that waited for the same fight, decided one after another on the fight as each leaves it and
   * appended as one: they land together or not at all. Returns those it did not take: from the first that
   * must be judged on its own (an undo, whose stack is read from the log; a commandId the fight has seen,
   * whose first result is read from the log; a command that expects a seq ahead of this instance's copy;
   * an id twice in the round), which then runs alone. Every answer (results, refusals) is given once the
   * append has landed, so each is one the fight as stored gives: the append expects the head the first was
   * decided on. When it does not land (another instance appended first, or an error), each command taken is
   * run again alone, in order: the same commandId, so one whose events did land gets its first result. None
   * is taken (all are left) when fewer than two are; when none of those taken appends, each runs alone.
   */
  private async runTogether(fightId: string, round: Waiting[]): Promise<Waiting[]> {
    let head: LoadedFight;
    try {
      head = await this.cache.load(fightId);
    } catch {
      return round;
    }
    const taken: Array<{ job: Waiting; fight: LoadedFight; sealed: LogEntry[]; error?: unknown }> = [];
    const ids = new Set<string>();
    let fight = head;
    for (const job of round) {
      const { commandId = '', expectedSeq, type } = job.sent;
      if (
        type === UNDO_COMMAND ||
        (expectedSeq !== undefined && expectedSeq > fight.seq) ||
        ids.has(commandId) ||
        fight.commands.candidates(commandId).length > 0
      )
        break;
      ids.add(commandId);
      let sealed: LogEntry[];
      try {
        stateless(() => admitSystem(fight, job.sent[DECLARED_FOR]));
        sealed = await this.decided(fight, job.sent, job.actor);
      } catch (error) {
        taken.push({ job, fight, sealed: [], error });
        continue;
      }
      const evolved = sealed.length === 0 ? fight : evolveFight(fight, sealed);
      if (!evolved) break;
      taken.push({ job, fight: evolved, sealed });
      fight = evolved;
    }
    if (taken.length < 2) return round;
    if (taken.every((t) => t.sealed.length === 0)) {
      // Nothing to append, so nothing shows the copy they were judged on is the stored fight: each is
      // judged alone (a refusal read on once), and none is decided again in a later round.
      for (const t of taken) await this.runAlone(fightId, t.job);
      return round.slice(taken.length);
    }
    const system = head.system.id;
    try {
      await this.appendAt(
        head,
        taken.flatMap((t) => t.sealed.map((e) => toNewEvent(e, { requestId: t.job.actor.requestId }))),
      );
    } catch {
      for (const t of taken) await this.runAlone(fightId, t.job);
      return round.slice(taken.length);
    }
    let answers: Settled[];
    try {
      answers = taken.map((t): Settled => {
        if (t.error !== undefined) return { error: t.error, system };
        if (t.sealed.length > 0) this.landed(t.fight, t.sealed);
        const events = t.sealed.map(envelopeOf);
        return {
          result: { fightId, seq: t.fight.seq, events, view: viewOf(t.fight), replayed: false },
          system,
        };
      });
      this.committed(answers.flatMap((a) => ('result' in a ? a.result.events : [])));
    } catch (error) {
      // Landed, but a listener (or the cache) failed: each command's answer is that error, as one alone gets.
      answers = taken.map(() => ({ error, system }));
    }
    taken.forEach((t, i) => t.job.settle(answers[i]));
    return round.slice(taken.length);
  }

  /**
   * DESIGN.md step 5: on a conflict (another instance appended first), read on from the cached fight to the
   * store's head and decide again. A command without a precondition is decided up to CONFLICT_RETRIES more
   * times before the conflict is a 409; one with an `expectedSeq` (or If-Match) once, where it meets its
   * replay or its EXPECTED_SEQ_MISMATCH (the fight it names is gone).
   */
  private async retried(
    fightId: string,
    expectedSeq: number | undefined,
    attempt: (fight: LoadedFight) => Promise<CommandResult>,
  ): Promise<CommandResult> {
    const cached = await this.cache.load(fightId);
    // The client has seen more than this instance holds (another one wrote since): read on before judging.
    let fight =
      expectedSeq !== undefined && expectedSeq > cached.seq ? await this.cache.refresh(fightId) : cached;
    let judgedAgain = false;
    for (let retries = expectedSeq === undefined ? CONFLICT_RETRIES : 1; ; retries--) {
      try {
        return await attempt(fight);
      } catch (e) {
        if (isRefusal(e) && !judgedAgain) {
          // Refused on this instance's copy of the fight, which another instance's append may have left
          // behind (its follower brings it up a moment later): judged once more on the fight read on from
          // the store, if that moved. A refusal on the fight as it stands is the answer.
          judgedAgain = true;
          const read = await this.cache.refresh(fightId);
          if (read.seq === fight.seq) throw e;
          fight = read;
          continue;
        }
        if (!(e instanceof WrongExpectedRevision)) throw e;
        if (retries === 0) throw concurrencyConflict(fightId);
      }
      fight = await this.cache.refresh(fightId);
    }
  }

  /** Load state (done), decide, append, evolve. */
  private async handle(fight: LoadedFight, input: CommandInput, actor: Actor): Promise<CommandResult> {
    const { commandId = randomUUID(), expectedSeq: _seq, [DECLARED_FOR]: declared, ...sent } = input;
    stateless(() => admitSystem(fight, declared));
    const replayed = await this.replay(fight, commandId, sent, actor);
    if (replayed) return replayed;
    const sealed = await this.decided(fight, { ...input, commandId }, actor);
    if (sealed.length === 0)
      return { fightId: fight.fightId, seq: fight.seq, events: [], view: viewOf(fight), replayed: false };
    return this.append(fight, sealed, { requestId: actor.requestId });
  }

  /**
   * `input` admitted and decided on `fight`, its events sealed onto it (none when the rules append none).
   * Its system is judged first, by the caller (admitSystem).
   */
  private async decided(fight: LoadedFight, input: CommandInput, actor: Actor): Promise<LogEntry[]> {
    const { commandId = randomUUID(), expectedSeq, [DECLARED_FOR]: _declared, ...sent } = input;
    const command = stateless(() => admit(fight, sent, expectedSeq, actor));
    const decision = decideCommand(fight, command, await this.inputsFor(fight, command));
    if (decision.events.length === 0) return [];
    return sealEvents(fight, decision, {
      commandId,
      actor: actor.name,
      at: this.clock().toISOString(),
      command,
    });
  }

  /** Appends sealed events at the fight's head and evolves the cached fight (an undo folds its stream again). */
  private async append(
    fight: LoadedFight,
    sealed: LogEntry[],
    extra: { tenantId?: string; requestId?: string },
  ): Promise<CommandResult> {
    await this.appendAt(
      fight,
      sealed.map((e) => toNewEvent(e, extra)),
    );
    const evolved = evolveFight(fight, sealed);
    if (evolved) this.landed(evolved, sealed);
    const events = sealed.map(envelopeOf);
    this.committed(events);
    const next = evolved ?? (await this.cache.reload(fight.fightId));
    return {
      fightId: fight.fightId,
      seq: sealed[sealed.length - 1].seq,
      events,
      view: viewOf(next),
      replayed: false,
    };
  }

  /**
   * `events` appended to the fight's stream at `head` (they expect its head revision). A conflict wrote
   * nothing, and the cached fight is still a prefix of the stream: a retry reads on from it
   * (FightCache.refresh). Anything else may or may not have landed: the next command reads the store again.
   */
  private async appendAt(head: LoadedFight, events: NewEvent[]): Promise<void> {
    const expectedRevision = head.seq === 0 ? 'no_stream' : BigInt(head.seq - 1);
    try {
      await this.store.append(fightStream(head.fightId), events, { expectedRevision });
    } catch (e) {
      if (!(e instanceof WrongExpectedRevision)) {
        this.cache.forget(head.fightId);
        for (const listener of this.onAppend) listener(e);
      }
      throw e;
    }
    for (const listener of this.onAppend) listener();
  }

  /** `fight`, evolved by `sealed` (one command's events) now stored: its command indexed, the cache holding it. */
  private landed(fight: LoadedFight, sealed: LogEntry[]): void {
    fight.commands.add(sealed[0].commandId, sealed[0].seq);
    this.cache.remember(fight);
  }

  /** The seed (dice, EndFight) and the undo stack (UndoCommands), read only when the command needs them. */
  private async inputsFor(fight: LoadedFight, command: RuleCommand): Promise<DecisionInputs> {
    const needs = needsOf(fight, command);
    const inputs: DecisionInputs = {};
    if (needs.seed) inputs.seed = fight.seed ??= await this.vault.open(fight.fightId);
    if (needs.undo)
      inputs.undo = undoStackOf((await this.store.readStream(fightStream(fight.fightId))).map(toFightEvent));
    return inputs;
  }

  /**
   * The first result of a command seen before: the candidate whose stored events carry exactly `commandId`;
   * undefined when the id is new, or every candidate is another id sharing its index key (a collision).
   * The id is an idempotency key for one command: sent again with another command (another type or
   * fields), it is 422 COMMAND_ID_REUSED, as the IETF Idempotency-Key draft answers a key reused with
   * another payload; the first result would have told the client its new command was applied.
   * A player's token gets the first result of a command another actor sent only when it may send that
   * command itself (C3): a GM-only command's id does not open its result to a player.
   */
  private async replay(
    fight: LoadedFight,
    commandId: string,
    sent: Omit<CommandInput, 'commandId' | 'expectedSeq'>,
    actor: Actor,
  ): Promise<CommandResult | undefined> {
    for (const seq of fight.commands.candidates(commandId)) {
      const { events, command } = await this.commandAt(fight.fightId, seq, commandId);
      if (events.length === 0) continue;
      if (command && !sameCommand(command, recordedCommand(sent as RuleCommand)))
        throw new AppError(
          422,
          'COMMAND_ID_REUSED',
          `commandId ${commandId} was the id of another command in this fight (${String(command.type)} at seq ${events[0].seq}): a new command needs a new commandId`,
          'commandId',
        );
      if (actor.scope !== 'all' && events[0].actor !== actor.name) admit(fight, sent, undefined, actor);
      return { fightId: fight.fightId, seq: fight.seq, events, view: viewOf(fight), replayed: true };
    }
    return undefined;
  }

  /**
   * The events of command `commandId` if they start at `seq`: read a few at a time from there (not to
   * the end of the fight: an early command replayed in a long fight costs its own events); none when
   * the event at `seq` is another command's.
   */
  private async commandAt(
    fightId: string,
    seq: number,
    commandId: string,
  ): Promise<{ events: FightEvent[]; command?: Record<string, unknown> }> {
    const events: FightEvent[] = [];
    let command: Record<string, unknown> | undefined;
    for (let from = seq - 1; ;) {
      const page = await this.store.readStream(fightStream(fightId), {
        from: BigInt(from),
        limit: REPLAY_PAGE,
      });
      for (const stored of page) {
        const metadata = stored.metadata as EventMetadata | undefined;
        if (metadata?.commandId !== commandId) return { events, command };
        if (events.length === 0) command = metadata.command;
        events.push(toFightEvent(stored));
      }
      if (page.length < REPLAY_PAGE) return { events, command };
      from += page.length;
    }
  }
}

/** The fight a creation with idempotency key `commandId` makes: one per tenant and key, on every instance. */
export function creationFightId(tenantId: string | undefined, commandId: string): string {
  return uuidv5(JSON.stringify([tenantId ?? null, commandId]), CREATION_NAMESPACE);
}

/** The namespace of creationFightId's name-based (RFC 9562 version 5) ids. */
const CREATION_NAMESPACE = '5b0c1b8e-6f3e-4c36-9a57-5a3f0c2d7e41';

const creationKeyReused = (commandId: string, fightId: string) =>
  new AppError(
    422,
    'COMMAND_ID_REUSED',
    `commandId ${commandId} created fight ${fightId} from other fields: a new fight needs a new commandId`,
    'commandId',
  );

/** Two commands as the log records them, compared as JSON (key order and absent fields aside). */
function sameCommand(recorded: Record<string, unknown>, sent: RuleCommand): boolean {
  return canonicalJson(recorded) === canonicalJson(JSON.parse(JSON.stringify(sent)) as unknown);
}
