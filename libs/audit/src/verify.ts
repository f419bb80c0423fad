import {
  decideCommand,
  decideUndo,
  eventHash,
  FightFolder,
  GENESIS_HASH,
  isUndo,
  LogEntry,
  UNDO_COMMAND,
  UndoStack,
} from '@app/fight-log';
import {
  checkCommand,
  FightCore,
  findSystem,
  RuleCommand,
  RuleEvent,
  RuleSystem,
  RuleViolation,
  seedCommitment,
} from '@app/rules';
import { canonical, firstDifference } from './canonical';
import { entryProblem, FightLog, headerProblem, ShapeProblem } from './log';

export type CheckName = 'chain' | 'sequence' | 'seed' | 'decisions' | 'view' | 'head';
export type CheckStatus = 'ok' | 'failed' | 'skipped';

export interface CheckResult {
  status: CheckStatus;
  detail?: string;
  /**
   * On a failed check, the seq it fails at (0: the header; N+1: an event the log lacks), the one its
   * detail names (`seq N: …`). Absent when the check could not run at all.
   */
  seq?: number;
}

/** Where a log first stops being what the service would have written. */
export interface Divergence {
  seq: number;
  check: CheckName;
  expected: unknown;
  found: unknown;
  message: string;
}

/**
 * What a report can prove about a log; each is in `proven` only when everything it rests on passed.
 * - chainIntact: every hash follows from the one before from genesis, seq 1..N without gaps, one fight, each
 *   commandId used by one command, and the header's count and head hash are those of the last event.
 * - seedVerified: the seed revealed by FightEnded (or given to the verifier) hashes to FightStarted's commitment.
 * - decisionsVerified: every command decided again, with the dice it drew, gives exactly the recorded events.
 * - viewMatches: the header's view is the fight folded at its last event. Not proven (view skipped) for a view
 *   of another view version than this build's: one exported before its rule system's view changed.
 * - complete: the log ends with FightEnded (after which the rules accept no command), with all of the above but
 *   the view: it is not a prefix of a longer fight. Without it, events may follow the last one.
 * - headMatches: the log ends exactly at the head hash the auditor expects (`headHash`), over an intact chain.
 * - eventCountMatches: the log holds exactly the number of events the auditor expects (`events`).
 */
export type Claim =
  | 'chainIntact'
  | 'seedVerified'
  | 'decisionsVerified'
  | 'viewMatches'
  | 'complete'
  | 'headMatches'
  | 'eventCountMatches';

export const CLAIMS: readonly Claim[] = [
  'chainIntact',
  'seedVerified',
  'decisionsVerified',
  'viewMatches',
  'complete',
  'headMatches',
  'eventCountMatches',
];

export interface VerificationReport {
  /** No check failed. It does not say the log is a whole fight: see `complete`, `proven` and `notProven`. */
  ok: boolean;
  /** The log ends the fight (the claim `complete`): false for a prefix or a fight still running. */
  complete: boolean;
  /** The claims this log proves, in CLAIMS order. */
  proven: Claim[];
  /** Every other claim, with why it is not proven. */
  notProven: { claim: Claim; reason: string }[];
  fightId: string;
  events: number;
  checks: Record<CheckName, CheckResult>;
  /** The earliest divergent event over all checks (seq 0: the header). */
  firstDivergence?: Divergence;
}

export interface VerifyOptions {
  /** A seed the auditor holds (seeded mode) to check dice before FightEnded reveals it. */
  seed?: string;
  /** A head hash the auditor trusts (from the live service, a stream overlay…): the log must end exactly there. */
  headHash?: string;
  /** The number of events the auditor expects the log to hold. */
  events?: number;
}

export const CHECKS: readonly CheckName[] = ['chain', 'sequence', 'seed', 'decisions', 'view', 'head'];

interface Outcome {
  result: CheckResult;
  divergence?: Divergence;
}

/** What every check reads, taken from the log without trusting its shape. */
interface Context {
  header: Record<string, unknown>;
  headerProblem?: ShapeProblem;
  /** The well-formed entries before the first malformed one. */
  entries: LogEntry[];
  total: number;
  malformed?: { seq: number; problem: ShapeProblem };
  fightId: string;
  system?: RuleSystem<FightCore>;
  dice?: { mode: string; commitment: string; clientSeed: string; drawKey?: string };
  revealed?: { seq: number; seed: unknown };
}

/**
 * Checks that a fight log is unaltered and follows from the rules and fair dice, and, against an
 * expected head, that it is the whole fight the auditor expects; `proven` and `notProven` say which. Never throws.
 */
export function verifyFightLog(log: FightLog, options: VerifyOptions = {}): VerificationReport {
  const ctx = contextOf(log);
  const run: Record<CheckName, (c: Context, o: VerifyOptions) => Outcome> = {
    chain,
    sequence,
    seed,
    decisions,
    view,
    head,
  };
  const checks = {} as Record<CheckName, CheckResult>;
  let firstDivergence: Divergence | undefined;
  for (const name of CHECKS) {
    const outcome = guarded(() => run[name](ctx, options));
    checks[name] = outcome.result;
    if (outcome.divergence && (!firstDivergence || outcome.divergence.seq < firstDivergence.seq))
      firstDivergence = outcome.divergence;
  }
  const claims = claimsOf(ctx, options, checks);
  const proven = CLAIMS.filter((c) => claims[c] === true);
  const notProven = CLAIMS.flatMap((claim) =>
    claims[claim] === true ? [] : [{ claim, reason: claims[claim] }],
  );
  const report: VerificationReport = {
    ok: CHECKS.every((n) => checks[n].status !== 'failed'),
    complete: claims.complete === true,
    proven,
    notProven,
    fightId: ctx.fightId,
    events: ctx.total,
    checks,
  };
  if (firstDivergence) report.firstDivergence = firstDivergence;
  return report;
}

/** Each claim: true, or why it is not proven. */
function claimsOf(
  ctx: Context,
  options: VerifyOptions,
  checks: Record<CheckName, CheckResult>,
): Record<Claim, true | string> {
  const from = (...names: CheckName[]): true | string => {
    const bad = names.find((n) => checks[n].status !== 'ok');
    return bad === undefined
      ? true
      : `${bad} ${checks[bad].status === 'failed' ? 'failed' : 'was skipped'}: ${checks[bad].detail ?? ''}`;
  };
  const chainIntact = from('chain', 'sequence');
  const seedVerified = from('seed');
  const decisionsVerified = from('decisions');
  const last = ctx.malformed ? undefined : ctx.entries[ctx.entries.length - 1];
  const needs = (own: true | string, ...on: [Claim, true | string][]): true | string => {
    if (own !== true) return own;
    const missing = on.filter(([, v]) => v !== true).map(([c]) => c);
    return missing.length === 0 ? true : `it rests on ${missing.join(', ')}, not proven`;
  };
  const ends =
    last?.type === 'FightEnded' ||
    `the log does not end with FightEnded: the fight may go on after seq ${ctx.total} (a prefix, or a fight not ended yet)`;
  const unexpected = (what: string) =>
    `no expected ${what} was given: nothing ties the log to the fight the service holds (a prefix with its header rebuilt verifies too)`;
  const headMatches =
    options.headHash === undefined
      ? unexpected('head hash')
      : options.headHash === last?.hash ||
        `the log ends at ${last?.hash ?? 'no well-formed event'}, not at the expected head hash`;
  const eventCountMatches =
    options.events === undefined
      ? unexpected('event count')
      : options.events === ctx.total ||
        `the log holds ${ctx.total} events, not the expected ${options.events}`;
  return {
    chainIntact,
    seedVerified,
    decisionsVerified,
    viewMatches: from('view'),
    complete: needs(
      ends,
      ['chainIntact', chainIntact],
      ['seedVerified', seedVerified],
      ['decisionsVerified', decisionsVerified],
    ),
    headMatches: needs(headMatches, ['chainIntact', chainIntact]),
    eventCountMatches: needs(eventCountMatches, ['chainIntact', chainIntact]),
  };
}

function contextOf(log: unknown): Context {
  const header = isObject(log) ? log : {};
  const raw: unknown[] = Array.isArray(header.entries) ? header.entries : [];
  const ctx: Context = {
    header,
    headerProblem: headerProblem(header),
    entries: [],
    total: raw.length,
    fightId: '',
  };
  if (!Array.isArray(header.entries))
    ctx.malformed = { seq: 1, problem: { field: 'entries', message: 'must be an array' } };
  for (let i = 0; i < raw.length && !ctx.malformed; i++) {
    const problem = entryProblem(raw[i]);
    if (problem) ctx.malformed = { seq: i + 1, problem };
    else ctx.entries.push(raw[i] as LogEntry);
  }
  const first = ctx.entries[0];
  ctx.fightId = typeof header.fightId === 'string' ? header.fightId : (first?.fightId ?? '');
  if (first?.type === 'FightStarted') {
    ctx.system = findSystem(String(first.data.system));
    const d = first.data.dice;
    if (
      isObject(d) &&
      typeof d.mode === 'string' &&
      typeof d.commitment === 'string' &&
      typeof d.clientSeed === 'string'
    ) {
      // C14: a recorded drawKey replaces the fight id in every draw; old logs have none.
      ctx.dice = {
        mode: d.mode,
        commitment: d.commitment,
        clientSeed: d.clientSeed,
        ...(typeof d.drawKey === 'string' && { drawKey: d.drawKey }),
      };
    }
  }
  const ended = ctx.entries.findIndex((e) => e.type === 'FightEnded');
  if (ended >= 0) ctx.revealed = { seq: ended + 1, seed: ctx.entries[ended].data.seed };
  return ctx;
}

/** Every hash recomputed from the previous one; the header's count and head hash close the chain. */
function chain(ctx: Context, _options: VerifyOptions): Outcome {
  let previous = GENESIS_HASH;
  for (let i = 0; i < ctx.entries.length; i++) {
    const e = ctx.entries[i];
    const expected = eventHash(previous, e);
    if (expected !== e.hash)
      return failed(
        'chain',
        i + 1,
        `the hash of the event at seq ${i + 1} does not follow from the previous hash`,
        expected,
        e.hash,
      );
    previous = e.hash;
  }
  if (ctx.malformed)
    return skipped(
      `hashes hold up to seq ${ctx.malformed.seq - 1}; the entry at seq ${ctx.malformed.seq} is malformed (see sequence)`,
    );
  const { events, headHash } = ctx.header;
  if (events !== ctx.total) {
    const seq =
      (typeof events === 'number' && Number.isSafeInteger(events)
        ? Math.max(0, Math.min(events, ctx.total))
        : ctx.total) + 1;
    return failed(
      'chain',
      seq,
      `the header counts ${String(events)} events but the log holds ${ctx.total}`,
      events,
      ctx.total,
    );
  }
  if (headHash !== previous)
    return failed(
      'chain',
      ctx.total,
      'the header head hash is not the hash of the last event',
      previous,
      headHash,
    );
  return ok(`${ctx.total} hashes verified`);
}

/** The log ends where the auditor expects it to (a head hash, an event count): a prefix, a longer log or another fight fails. */
function head(ctx: Context, options: VerifyOptions): Outcome {
  const { headHash, events } = options;
  if (headHash === undefined && events === undefined)
    return skipped('no expected head hash or event count was given');
  if (ctx.malformed) return skipped(`the entry at seq ${ctx.malformed.seq} is malformed (see sequence)`);
  if (events !== undefined && events !== ctx.total) {
    const message =
      events > ctx.total
        ? `the log holds ${ctx.total} events, ${events} expected: it stops early (a prefix of the fight)`
        : `the log holds ${ctx.total} events, ${events} expected: it goes on past the expected end`;
    return failed('head', Math.min(events, ctx.total) + 1, message, events, ctx.total);
  }
  const last = ctx.entries[ctx.entries.length - 1]?.hash;
  if (headHash !== undefined && headHash !== last) {
    const at = ctx.entries.findIndex((e) => e.hash === headHash);
    if (at >= 0)
      return failed(
        'head',
        at + 2,
        `the expected head hash is the hash of seq ${at + 1}: the log goes on past it to seq ${ctx.total}`,
        headHash,
        last,
      );
    return failed(
      'head',
      ctx.total + 1,
      'the log does not reach the expected head hash: it is a prefix of the fight, or another log',
      headHash,
      last,
    );
  }
  const what = [
    headHash !== undefined ? 'the expected head hash' : '',
    events !== undefined ? `the expected ${events} events` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return ok(`the log ends at ${what}`);
}

/** seq 1..N without gaps, one fightId, FightStarted first, each commandId used by one command only. */
function sequence(ctx: Context): Outcome {
  if (ctx.headerProblem)
    return failed(
      'sequence',
      0,
      `header: ${ctx.headerProblem.field} ${ctx.headerProblem.message}`,
      undefined,
      ctx.header[ctx.headerProblem.field],
    );
  const seen = new Map<string, number>();
  for (let i = 0; i < ctx.entries.length; i++) {
    const e = ctx.entries[i];
    const seq = i + 1;
    if (e.seq !== seq)
      return failed('sequence', seq, `the event at position ${seq} has seq ${e.seq}`, seq, e.seq);
    if (e.fightId !== ctx.fightId)
      return failed(
        'sequence',
        seq,
        `the event at seq ${seq} belongs to fight ${e.fightId}`,
        ctx.fightId,
        e.fightId,
      );
    if (i === 0 && e.type !== 'FightStarted')
      return failed('sequence', 1, 'a fight log starts with FightStarted', 'FightStarted', e.type);
    // Every event the service seals is of version 1 (libs/fight-log sealEvents): another is no event it wrote.
    if (e.v !== 1)
      return failed(
        'sequence',
        seq,
        `the event at seq ${seq} is of version ${e.v}; the service writes version 1`,
        1,
        e.v,
      );
    // A command is recorded on its first event only: one on a later event would never be decided, nor read.
    if (i > 0 && e.command !== undefined && ctx.entries[i - 1].commandId === e.commandId)
      return failed(
        'sequence',
        seq,
        `the event at seq ${seq} records a command, but only the first event of a command does (command ${e.commandId} starts before it)`,
        undefined,
        e.command,
      );
    const firstUse = seen.get(e.commandId);
    if (firstUse !== undefined && ctx.entries[i - 1].commandId !== e.commandId) {
      return failed(
        'sequence',
        seq,
        `commandId ${e.commandId} was already used by the command at seq ${firstUse}`,
        undefined,
        e.commandId,
      );
    }
    if (firstUse === undefined) seen.set(e.commandId, seq);
  }
  if (ctx.malformed) {
    const { seq, problem } = ctx.malformed;
    return failed(
      'sequence',
      seq,
      `the entry at seq ${seq} is malformed: ${problem.field} ${problem.message}`,
      undefined,
      problem.field,
    );
  }
  if (ctx.entries.length === 0)
    return failed('sequence', 1, 'the log has no events', 'FightStarted', undefined);
  const system = ctx.entries[0].data.system;
  if (ctx.header.system !== system)
    return failed(
      'sequence',
      1,
      `the header names system ${String(ctx.header.system)}, FightStarted ${String(system)}`,
      system,
      ctx.header.system,
    );
  return undos(ctx) ?? ok(`seq 1..${ctx.total}`);
}

/** Undos need no dice: each ActionsUndone must be exactly what UndoCommands plans on the events before it. */
function undos(ctx: Context): Outcome | undefined {
  const stack = new UndoStack();
  for (const group of commandGroups(ctx.entries)) {
    const seq = group[0].seq;
    if (group[0].command?.type === UNDO_COMMAND || group.some(isUndo)) {
      const found = group.map(recorded);
      let expected: unknown;
      try {
        expected = decideUndo(stack, group[0].command?.count);
      } catch (e) {
        expected = e instanceof RuleViolation ? `${e.code}: ${e.message}` : String(e);
      }
      if (group[0].command?.type !== UNDO_COMMAND || canonical(expected) !== canonical(found)) {
        return failed(
          'sequence',
          seq,
          `the undo at seq ${seq} is not what UndoCommands ${String(group[0].command?.count)} takes back`,
          expected,
          found,
        );
      }
    }
    stack.push(group);
  }
  return undefined;
}

function commandGroups(entries: LogEntry[]): LogEntry[][] {
  const groups: LogEntry[][] = [];
  for (let start = 0; start < entries.length;) {
    let end = start + 1;
    while (end < entries.length && entries[end].commandId === entries[start].commandId) end++;
    groups.push(entries.slice(start, end));
    start = end;
  }
  return groups;
}

/** C2: the revealed seed hashes to the commitment published in FightStarted. */
function seed(ctx: Context, options: VerifyOptions): Outcome {
  if (!ctx.dice)
    return failed(
      'seed',
      1,
      'FightStarted carries no dice commitment',
      'data.dice',
      ctx.entries[0]?.data.dice,
    );
  const hd = isObject(ctx.header.dice) ? ctx.header.dice : {};
  for (const f of ['mode', 'commitment', 'clientSeed'] as const) {
    if (hd[f] !== ctx.dice[f])
      return failed('seed', 1, `header dice.${f} differs from FightStarted`, ctx.dice[f], hd[f]);
  }
  const { revealed } = ctx;
  if (revealed) {
    const found = typeof revealed.seed === 'string' ? seedCommitment(revealed.seed) : undefined;
    if (found !== ctx.dice.commitment)
      return failed(
        'seed',
        revealed.seq,
        'the seed revealed by FightEnded does not match the commitment in FightStarted',
        ctx.dice.commitment,
        found,
      );
    if (hd.seed !== revealed.seed)
      return failed(
        'seed',
        revealed.seq,
        'header dice.seed is not the seed FightEnded reveals',
        revealed.seed,
        hd.seed,
      );
    return ok(`the seed revealed at seq ${revealed.seq} matches the commitment`);
  }
  if (hd.seed !== undefined)
    return failed(
      'seed',
      ctx.total + 1,
      'header dice.seed is set but no FightEnded reveals it',
      undefined,
      hd.seed,
    );
  if (options.seed !== undefined) {
    if (seedCommitment(options.seed) !== ctx.dice.commitment)
      return failed(
        'seed',
        1,
        'the seed supplied to the verifier does not match the commitment',
        ctx.dice.commitment,
        seedCommitment(options.seed),
      );
    return ok('the seed supplied to the verifier matches the commitment');
  }
  return skipped('the fight has not ended: the seed is not revealed yet');
}

/** The seed the dice are recomputed with, or why they cannot be. */
function diceSeed(ctx: Context, options: VerifyOptions): { seed?: string; skip?: string } {
  const manual = ctx.dice?.mode === 'manual';
  const valid = (s: unknown): s is string =>
    typeof s === 'string' && seedCommitment(s) === ctx.dice?.commitment;
  if (ctx.revealed) {
    if (valid(ctx.revealed.seed) || manual)
      return { seed: typeof ctx.revealed.seed === 'string' ? ctx.revealed.seed : undefined };
    return {
      skip: 'the revealed seed does not match the commitment (see seed): the dice cannot be recomputed',
    };
  }
  if (valid(options.seed)) return { seed: options.seed };
  if (manual) return {};
  return {
    skip: `the seed is not revealed yet (the fight has not ended): ${ctx.dice?.mode ?? 'its'} dice cannot be recomputed`,
  };
}

/** Every command decided again on the state before it, with the dice it drew, must give exactly the recorded events. */
function decisions(ctx: Context, options: VerifyOptions): Outcome {
  const { system, dice } = ctx;
  if (!system || !dice)
    return failed(
      'decisions',
      1,
      'FightStarted names no known rule system and dice mode',
      'FightStarted',
      ctx.entries[0]?.data,
    );
  const { seed: key, skip } = diceSeed(ctx, options);
  if (skip) return skipped(skip);
  const folder = new FightFolder(system, ctx.fightId);
  const undo = new UndoStack();
  let drawsUsed = 0;
  let commands = 0;
  let position = 0;
  for (const group of commandGroups(ctx.entries)) {
    const seq = position + 1;
    position += group.length;
    const command = group[0].command;
    if (!command)
      return failed(
        'decisions',
        seq,
        `the event at seq ${seq} starts command ${group[0].commandId} but records no command`,
        'command',
        undefined,
      );
    // entryProblem (log.ts) made sure it is a string.
    const type = String(command.type);
    let expected: RuleEvent[];
    let after: number;
    try {
      if (seq === 1 && command.type !== 'StartFight')
        return failed('decisions', 1, 'the first command must be StartFight', 'StartFight', command.type);
      // A copy, so a log changed after an earlier check is parsed afresh. The service admits the command as sent by
      // its system's contract (libs/fights, command-admission.ts), then decides it: one it would refuse was never decided.
      const sent = { ...command } as RuleCommand;
      checkCommand(system.contract.commands, sent);
      // The command core, as the service decides it (libs/fight-log).
      const decided = decideCommand(
        { system, fightId: ctx.fightId, state: folder.state, seq: seq - 1, drawsUsed },
        sent,
        { seed: key, undo },
      );
      [expected, after] = [decided.events, decided.drawsUsed];
    } catch (e) {
      const why = e instanceof RuleViolation ? `${e.code}: ${e.message}` : (e as Error).message;
      return failed(
        'decisions',
        seq,
        `${type} at seq ${seq} cannot be decided again: ${why}`,
        { error: why },
        recorded(group[0]),
      );
    }
    const mismatch = groupMismatch(group, seq, type, expected, after);
    if (mismatch) return mismatch;
    for (const e of group) {
      try {
        folder.apply(e);
      } catch (err) {
        return failed(
          'decisions',
          e.seq,
          `the event at seq ${e.seq} cannot be folded by the ${system.id} rules: ${err instanceof Error ? err.message : String(err)}`,
          undefined,
          recorded(e),
        );
      }
    }
    undo.push(group);
    drawsUsed = after;
    commands++;
  }
  if (ctx.malformed)
    return skipped(
      `decisions hold up to seq ${ctx.malformed.seq - 1}; the entry at seq ${ctx.malformed.seq} is malformed (see sequence)`,
    );
  return ok(`${commands} commands decided again with ${dice.mode} dice (${drawsUsed} draws)`);
}

/** Where a command's recorded events (from seq `seq`) differ from the events and draws it decides again, if they do. */
function groupMismatch(
  group: LogEntry[],
  seq: number,
  type: string,
  expected: RuleEvent[],
  after: number,
): Outcome | undefined {
  for (let k = 0; k < Math.max(expected.length, group.length); k++) {
    const exp = expected[k] ? { type: expected[k].type, data: expected[k].data } : undefined;
    const rec = group[k] ? recorded(group[k]) : undefined;
    if (canonical(exp) === canonical(rec)) continue;
    const where =
      exp && rec
        ? `: ${firstDifference(exp, rec)} differs`
        : `: it gives ${expected.length} event(s), the log records ${group.length}`;
    return failed(
      'decisions',
      seq + k,
      `the event at seq ${seq + k} does not follow from ${type}${where}`,
      exp,
      rec,
    );
  }
  for (let k = 0; k < group.length; k++) {
    if (group[k].drawsUsed !== after)
      return failed(
        'decisions',
        seq + k,
        `the event at seq ${seq + k} records ${group[k].drawsUsed} dice draws used; ${type} leaves ${after}`,
        after,
        group[k].drawsUsed,
      );
  }
  return undefined;
}

/**
 * The fight view folded at the head, undos honoured, equals the log's, when this build's rule system shows
 * the view version the log's was made by. Another version's view is not compared: it is derived from the
 * events, which the other checks verify, and a view that changed since the export is no forgery. Its events
 * are folded all the same, so one its rules cannot fold still fails here.
 */
function view(ctx: Context): Outcome {
  if (!ctx.system)
    return failed(
      'view',
      1,
      'FightStarted names no known rule system',
      'a rule system',
      ctx.entries[0]?.data.system,
    );
  if (ctx.malformed) return skipped(`the entry at seq ${ctx.malformed.seq} is malformed (see sequence)`);
  const folder = new FightFolder(ctx.system, ctx.fightId);
  // A genuine log never re-folds (undos take back the latest commands); hostile undo ranges could.
  const budget = 4 * ctx.entries.length + 1000;
  for (let i = 0; i < ctx.entries.length; i++) {
    try {
      folder.apply(ctx.entries[i]);
    } catch (e) {
      // An event its rule system cannot fold (another system's sheet, a field it lacks) fails where it is.
      return failed(
        'view',
        i + 1,
        `the event at seq ${i + 1} cannot be folded by the ${ctx.system.id} rules: ${e instanceof Error ? e.message : String(e)}`,
        undefined,
        recorded(ctx.entries[i]),
      );
    }
    if (folder.evolveCalls > budget)
      return failed(
        'view',
        i + 1,
        `the undo at seq ${i + 1} re-folds more events than any undo the service appends`,
        undefined,
        ctx.entries[i].data,
      );
  }
  const last = ctx.entries[ctx.entries.length - 1];
  const other = otherViewVersion(ctx.system, ctx.header.viewVersion);
  if (other) return skipped(other);
  const expected = { ...ctx.system.view(folder.state), seq: last.seq, headHash: last.hash };
  const found = ctx.header.view;
  if (canonical(expected) !== canonical(found)) {
    // A view of a later seq than the log reaches names the first missing event.
    const claimed = isObject(found) && typeof found.seq === 'number' ? found.seq : 0;
    const seq = Math.min(Math.max(claimed, ctx.entries.length), ctx.entries.length + 1);
    return failed(
      'view',
      seq,
      `the log's view is not the fight folded at its head: ${firstDifference(expected, found)} differs`,
      expected,
      found,
    );
  }
  return ok(`view at seq ${last.seq} matches`);
}

/** Why a view made by version `made` is not compared with this build's, or undefined when it is the same. */
function otherViewVersion(system: RuleSystem<FightCore>, made: unknown): string | undefined {
  if (made === system.viewVersion) return undefined;
  const mine = `this verifier shows ${system.id} view version ${system.viewVersion}`;
  const theirs =
    made === undefined
      ? 'the log names no view version (it was exported before views were versioned)'
      : typeof made === 'number' && Number.isSafeInteger(made) && made >= 1
        ? `the log's view was made by ${system.id} view version ${made}`
        : "the log's view version is no version (see sequence)";
  return `${theirs}; ${mine}, so the view is not compared. It is derived from the events, which chain, sequence and decisions verify`;
}

function recorded(e: LogEntry): { type: string; data: Record<string, unknown> } {
  return { type: e.type, data: e.data };
}

function guarded(run: () => Outcome): Outcome {
  try {
    return run();
  } catch (e) {
    return {
      result: {
        status: 'failed',
        detail: `the check could not run: ${e instanceof Error ? e.message : String(e)}`,
      },
    };
  }
}

function ok(detail?: string): Outcome {
  return { result: detail ? { status: 'ok', detail } : { status: 'ok' } };
}

function skipped(detail: string): Outcome {
  return { result: { status: 'skipped', detail } };
}

function failed(check: CheckName, seq: number, message: string, expected: unknown, found: unknown): Outcome {
  return {
    result: { status: 'failed', detail: `seq ${seq}: ${message}`, seq },
    divergence: { seq, check, expected, found, message },
  };
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** A short human summary (CLI `--summary`). */
export function summarizeReport(report: VerificationReport): string {
  const verdict = !report.ok
    ? 'NOT VERIFIED'
    : report.complete
      ? 'VERIFIED, complete'
      : 'VERIFIED, not shown complete';
  const lines = [`fight ${report.fightId}: ${report.events} events — ${verdict}`];
  for (const name of CHECKS) {
    const c = report.checks[name];
    lines.push(`  ${name.padEnd(9)} ${c.status}${c.detail ? ` — ${c.detail}` : ''}`);
  }
  const d = report.firstDivergence;
  if (d) lines.push(`first divergence: seq ${d.seq} (${d.check}): ${d.message}`);
  lines.push(`proven: ${report.proven.join(', ') || 'nothing'}`);
  for (const { claim, reason } of report.notProven) lines.push(`not proven: ${claim} — ${reason}`);
  return lines.join('\n');
}

/** An auditor's expectation that is not one (an edge answers it with a 400 naming the field). */
export class VerifyOptionError extends Error {
  readonly code = 'VALIDATION_FAILED';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'VerifyOptionError';
  }
}

const HASH = /^[0-9a-fA-F]{64}$/;
const COUNT = /^[1-9][0-9]{0,15}$/;

/**
 * The expected head from an edge (REST query, GraphQL arguments, CLI flags): `headHash` 64 hex digits,
 * `events` a whole number from 1 (a number, or its decimal string); nothing else. Throws VerifyOptionError.
 */
export function readVerifyOptions(raw: Record<string, unknown>): Pick<VerifyOptions, 'headHash' | 'events'> {
  const unknown = Object.keys(raw).find((k) => k !== 'headHash' && k !== 'events');
  if (unknown !== undefined)
    throw new VerifyOptionError(`${unknown} is not an option of the verifier (headHash, events)`, unknown);
  const out: Pick<VerifyOptions, 'headHash' | 'events'> = {};
  const { headHash, events } = raw;
  if (headHash !== undefined && headHash !== null) {
    if (typeof headHash !== 'string' || !HASH.test(headHash))
      throw new VerifyOptionError('headHash must be an event hash: 64 hexadecimal digits', 'headHash');
    out.headHash = headHash.toLowerCase();
  }
  if (events !== undefined && events !== null) {
    const n = typeof events === 'string' && COUNT.test(events) ? Number(events) : events;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1)
      throw new VerifyOptionError('events must be a whole number from 1', 'events');
    out.events = n;
  }
  return out;
}
