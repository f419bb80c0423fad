/**
 * The fold worker's thread (fold-worker.ts): a runner of its own over its own connections to the log and
 * the read store, making the passes the service's runner asks for, one at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
// Its own modules only: not the other engines' clients.
import { SqliteEventStore } from '@app/event-store/sqlite';
import type { FoldReply, FoldRequest, FoldWorkerData } from './fold-worker';
import { ProjectionRunner } from './runner';
import { SqliteReadStore } from './sqlite-read-store';

const data = workerData as FoldWorkerData;
const port = parentPort!;
const post = (reply: FoldReply): void => port.postMessage(reply);

const store = new SqliteEventStore(data.eventsFile);
const read = new SqliteReadStore(data.readFile);
const runner = new ProjectionRunner(store, read, data.names, undefined, {
  foldsHeld: data.foldsHeld,
  onApplied: (names, latest) => post({ kind: 'applied', names: [...names], latest: latest && [...latest] }),
});
// What another process wrote before the first pass is news to no one: the service has not read rows yet.
read.writtenByOthers();

let turn: Promise<void> = Promise.resolve();
port.on('message', (m: FoldRequest) => {
  turn = turn.then(async () => {
    try {
      // Rows the CLI wrote (a rebuild while the service runs) are dropped from what the service holds.
      if (read.writtenByOthers()) post({ kind: 'applied', names: [] });
      const applied = m.name ? await runner.catchUp(m.name) : (await runner.catchUpAll(), 0);
      post({ kind: 'passed', id: m.id, applied });
    } catch (e) {
      post({ kind: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) });
    }
  });
});
post({ kind: 'ready' });
