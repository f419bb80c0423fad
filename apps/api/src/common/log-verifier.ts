import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { LogFormatError, parseFightLog, VerificationReport, verifyFightLog, VerifyOptions } from '@app/audit';

/** A log in its text (JSON or NDJSON) parsed and verified: what the verifier's worker runs. */
export function verifyText(text: string, options: VerifyOptions = {}): VerificationReport {
  return verifyFightLog(parseFightLog(text), options);
}

/** What the worker (verify-worker.ts) is sent, and what it answers. */
export interface VerifyRequest {
  id: number;
  text: string;
  options: VerifyOptions;
}
export type VerifyAnswer =
  | { id: number; report: VerificationReport }
  | { id: number; formatError: { message: string; line?: number; field?: string } }
  | { id: number; failed: true };

/** A LogFormatError as the worker sends it back, and as the caller gets it again. */
export function formatErrorOf(e: LogFormatError): { message: string; line?: number; field?: string } {
  const prefix = e.line === undefined ? '' : `line ${e.line}: `;
  return {
    message: e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message,
    line: e.line,
    field: e.field,
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
}

interface Pending {
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

  constructor(private readonly options: LogVerifierOptions = {}) {
    this.file = 'workerFile' in options ? options.workerFile : compiledVerifyWorker();
  }

  verify(text: string, options: VerifyOptions = {}): Promise<VerificationReport> {
    const worker = this.file && !this.closed ? (this.worker ?? this.start(this.file)) : undefined;
    if (!worker) return inCaller({ id: -1, text, options });
    const request = { id: this.nextId++, text, options };
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { request, resolve, reject });
      worker.postMessage(request);
    });
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
    if ('report' in answer) p.resolve(answer.report);
    else if ('formatError' in answer) {
      const { message, line, field } = answer.formatError;
      p.reject(new LogFormatError(message, line, field));
    } else inCaller(p.request).then(p.resolve, p.reject);
  }

  /** Every request the worker will not answer, verified in the calling thread. */
  private takeBack(): void {
    const lost = [...this.pending.values()];
    this.pending.clear();
    for (const p of lost) inCaller(p.request).then(p.resolve, p.reject);
  }
}

function inCaller(request: VerifyRequest): Promise<VerificationReport> {
  try {
    return Promise.resolve(verifyText(request.text, request.options));
  } catch (e) {
    return Promise.reject(e);
  }
}
