import { existsSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SqliteEventStore } from '@app/event-store/sqlite';
import type { ProjectionName } from './read-store';
import type { AppliedListener, RemoteFolds } from './runner';

/** What the worker is started with: the two SQLite files, and what its runner folds. */
export interface FoldWorkerData {
  eventsFile: string;
  readFile: string;
  names: ProjectionName[];
  foldsHeld?: number;
}

/**
 * To the worker: a pass of the projections; a task of another consumer of the log made known (a module
 * loaded by file when first run: the webhook outbox, libs/webhooks outbox-thread.ts); a run of that task.
 */
export type FoldRequest =
  | { kind: 'pass'; id: number; name?: ProjectionName }
  | { kind: 'task'; task: string; file: string; data: unknown }
  | { kind: 'run'; id: number; task: string };

/**
 * From the worker: up; a commit it made (no `latest`: another process wrote, anything may have changed); a
 * pass or a task's run done (`applied`: what it returned); a task's news, as it runs; a task whose module
 * could not be loaded (its runs are the service thread's from then on).
 */
export type FoldReply =
  | { kind: 'ready' }
  | { kind: 'applied'; names: ProjectionName[]; latest?: Array<[string, number]> }
  | { kind: 'passed'; id: number; applied: number; more?: boolean }
  | { kind: 'failed'; id: number; message: string }
  | { kind: 'note'; task: string }
  | { kind: 'unavailable'; id: number; task: string; message: string };

/**
 * What a task module (FoldRequest `task`) is given in the worker: the worker's own connection to the log,
 * the data it was made known with, and a way to tell the service's thread that something happened.
 */
export interface WorkerTaskHost<Data = unknown> {
  events: SqliteEventStore;
  data: Data;
  note(): void;
}

/** One run of a task: a bounded step (a page of the log); `done`: what it did; `more`: ask again. */
export interface TaskStep {
  done: number;
  more: boolean;
}

/** What a task module's `attach(host)` returns. */
export interface WorkerTask {
  run(): Promise<TaskStep>;
}

export interface TaskListeners {
  /** The task's news (its `host.note()`). */
  onNote?: () => void;
  /** Its module could not be loaded on the worker. */
  onUnavailable?: (error: Error) => void;
}

/** A task on the worker, seen from the service's thread: up while the worker is and the task could be loaded. */
export interface RemoteTask {
  readonly up: boolean;
  run(): Promise<TaskStep>;
}

/**
 * What `work` answers on the other thread while that is up; undefined when it is not, or was lost meanwhile:
 * the caller then does the work itself. A failure of the work while the thread is still up is the caller's.
 */
export async function whileUp<R extends { readonly up: boolean }, T>(
  remote: R | undefined,
  work: (remote: R) => Promise<T>,
): Promise<T | undefined> {
  if (!remote?.up) return undefined;
  try {
    return await work(remote);
  } catch (e) {
    if (remote.up) throw e;
    return undefined;
  }
}

/**
 * The compiled module `name` beside the module `filename` (a worker, or a task it loads), or none when
 * running from the TypeScript sources (tests).
 */
export function compiledBeside(filename: string, name: string): string | undefined {
  if (extname(filename) !== '.js') return undefined;
  const file = join(dirname(filename), `${name}.js`);
  return existsSync(file) ? file : undefined;
}

/** The compiled worker beside this file, or none when running from the TypeScript sources (tests). */
export function compiledFoldWorker(): string | undefined {
  return compiledBeside(__filename, 'fold-worker-thread');
}

export interface FoldWorkerOptions {
  /** Node options of the worker (a test's TypeScript loader). */
  execArgv?: string[];
  /** The worker was lost (it failed or exited): passes run in the calling thread from then on. */
  onLost?: (error: Error) => void;
}

interface Pending {
  resolve: (step: TaskStep) => void;
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
  /** Each task's listeners, by its name. */
  private readonly listeners = new Map<string, TaskListeners>();
  /** Tasks whose module the worker could not load. */
  private readonly unavailable = new Set<string>();
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
      if (m.kind === 'note') return this.listeners.get(m.task)?.onNote?.();
      if (m.kind === 'unavailable') {
        this.unavailable.add(m.task);
        this.listeners.get(m.task)?.onUnavailable?.(new Error(m.message));
      }
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.kind === 'passed') p.resolve({ done: m.applied, more: m.more === true });
      else p.reject(new Error(m.message));
    });
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the fold worker exited with code ${code}`)));
  }

  get up(): boolean {
    return this.worker !== undefined;
  }

  pass(name?: ProjectionName): Promise<number> {
    return this.request((id) => ({ kind: 'pass', id, ...(name && { name }) })).then((r) => r.done);
  }

  /**
   * Another consumer of the log run on this worker: `file` is a module whose `attach(host: WorkerTaskHost)`
   * returns its WorkerTask, loaded by the worker when the task first runs (so a task never run costs the
   * worker nothing). Runs fail once the worker is lost, or the module could not be loaded; `up` is then
   * false, and the caller runs the task in its own thread.
   */
  task(name: string, file: string, data: unknown, listeners: TaskListeners = {}): RemoteTask {
    this.listeners.set(name, listeners);
    this.worker?.postMessage({ kind: 'task', task: name, file, data } satisfies FoldRequest);
    this.unavailable.delete(name);
    const up = () => this.up && !this.unavailable.has(name);
    return {
      get up(): boolean {
        return up();
      },
      run: () => this.request((id) => ({ kind: 'run', id, task: name })),
    };
  }

  private async request(message: (id: number) => FoldRequest): Promise<TaskStep> {
    await this.ready;
    const worker = this.worker;
    if (!worker) throw new Error('the fold worker is gone');
    const id = this.nextId++;
    return new Promise<TaskStep>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage(message(id));
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
