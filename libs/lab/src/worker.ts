import { parentPort, workerData } from 'node:worker_threads';
import { labSystem, LabPlan } from './plan';
import { Chunk, playChunk } from './tally';

/** A lab worker thread: prepares the match once, then plays the chunks it is sent (see run.ts). */
const plan = workerData as LabPlan;
const system = labSystem(plan.system);
const match = system.prepare(plan.sheets, plan.seed, plan.roundCap);
parentPort!.on('message', (chunk: Chunk) =>
  parentPort!.postMessage({ id: chunk.id, tally: playChunk(system, match, chunk) }),
);
