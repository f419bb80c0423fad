import { FightFolder, type LogEntry } from '@app/fight-log';
import { DiceMode, findSystem } from '@app/rules';
import { firstTextProblem } from './json-text';

export { toLogEntry, type LogEntry } from '@app/fight-log';

export const LOG_FORMAT = 'combat-rules-fight-log/1';

export interface FightLogHeader {
  format: typeof LOG_FORMAT;
  fightId: string;
  system: string;
  dice: { mode: DiceMode; commitment: string; clientSeed: string; seed?: string };
  events: number;
  headHash: string;
  /**
   * The rule system's viewVersion that made `view`; the audit compares the view only under the same version.
   * Absent in logs exported before views were versioned.
   */
  viewVersion?: number;
  /** The fight view folded at the head: `{ ...system.view(state), seq, headHash }`. */
  view: Record<string, unknown>;
}

export interface FightLog extends FightLogHeader {
  entries: LogEntry[];
}

/** One field of a log that breaks the format: the field's path, and the message (`line N: …` on NDJSON). */
export interface LogFormatIssue {
  field: string;
  message: string;
}

/** At most this many of a log's field errors are listed (`issues`): the first hundred tell what is wrong. */
export const MAX_LOG_FORMAT_ISSUES = 100;

/**
 * Malformed log input, naming the NDJSON line (1-based) and/or the field. A readable log whose fields
 * break the format names the first in `field` and lists every one, up to MAX_LOG_FORMAT_ISSUES, in `issues`.
 */
export class LogFormatError extends Error {
  readonly code = 'LOG_FORMAT_INVALID';
  constructor(
    message: string,
    readonly line?: number,
    readonly field?: string,
    readonly issues?: LogFormatIssue[],
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'LogFormatError';
  }
}

/**
 * Reads the header and each entry, every field error collected (up to MAX_LOG_FORMAT_ISSUES, header first,
 * then the entries in order): one LogFormatError naming the first, with all of them in `issues`.
 */
function readAll<T>(reads: Array<() => T>): T[] {
  const out: T[] = [];
  let first: LogFormatError | undefined;
  const issues: LogFormatIssue[] = [];
  for (const read of reads) {
    try {
      out.push(read());
    } catch (e) {
      if (!(e instanceof LogFormatError) || e.field === undefined) throw e;
      first ??= e;
      issues.push({ field: e.field, message: e.message });
      if (issues.length >= MAX_LOG_FORMAT_ISSUES) break;
    }
  }
  if (first) {
    const prefix = first.line === undefined ? '' : `line ${first.line}: `;
    throw new LogFormatError(first.message.slice(prefix.length), first.line, first.field, issues);
  }
  return out;
}

/**
 * The export document: header fields from the log itself, view folded with the fight's rule system,
 * unless the caller has the fight folded at this head already and gives its `view` (the service's
 * cache: no second fold of a long fight on every export).
 */
export function buildFightLog(entries: LogEntry[], headView?: Record<string, unknown>): FightLog {
  const first = entries[0];
  if (!first || first.type !== 'FightStarted')
    throw new LogFormatError('a fight log starts with FightStarted', undefined, 'entries[0].type');
  const system = findSystem(String(first.data.system));
  if (!system)
    throw new LogFormatError(
      `no rule system ${String(first.data.system)}`,
      undefined,
      'entries[0].data.system',
    );
  const last = entries[entries.length - 1];
  const folder =
    headView && headView.seq === last.seq && headView.headHash === last.hash
      ? undefined
      : new FightFolder(system, first.fightId);
  let seed: string | undefined;
  for (const e of entries) {
    folder?.apply(e);
    if (e.type === 'FightEnded') seed = e.data.seed as string;
  }
  const started = first.data.dice as { mode: DiceMode; commitment: string; clientSeed: string };
  const dice: FightLogHeader['dice'] = {
    mode: started.mode,
    commitment: started.commitment,
    clientSeed: started.clientSeed,
  };
  if (seed !== undefined) dice.seed = seed;
  return {
    format: LOG_FORMAT,
    fightId: first.fightId,
    system: system.id,
    dice,
    events: entries.length,
    headHash: last.hash,
    // A view the caller holds is this process's own (viewOf in libs/fights): the same version.
    viewVersion: system.viewVersion,
    view: folder ? { ...system.view(folder.state), seq: last.seq, headHash: last.hash } : headView!,
    entries: [...entries],
  };
}

/** NDJSON: line 1 the header, then one entry per line. */
export function toNdjson(log: FightLog): string {
  const { entries, ...header } = log;
  return [header, ...entries].map((x) => JSON.stringify(x)).join('\n') + '\n';
}

/** Reads the JSON document or its NDJSON form; throws LogFormatError naming the line and field. */
export function parseFightLog(input: string): FightLog {
  if (typeof input !== 'string' || input.trim() === '') throw new LogFormatError('the input is empty', 1);
  // A byte order mark is no part of the text (RFC 8259 section 8.1 lets a parser ignore it), as on every route.
  const text = input.replace(/^\uFEFF/, '');
  const { log, document } = readFightLog(text);
  refuseHiddenNumbers(text, document);
  return log;
}

/**
 * A number the text writes otherwise than the service does (`4.0000000000000001`, `4e0`, `-0`) is read and
 * hashed as another: such a log verified while an exact reader saw other dice. A LogFormatError (422) naming
 * its field: `document` the JSON document's text, else NDJSON's (its fields named as the document's, with
 * their line). For a caller that parsed the text itself (POST /audit/verify's JSON body).
 */
export function refuseHiddenNumbers(text: string, document: boolean): void {
  const problem = firstTextProblem(text, { numbers: true });
  if (!problem) return;
  const field =
    document || problem.record === 0 ? problem.path : `entries[${problem.record - 1}].${problem.path}`;
  const message = problem.message.slice(problem.path.length);
  throw new LogFormatError(`${field}${message}`, document ? undefined : problem.line, field, [
    { field, message: `${document ? '' : `line ${problem.line}: `}${field}${message}` },
  ]);
}

/** The log in `text`, and whether it is the JSON document (else NDJSON: its fields are named with their line). */
function readFightLog(text: string): { log: FightLog; document: boolean } {
  let whole: unknown;
  let wholeError: Error | undefined;
  try {
    whole = JSON.parse(text);
  } catch (e) {
    wholeError = e as Error;
  }
  if (isObject(whole) && ('entries' in whole || text.trim().includes('\n')))
    return { log: readDocument(whole), document: true };
  const lines = text.split(/\r?\n/);
  const records: { line: number; value: unknown }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    try {
      records.push({ line: i + 1, value: JSON.parse(lines[i]) });
    } catch (e) {
      // A pretty-printed document that is broken reads better as a document error.
      if (records.length === 0 && wholeError)
        throw new LogFormatError(
          `not valid JSON: ${wholeError.message}`,
          lineOf(text, wholeError.message) ?? i + 1,
        );
      throw new LogFormatError(`not valid JSON: ${(e as Error).message}`, i + 1);
    }
  }
  const [head, ...rest] = records;
  // The document form carries `entries`; an NDJSON header does not: its entries are the lines after it.
  if (isObject(head.value) && Object.hasOwn(head.value, 'entries'))
    throw new LogFormatError(
      'header: entries is not a field of an NDJSON log header (the entries are the lines after it)',
      head.line,
      'entries',
    );
  // Named as in the document form (entries[i].seq), the line in the message: one field path for either form.
  const [header, ...entries] = readAll<FightLogHeader | LogEntry>([
    () => readHeader(head.value, head.line, ''),
    ...rest.map((r, i) => () => readEntry(r.value, r.line, `entries[${i}].`)),
  ]);
  return { log: { ...(header as FightLogHeader), entries: entries as LogEntry[] }, document: false };
}

function readDocument(doc: Record<string, unknown>): FightLog {
  const list: unknown[] | undefined = Array.isArray(doc.entries) ? doc.entries : undefined;
  const reads: Array<() => FightLogHeader | LogEntry> = [() => readHeader(doc, undefined, '')];
  if (!list)
    reads.push(() => {
      throw new LogFormatError('must be an array', undefined, 'entries');
    });
  for (const [i, e] of (list ?? []).entries()) reads.push(() => readEntry(e, undefined, `entries[${i}].`));
  const [header, ...entries] = readAll(reads);
  return { ...(header as FightLogHeader), entries: entries as LogEntry[] };
}

function readHeader(raw: unknown, line: number | undefined, prefix: string): FightLogHeader {
  const problem = headerProblem(raw);
  if (problem)
    throw new LogFormatError(
      `header: ${prefix}${problem.field} ${problem.message}`,
      line,
      `${prefix}${problem.field}`,
    );
  const { format, fightId, system, dice, events, headHash, viewVersion, view } = raw as FightLogHeader;
  return {
    format,
    fightId,
    system,
    dice,
    events,
    headHash,
    ...(viewVersion !== undefined && { viewVersion }),
    view,
  };
}

function readEntry(raw: unknown, line: number | undefined, prefix: string): LogEntry {
  const problem = entryProblem(raw);
  if (problem) {
    // An entry that is no object at all is named by its place (entries[i]), not a field inside it.
    const field = problem.field === ENTRY_ITSELF ? prefix.replace(/\.$/, '') : `${prefix}${problem.field}`;
    throw new LogFormatError(`${field} ${problem.message}`, line, field);
  }
  return raw as LogEntry;
}

export interface ShapeProblem {
  field: string;
  message: string;
}

const DICE_MODES = ['fair', 'seeded', 'manual'];

/** The fields a log header has (`entries` in the JSON document only), and its `dice`'s: FightLogHeader. */
const HEADER_FIELDS: ReadonlySet<string> = new Set([
  'format',
  'fightId',
  'system',
  'dice',
  'events',
  'headHash',
  'viewVersion',
  'view',
  'entries',
]);
const DICE_FIELDS: ReadonlySet<string> = new Set(['mode', 'commitment', 'clientSeed', 'seed']);
/** The fields a log entry has: LogEntry (the event's envelope, drawsUsed, command). */
const ENTRY_FIELDS: ReadonlySet<string> = new Set([
  'fightId',
  'seq',
  'type',
  'v',
  'at',
  'actor',
  'commandId',
  'data',
  'hash',
  'drawsUsed',
  'command',
]);

/**
 * The first own key of `raw` that is not one of `known`, as an unknown-field problem: a field the log
 * format does not have is refused, never read past (README "Errors": unknown fields first).
 */
function unknownField(
  raw: Record<string, unknown>,
  known: ReadonlySet<string>,
  prefix: string,
  what: string,
): ShapeProblem | undefined {
  const extra = Object.keys(raw).find((k) => !known.has(k));
  return extra === undefined
    ? undefined
    : { field: `${prefix}${extra}`, message: `is not a field of ${what}` };
}

/** Why `raw` is not a log header, or undefined when it is one. */
export function headerProblem(raw: unknown): ShapeProblem | undefined {
  if (!isObject(raw)) return { field: '(header)', message: 'must be a JSON object' };
  const unknown =
    unknownField(raw, HEADER_FIELDS, '', 'a fight log header') ??
    (isObject(raw.dice)
      ? unknownField(raw.dice, DICE_FIELDS, 'dice.', "a fight log header's dice")
      : undefined);
  if (unknown) return unknown;
  if (raw.format !== LOG_FORMAT) return { field: 'format', message: `must be "${LOG_FORMAT}"` };
  if (typeof raw.fightId !== 'string') return { field: 'fightId', message: 'must be a string' };
  if (typeof raw.system !== 'string') return { field: 'system', message: 'must be a string' };
  if (!isObject(raw.dice)) return { field: 'dice', message: 'must be an object' };
  if (!DICE_MODES.includes(raw.dice.mode as string))
    return { field: 'dice.mode', message: `must be one of ${DICE_MODES.join(', ')}` };
  for (const f of ['commitment', 'clientSeed'] as const)
    if (typeof raw.dice[f] !== 'string') return { field: `dice.${f}`, message: 'must be a string' };
  if (raw.dice.seed !== undefined && typeof raw.dice.seed !== 'string')
    return { field: 'dice.seed', message: 'must be a string when present' };
  if (!isCount(raw.events)) return { field: 'events', message: 'must be a whole number' };
  if (typeof raw.headHash !== 'string') return { field: 'headHash', message: 'must be a string' };
  if (raw.viewVersion !== undefined && !(isCount(raw.viewVersion) && raw.viewVersion >= 1))
    return { field: 'viewVersion', message: 'must be a whole number from 1 when present' };
  if (!isObject(raw.view)) return { field: 'view', message: 'must be an object' };
  return undefined;
}

/** The field entryProblem names when the entry itself is not an object. */
const ENTRY_ITSELF = '(entry)';

/** Why `raw` is not a log entry, or undefined when it is one. */
export function entryProblem(raw: unknown): ShapeProblem | undefined {
  if (!isObject(raw)) return { field: ENTRY_ITSELF, message: 'must be a JSON object' };
  const unknown = unknownField(raw, ENTRY_FIELDS, '', 'a fight log entry');
  if (unknown) return unknown;
  for (const f of ['fightId', 'type', 'at', 'actor', 'commandId', 'hash'] as const)
    if (typeof raw[f] !== 'string') return { field: f, message: 'must be a string' };
  if (!isCount(raw.seq) || raw.seq < 1) return { field: 'seq', message: 'must be a whole number from 1' };
  if (!Number.isSafeInteger(raw.v)) return { field: 'v', message: 'must be a whole number' };
  if (!isObject(raw.data)) return { field: 'data', message: 'must be an object' };
  if (!isCount(raw.drawsUsed)) return { field: 'drawsUsed', message: 'must be a whole number' };
  if (raw.command !== undefined && !(isObject(raw.command) && typeof raw.command.type === 'string'))
    return { field: 'command', message: 'must be an object with a string type when present' };
  return undefined;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

/** The line of a JSON.parse error's "position N". */
function lineOf(text: string, message: string): number | undefined {
  const m = /position (\d+)/.exec(message);
  return m ? text.slice(0, Number(m[1])).split('\n').length : undefined;
}
