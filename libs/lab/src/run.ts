import { setImmediate as nextTurn } from 'node:timers/promises';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { inspect } from 'node:util';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { LabInput, labSystem, LabPlan, planLab } from './plan';
import { buildResult, LabResult } from './result';
import { addTally, Chunk, emptyTally, playChunk, Tally } from './tally';

export interface LabProgress {
  done: number;
  total: number;
}

export interface RunOptions {
  /** Worker threads; default one per core; 0 plays in this thread. */
  workers?: number;
  onProgress?: (p: LabProgress) => void;
  /** Test seam: the worker entry and its execArgv (default: worker.js next to this compiled file). */
  workerFile?: string;
  execArgv?: string[];
  /** Stops the run (workers terminated); runLab then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Fights per message to a worker: small enough for smooth progress, large enough that messages cost nothing. */
const CHUNK = 250;

/** Plans, validates the sheets through the decider, then plays every cell; the result depends only on the input. */
export async function runLab(input: LabInput, opts: RunOptions = {}): Promise<LabResult> {
  const plan = planLab(input);
  const system = labSystem(plan.system);
  const match = system.prepare(plan.sheets, plan.seed, plan.roundCap);
  const chunks = planChunks(plan);
  const tallies = plan.strategies.flatMap(() => plan.strategies.map(emptyTally));
  const total = plan.fights * tallies.length;
  let done = 0;
  const collect = (chunk: Chunk, t: Tally) => {
    addTally(tallies[chunk.cell], t);
    done += t.fights;
    opts.onProgress?.({ done, total });
  };
  const file = opts.workerFile ?? compiledWorker();
  const workers = Math.min(opts.workers ?? availableParallelism(), chunks.length);
  opts.signal?.throwIfAborted();
  if (file && workers > 0) await inWorkers(plan, chunks, workers, file, opts, collect);
  else
    for (const chunk of chunks) {
      opts.signal?.throwIfAborted();
      collect(chunk, playChunk(system, match, chunk));
      // Yield between chunks so a server's event loop keeps answering.
      await nextTurn();
    }
  return buildResult(plan, tallies);
}

/** The compiled worker next to this file; under Jest (a .ts file) there is none and the run stays in-process. */
export function compiledWorker(): string | undefined {
  if (extname(__filename) !== '.js') return undefined;
  const file = join(__dirname, 'worker.js');
  return existsSync(file) ? file : undefined;
}

export function planChunks(plan: LabPlan): Chunk[] {
  const chunks: Chunk[] = [];
  const n = plan.strategies.length;
  plan.strategies.forEach((row, r) =>
    plan.strategies.forEach((col, c) => {
      for (let start = 0; start < plan.fights; start += CHUNK)
        chunks.push({
          id: chunks.length,
          cell: r * n + c,
          row,
          col,
          start,
          end: Math.min(plan.fights, start + CHUNK),
        });
    }),
  );
  return chunks;
}

/** A small pool: each worker takes the next chunk when it returns one; any worker error fails the run. */
function inWorkers(
  plan: LabPlan,
  chunks: Chunk[],
  count: number,
  file: string,
  opts: RunOptions,
  collect: (c: Chunk, t: Tally) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let next = 0;
    let finished = 0;
    let settled = false;
    const pool: Worker[] = [];
    const stop = (e?: unknown) => {
      if (settled) return;
      settled = true;
      for (const w of pool) void w.terminate();
      if (e !== undefined) reject(e instanceof Error ? e : new Error(inspect(e)));
      else resolve();
    };
    opts.signal?.addEventListener('abort', () => stop(opts.signal!.reason), { once: true });
    const feed = (w: Worker) => {
      if (next < chunks.length) w.postMessage(chunks[next++]);
    };
    for (let i = 0; i < count; i++) {
      const w = new Worker(file, { workerData: plan, execArgv: opts.execArgv ?? [] });
      pool.push(w);
      w.on('message', (m: { id: number; tally: Tally }) => {
        if (settled) return;
        collect(chunks[m.id], m.tally);
        if (++finished === chunks.length) stop();
        else feed(w);
      });
      w.on('error', (e) => stop(e));
      w.on('exit', (code) => stop(new Error(`lab worker exited early (code ${code})`)));
      feed(w);
    }
  });
}
