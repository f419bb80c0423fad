import { readFileSync } from 'node:fs';
import { TextDecoder } from 'node:util';
import { Command } from 'commander';
import {
  firstTextProblem,
  FightLog,
  LogFormatError,
  MAX_LOG_DEPTH,
  nestsDeeperThan,
  parseFightLog,
  readVerifyOptions,
  summarizeReport,
  verifyFightLog,
  VerifyOptionError,
  VerifyOptions,
} from '@app/audit';

interface VerifyFlags {
  summary?: boolean;
  seed?: string;
  headHash?: string;
  events?: string;
}

/** Why a log file cannot be verified, with the code and field POST /audit/verify answers the same bytes with. */
interface Refusal {
  code: string;
  message: string;
  field?: string;
  line?: number;
}

/**
 * A file's text as POST /audit/verify reads a body: UTF-8, or UTF-16 in the byte order its BOM (or, without
 * one, its first character) shows; a BOM is no part of the text. Bytes that are no character are refused,
 * never replaced with U+FFFD: a log whose bytes were changed so is not the log that was exported.
 */
function decodeLog(bytes: Buffer): string | Refusal {
  const charset =
    bytes[0] === 0xfe && bytes[1] === 0xff
      ? 'utf-16be'
      : bytes[0] === 0xff && bytes[1] === 0xfe
        ? 'utf-16le'
        : bytes.length >= 2 && bytes[0] === 0 && bytes[1] !== 0
          ? 'utf-16be'
          : bytes.length >= 2 && bytes[0] !== 0 && bytes[1] === 0
            ? 'utf-16le'
            : 'utf-8';
  try {
    return new TextDecoder(charset, { fatal: true }).decode(bytes);
  } catch {
    return {
      code: 'INVALID_JSON',
      message: `the log is not valid ${charset.toUpperCase()}: it holds bytes that are no character`,
      field: 'body',
    };
  }
}

/**
 * The log in `text`, read with the checks and in the order POST /audit/verify reads a body: its depth
 * (BODY_TOO_DEEP), its JSON (LOG_FORMAT_INVALID naming the line), each member name once (DUPLICATE_KEY),
 * strings no engine stores (INVALID_STRING), then the log's own fields (LOG_FORMAT_INVALID naming the field).
 */
function readLog(text: string): FightLog | Refusal {
  if (nestsDeeperThan(text))
    return {
      code: 'BODY_TOO_DEEP',
      message: `the log nests deeper than ${MAX_LOG_DEPTH} levels`,
      field: 'body',
    };
  let log: FightLog | undefined;
  let fieldError: LogFormatError | undefined;
  try {
    log = parseFightLog(text);
  } catch (e) {
    if (!(e instanceof LogFormatError)) throw e;
    if (e.field === undefined) return { code: e.code, message: e.message, line: e.line };
    fieldError = e;
  }
  // As POST /audit/verify: every member name is judged before any string (a body's duplicates are found as it
  // is parsed, its strings after), so a duplicate is named first wherever it is.
  const body = text.replace(/^\uFEFF/, '');
  const problem = firstTextProblem(body, { duplicates: true }) ?? firstTextProblem(body, { strings: true });
  if (problem) {
    const field = problem.record === 0 ? problem.path : `entries[${problem.record - 1}].${problem.path}`;
    const message = `${field}${problem.message.slice(problem.path.length)}`;
    return problem.record === 0
      ? { code: problem.kind === 'duplicate' ? 'DUPLICATE_KEY' : 'INVALID_STRING', message, field }
      : {
          code: problem.kind === 'duplicate' ? 'DUPLICATE_KEY' : 'INVALID_STRING',
          message: `line ${problem.line}: ${message}`,
          field,
          line: problem.line,
        };
  }
  if (fieldError)
    return {
      code: fieldError.code,
      message: fieldError.message,
      line: fieldError.line,
      field: fieldError.field,
    };
  return log!;
}

/**
 * `audit verify <file>`: the same verifier as the API; exit code 1 when the log does not verify. A prefix of a log
 * verifies (complete: false): --head-hash or --events make it fail.
 */
export function registerAudit(program: Command): void {
  const audit = program.command('audit').description('verify exported fight logs');
  audit
    .command('verify <file>')
    .description(
      'verify a fight log (JSON document or NDJSON; "-" reads stdin): hash chain, sequence, seed, every decision, view',
    )
    .option('--summary', 'print a short human summary instead of the JSON report')
    .option('--seed <seed>', 'a seed you hold (seeded mode) to check the dice before FightEnded reveals it')
    .option(
      '--head-hash <hash>',
      'a head hash you trust (from the live service): the log must end exactly there',
    )
    .option('--events <n>', 'the number of events you expect the log to hold (a prefix of the fight fails)')
    .action((file: string, flags: VerifyFlags) => {
      let expected: VerifyOptions;
      try {
        expected = readVerifyOptions({ headHash: flags.headHash, events: flags.events });
      } catch (e) {
        if (!(e instanceof VerifyOptionError)) throw e;
        return fail(
          flags.summary
            ? `bad option --${e.field === 'headHash' ? 'head-hash' : e.field}: ${e.message}`
            : JSON.stringify(
                { ok: false, error: { code: e.code, message: e.message, field: e.field } },
                null,
                2,
              ),
        );
      }
      let bytes: Buffer;
      try {
        bytes = readFileSync(file === '-' ? 0 : file);
      } catch (e) {
        return fail(`cannot read ${file}: ${(e as Error).message}`);
      }
      const text = decodeLog(bytes);
      const log = typeof text === 'string' ? readLog(text) : text;
      if ('code' in log)
        return fail(
          flags.summary
            ? `malformed log: ${log.code}: ${log.message}`
            : JSON.stringify({ ok: false, error: log }, null, 2),
        );
      const report = verifyFightLog(log, { ...expected, seed: flags.seed });
      console.log(flags.summary ? summarizeReport(report) : JSON.stringify(report, null, 2));
      if (!report.ok) process.exitCode = 1;
    });
}

function fail(message: string): void {
  console.log(message);
  process.exitCode = 1;
}
