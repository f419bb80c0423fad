import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  LogFormatError,
  parseFightLog,
  readVerifyOptions,
  refuseHiddenNumbers,
  VerificationReport,
  verifyFightLog,
  VerifyOptionError,
  VerifyOptions,
} from '@app/audit';
import { AppError } from '@app/fights';
import { byteOrderOf, decoderOf, PostedLog, readPostedLog } from './body-checks';

/**
 * A log in its text (JSON or NDJSON) parsed and verified: what the verifier's worker runs. `refusal`: what
 * its sender's text said that this text no longer does (a number GraphQL's variables hid), refused once
 * the log has parsed, in the order POST /audit/verify refuses it.
 */
export function verifyText(
  text: string,
  options: VerifyOptions = {},
  refusal?: FormatErrorMessage,
): VerificationReport {
  const log = parseFightLog(text);
  if (refusal) throw new LogFormatError(refusal.message, refusal.line, refusal.field, refusal.issues);
  return verifyFightLog(log, options);
}

/** The text of a log a client sent: NDJSON as it is, a JSON object as JSON; anything else is no log. */
export function logTextOf(body: unknown): string {
  if (typeof body === 'string') return body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return JSON.stringify(body);
  throw notALog();
}

const notALog = () =>
  new AppError(400, 'LOG_FORMAT_INVALID', 'the body must be a fight log (JSON or NDJSON)', 'body');

/** `?headHash=` and `?events=`, or a 400 naming the one that cannot be read. */
export function verifyOptionsOf(query: Record<string, unknown>): VerifyOptions {
  try {
    return readVerifyOptions({ ...query });
  } catch (e) {
    if (e instanceof VerifyOptionError) throw new AppError(400, e.code, e.message, e.field);
    throw e;
  }
}

/**
 * POST /audit/verify from its body as it came in to its report, in the order the route has always
 * answered: the body read (readPostedLog), then the query's options, then the log itself.
 */
export function verifyPosted(posted: PostedLog): VerificationReport {
  const body = readPostedLog(posted);
  const options = verifyOptionsOf(posted.query);
  if (posted.body.media !== 'json') return verifyText(logTextOf(body), options);
  // A JSON scalar is no log (a string in JSON is not NDJSON text).
  if (typeof body !== 'object' || body === null) throw notALog();
  const log = parseFightLog(logTextOf(body));
  // The value hides how its numbers were written (`4.0000000000000001` is 4): they are read off the text sent.
  const { bytes, charset } = posted.body;
  refuseHiddenNumbers(decoderOf(byteOrderOf(bytes, charset)).decode(bytes), true);
  return verifyFightLog(log, options);
}

/** A log to verify: its text and options (GraphQL, the CLI), or a posted body still to be read (REST). */
export type VerifyWork =
  { text: string; options: VerifyOptions; refusal?: FormatErrorMessage } | { posted: PostedLog };

/** What the worker (verify-worker.ts) is sent, and what it answers. */
export interface VerifyRequest {
  id: number;
  work: VerifyWork;
}
export type VerifyAnswer =
  | { id: number; report: VerificationReport }
  | { id: number; formatError: FormatErrorMessage }
  | { id: number; refused: { status: number; code: string; message: string; field?: string } }
  | { id: number; failed: true };

/** The work done, in whichever thread runs it. */
export function runVerifyWork(work: VerifyWork): VerificationReport {
  return 'posted' in work ? verifyPosted(work.posted) : verifyText(work.text, work.options, work.refusal);
}

/** What the worker answers for a log it could not verify; `failed`: the caller tries again itself. */
export function answerOfError(id: number, e: unknown): VerifyAnswer {
  if (e instanceof LogFormatError) return { id, formatError: formatErrorOf(e) };
  // A plain AppError (a body's, a query's): any subclass carries more than these fields.
  if (e instanceof AppError && e.constructor === AppError)
    return { id, refused: { status: e.status, code: e.code, message: e.message, field: e.field } };
  return { id, failed: true };
}

/** A LogFormatError as the worker sends it back. */
export interface FormatErrorMessage {
  message: string;
  line?: number;
  field?: string;
  issues?: LogFormatError['issues'];
}

/** A LogFormatError as the worker sends it back, and as the caller gets it again. */
export function formatErrorOf(e: LogFormatError): FormatErrorMessage {
  const prefix = e.line === undefined ? '' : `line ${e.line}: `;
  return {
    message: e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message,
    line: e.line,
    field: e.field,
    ...(e.issues ? { issues: e.issues } : {}),
  };
}

/** The compiled worker next to this file; none under Jest (a .ts file), and verification stays in the caller's thread. */
export function compiledVerifyWorker(): string | undefined {
  if (extname(__filename) !== '.js') return undefined;
  const file = join(__dirname, 'verify-worker.js');
  return existsSync(file) ? file : undefined;
}

export interface LogVerifierOptions {
  /** The worker's file; by default the compiled one (compiledVerifyWorker), and none: verify in the calling thread. */
  workerFile?: string;
  /** Node options of the worker (a test's TypeScript loader). */
  execArgv?: string[];
  /**
   * How many bytes of logs may be sent to the worker and not yet answered (the one it verifies
   * included); one more is refused with 503 VERIFIER_BUSY. A log is always taken when none waits,
   * whatever its size. Default: unbounded.
   */
  maxQueuedBytes?: number;
}

/** The size a log holds while it waits: its body's bytes, or its text's UTF-16 units. */
function sizeOf(work: VerifyWork): number {
  return 'posted' in work ? work.posted.body.bytes.byteLength : work.text.length;
}

interface Pending {
  size: number;
  request: VerifyRequest;
  resolve: (report: VerificationReport) => void;
  reject: (e: unknown) => void;
}

/**
 * Verifies fight logs on a worker thread of its own: verifying a long log is CPU work of its length (a
 * quarter of a second at 10,000 events, seconds at 50,000), and on the request thread it held every other
 * request up for as long. One worker, started on first use, verifies the logs it is sent one after
 * another. The answer is the one verifyText gives in the calling thread: the same report, the same
 * LogFormatError; a log whose verification fails otherwise (or a worker that dies, or cannot start) is
 * verified in the calling thread instead, so the caller gets what it always got.
 */
export class LogVerifier {
  private readonly file: string | undefined;
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;
  /** Logs verified in the calling thread instead of the worker (no worker, or its fallbacks). */
  private inCallerCount = 0;
  /** Bytes of the logs sent to the worker and not yet answered. */
  private queued = 0;

  constructor(private readonly options: LogVerifierOptions = {}) {
    this.file = 'workerFile' in options ? options.workerFile : compiledVerifyWorker();
  }

  /** A log's text (JSON or NDJSON) verified with these options; `refusal` as verifyText takes it. */
  verify(
    text: string,
    options: VerifyOptions = {},
    refusal?: FormatErrorMessage,
  ): Promise<VerificationReport> {
    return this.run(refusal ? { text, options, refusal } : { text, options });
  }

  /**
   * A log posted to POST /audit/verify, read and verified: the same report, or the same error
   * (AppError, LogFormatError), as verifyPosted in the calling thread.
   */
  verifyPosted(posted: PostedLog): Promise<VerificationReport> {
    return this.run({ posted });
  }

  private run(work: VerifyWork): Promise<VerificationReport> {
    const worker = this.file && !this.closed ? (this.worker ?? this.start(this.file)) : undefined;
    if (!worker) return this.inCaller({ id: -1, work });
    const size = sizeOf(work);
    const limit = this.options.maxQueuedBytes ?? Infinity;
    if (this.pending.size > 0 && this.queued + size > limit)
      return Promise.reject(
        new AppError(
          503,
          'VERIFIER_BUSY',
          `the verifier has ${this.pending.size} fight logs (${this.queued} bytes) to verify before this one, more than it keeps waiting (${limit} bytes); send it again after Retry-After`,
        ),
      );
    const request = { id: this.nextId++, work };
    this.queued += size;
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { size, request, resolve, reject });
      worker.postMessage(request);
    });
  }

  /** Bytes of logs the worker has been sent and has not answered yet. */
  get queuedBytes(): number {
    return this.queued;
  }

  /** Ends the worker; logs still being verified are verified in the calling thread. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.takeBack();
    await worker?.terminate();
  }

  private start(file: string): Worker {
    const worker = new Worker(file, { execArgv: this.options.execArgv ?? [] });
    // A worker never keeps the process alive; the service closes it at shutdown.
    worker.unref();
    worker.on('message', (answer: VerifyAnswer) => this.answered(answer));
    const lost = () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.takeBack();
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    this.worker = worker;
    return worker;
  }

  private answered(answer: VerifyAnswer): void {
    const p = this.pending.get(answer.id);
    if (!p) return;
    this.pending.delete(answer.id);
    this.queued -= p.size;
    if ('report' in answer) p.resolve(answer.report);
    else if ('formatError' in answer) {
      const { message, line, field, issues } = answer.formatError;
      p.reject(new LogFormatError(message, line, field, issues));
    } else if ('refused' in answer) {
      const { status, code, message, field } = answer.refused;
      p.reject(new AppError(status, code, message, field));
    } else this.inCaller(p.request).then(p.resolve, p.reject);
  }

  /** Every request the worker will not answer, verified in the calling thread. */
  private takeBack(): void {
    const lost = [...this.pending.values()];
    this.pending.clear();
    this.queued = 0;
    for (const p of lost) this.inCaller(p.request).then(p.resolve, p.reject);
  }

  /** How many logs were verified in the calling thread rather than on the worker. */
  get verifiedInCaller(): number {
    return this.inCallerCount;
  }

  private inCaller(request: VerifyRequest): Promise<VerificationReport> {
    this.inCallerCount++;
    try {
      return Promise.resolve(runVerifyWork(request.work));
    } catch (e) {
      return Promise.reject(e);
    }
  }
}
