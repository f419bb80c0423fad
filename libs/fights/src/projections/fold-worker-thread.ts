/**
 * The fold worker's thread (fold-worker.ts): a runner of its own over its own connections to the log and
 * the read store, making the passes the service's runner asks for, one at a time; and the runs of the other
 * consumers of the log the service hands it (the webhook outbox), each over the same connection to the log.
 */
import { parentPort, workerData } from 'node:worker_threads';
// Its own modules only: not the other engines' clients.
import { SqliteEventStore } from '@app/event-store/sqlite';
import type {
  FoldReply,
  FoldRequest,
  FoldWorkerData,
  TaskStep,
  WorkerTask,
  WorkerTaskHost,
} from './fold-worker';
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

/** What a request ran to: what it did (and whether there is more), or why it failed. */
function reply(id: number, run: () => Promise<TaskStep>): Promise<void> {
  return Promise.resolve()
    .then(run)
    .then(
      ({ done, more }) => post({ kind: 'passed', id, applied: done, more }),
      (e: unknown) => post({ kind: 'failed', id, message: e instanceof Error ? e.message : String(e) }),
    );
}

/** Other consumers of the log (FoldRequest `task`): each module loaded when its task first runs, its runs in turn. */
const tasks = new Map<string, { file: string; data: unknown; task?: WorkerTask; turn: Promise<void> }>();

/** Loads a task's module at its first run; one that cannot load is said once, and its runs go back to the service's thread. */
function loaded(id: number, name: string): WorkerTask | undefined {
  const entry = tasks.get(name);
  if (entry?.task) return entry.task;
  try {
    if (!entry) throw new Error(`no task "${name}" was made known`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require(entry.file) as { attach(host: WorkerTaskHost): WorkerTask };
    entry.task = module.attach({
      events: store,
      data: entry.data,
      note: () => post({ kind: 'note', task: name }),
    });
    return entry.task;
  } catch (e) {
    tasks.delete(name);
    post({ kind: 'unavailable', id, task: name, message: e instanceof Error ? e.message : String(e) });
    return undefined;
  }
}

let turn: Promise<void> = Promise.resolve();
port.on('message', (m: FoldRequest) => {
  if (m.kind === 'task') {
    tasks.set(m.task, { file: m.file, data: m.data, turn: Promise.resolve() });
    return;
  }
  if (m.kind === 'run') {
    const task = loaded(m.id, m.task);
    const entry = tasks.get(m.task);
    if (task && entry) entry.turn = entry.turn.then(() => reply(m.id, () => task.run()));
    return;
  }
  turn = turn.then(() =>
    reply(m.id, async () => {
      // Rows the CLI wrote (a rebuild while the service runs) are dropped from what the service holds.
      if (read.writtenByOthers()) post({ kind: 'applied', names: [] });
      const done = m.name ? await runner.catchUp(m.name) : (await runner.catchUpAll(), 0);
      return { done, more: false };
    }),
  );
});
post({ kind: 'ready' });
