import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ProjectionName } from './read-store';
import type { AppliedListener, RemoteFolds } from './runner';

/** What the worker is started with: the two SQLite files, and what its runner folds. */
export interface FoldWorkerData {
  eventsFile: string;
  readFile: string;
  names: ProjectionName[];
  foldsHeld?: number;
}

/** To the worker. */
export type FoldRequest = { kind: 'pass'; id: number; name?: ProjectionName };

/** From the worker: up; a commit it made (no `latest`: another process wrote, anything may have changed); a pass done. */
export type FoldReply =
  | { kind: 'ready' }
  | { kind: 'applied'; names: ProjectionName[]; latest?: Array<[string, number]> }
  | { kind: 'passed'; id: number; applied: number }
  | { kind: 'failed'; id: number; message: string };

/** The compiled worker beside this file, or none when running from the TypeScript sources (tests). */
export function compiledFoldWorker(): string | undefined {
  if (extname(__filename) !== '.js') return undefined;
  const file = join(__dirname, 'fold-worker-thread.js');
  return existsSync(file) ? file : undefined;
}

export interface FoldWorkerOptions {
  /** Node options of the worker (a test's TypeScript loader). */
  execArgv?: string[];
  /** The worker was lost (it failed or exited): passes run in the calling thread from then on. */
  onLost?: (error: Error) => void;
}

interface Pending {
  resolve: (applied: number) => void;
  reject: (error: Error) => void;
}

/**
 * The projections' passes on a worker thread of their own (SQLite: docs/event-store.md "Read side
 * thread"). The worker opens the log and the read store as connections of its own and folds what the
 * runner in this thread asks; this thread keeps deciding when (commits, the poll, the waits) and tells
 * the waiters of each commit the worker reports. If the worker fails or exits, `up` turns false, the passes
 * it had not finished fail, and the runner folds in its own thread again.
 */
export class FoldWorker implements RemoteFolds {
  readonly onApplied = new Set<AppliedListener>();
  private worker?: Worker;
  private readonly ready: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(file: string, data: FoldWorkerData, options: FoldWorkerOptions = {}) {
    const worker = new Worker(file, { workerData: data, execArgv: options.execArgv ?? [] });
    this.worker = worker;
    // The service stops it at shutdown; it never keeps the process alive on its own.
    worker.unref();
    let started: () => void;
    let failed: (e: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    // Awaited by each pass; a worker lost before it is up fails those, never the process.
    this.ready.catch(() => undefined);
    const lost = (error: Error) => {
      failed(error);
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
      options.onLost?.(error);
    };
    worker.on('message', (m: FoldReply) => {
      if (m.kind === 'ready') return started();
      if (m.kind === 'applied') {
        const latest = m.latest && new Map(m.latest);
        for (const listener of this.onApplied) listener(m.names, latest);
        return;
      }
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.kind === 'passed') p.resolve(m.applied);
      else p.reject(new Error(m.message));
    });
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the fold worker exited with code ${code}`)));
  }

  get up(): boolean {
    return this.worker !== undefined;
  }

  async pass(name?: ProjectionName): Promise<number> {
    await this.ready;
    const worker = this.worker;
    if (!worker) throw new Error('the fold worker is gone');
    const id = this.nextId++;
    return new Promise<number>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ kind: 'pass', id, ...(name && { name }) } satisfies FoldRequest);
    });
  }

  /** Ends the worker; the runner has finished its pass in hand before it stops this. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('the fold worker was stopped'));
    this.pending.clear();
    await worker?.terminate();
  }
}
