import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@app/event-store';
import { FightService } from '../../src/fight-service';
import { FoldWorker, type FoldWorkerOptions } from '../../src/projections/fold-worker';
import { PROJECTIONS, ReadStore } from '../../src/projections/read-store';
import { ProjectionRunner } from '../../src/projections/runner';
import { SqliteReadStore } from '../../src/projections/sqlite-read-store';
import { createFights, foldedFresh, snapshot } from './read-models';

/** The worker from the TypeScript sources, as the compiled service starts it from dist. */
const SOURCE_WORKER = join(__dirname, '../../src/projections/fold-worker-thread.ts');
const TS_LOADER = ['--require', join(__dirname, '../../../../test/support/ts-require.js')];

let dir: string;
const closing: Array<() => Promise<unknown>> = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fold-worker-'));
});

afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

function openLog() {
  const store = new SqliteEventStore(join(dir, 'events.sqlite'));
  const read = new SqliteReadStore(join(dir, 'read.sqlite'));
  closing.push(
    () => store.close(),
    () => read.close(),
  );
  return { store, read, service: new FightService(store) };
}

async function note(service: FightService, fightId: string, text: string): Promise<number> {
  const result = await service.execute(fightId, { type: 'AddNote', text });
  return result.seq;
}

function startWorker(
  read: SqliteReadStore,
  store: SqliteEventStore,
  file = SOURCE_WORKER,
  options: FoldWorkerOptions = {},
) {
  const worker = new FoldWorker(
    file,
    { eventsFile: store.file, readFile: read.file, names: [...PROJECTIONS] },
    { execArgv: TS_LOADER, ...options },
  );
  closing.push(() => worker.stop());
  return worker;
}

const seqOf = (read: ReadStore, fightId: string) => async () => (await read.getFight(fightId))?.seq ?? 0;

describe('ProjectionRunner with a fold worker (SQLite)', () => {
  it('folds on the worker thread: the read models are those a fold in this thread builds, and waiters are told', async () => {
    const { store, read, service } = openLog();
    const fights = await createFights(service, 3);
    for (const f of fights) await note(service, f, 'before boot');
    const apply = jest.spyOn(read, 'apply');
    const runner = new ProjectionRunner(store, read, PROJECTIONS, undefined, {
      remote: startWorker(read, store),
    });
    closing.push(() => runner.stop());
    await runner.start();
    expect(await snapshot(read, fights)).toEqual(await foldedFresh(store, fights));

    // A row held from before the worker's commit is not answered after it.
    expect((await read.getFight(fights[0]))?.seq).toBe(4);
    const seq = await note(service, fights[0], 'after boot');
    runner.kick();
    expect(await runner.waitFor('fight-views', fights[0], seq, 30_000, seqOf(read, fights[0]))).toBe(true);
    expect((await read.getFight(fights[0]))?.seq).toBe(seq);
    expect((await read.getFight(fights[0]))?.view).toMatchObject({ seq });
    expect(await snapshot(read, fights)).toEqual(await foldedFresh(store, fights));
    // This thread's connection never wrote the read models.
    expect(apply).not.toHaveBeenCalled();
    expect(await runner.catchUp('fight-views')).toBe(0);
  });

  it('drops the rows this thread holds when another process wrote the read models (a CLI rebuild)', async () => {
    const { store, read, service } = openLog();
    const [x, y] = await createFights(service, 2);
    const runner = new ProjectionRunner(store, read, PROJECTIONS, undefined, {
      remote: startWorker(read, store),
    });
    closing.push(() => runner.stop());
    await runner.start();
    expect((await read.getFight(x))?.seq).toBe(3);

    // Another process folds a command on x into the same file.
    const other = new SqliteReadStore(read.file);
    closing.push(() => other.close());
    const seqX = await note(service, x, 'folded by another process');
    await new ProjectionRunner(store, other).catchUpAll();
    // Then the worker folds one on y: the rows of x held here must go too, not only y's.
    const seqY = await note(service, y, 'folded by the worker');
    await runner.catchUpAll();
    expect((await read.getFight(y))?.seq).toBe(seqY);
    expect((await read.getFight(x))?.seq).toBe(seqX);
  });

  it('when the worker is lost, the pass in hand and every one after are made in this thread', async () => {
    const { store, read, service } = openLog();
    const fights = await createFights(service, 2);
    // Up, then gone at the first pass it is asked for.
    const dying = join(dir, 'dying-worker.js');
    writeFileSync(
      dying,
      "const { parentPort } = require('node:worker_threads');\n" +
        "parentPort.postMessage({ kind: 'ready' });\n" +
        "parentPort.on('message', () => process.exit(3));\n",
    );
    const lost: Error[] = [];
    const worker = startWorker(read, store, dying, { execArgv: [], onLost: (e) => lost.push(e) });
    const runner = new ProjectionRunner(store, read, PROJECTIONS, undefined, { remote: worker });
    closing.push(() => runner.stop());
    await runner.start();
    expect(worker.up).toBe(false);
    expect(lost.map((e) => e.message)).toEqual(['the fold worker exited with code 3']);
    expect(await snapshot(read, fights)).toEqual(await foldedFresh(store, fights));

    const seq = await note(service, fights[1], 'after the loss');
    runner.kick();
    expect(await runner.waitFor('fight-views', fights[1], seq, 30_000, seqOf(read, fights[1]))).toBe(true);
    expect(await snapshot(read, fights)).toEqual(await foldedFresh(store, fights));
  });

  it('a worker that cannot start leaves the folding to this thread', async () => {
    const { store, read, service } = openLog();
    const fights = await createFights(service, 1);
    const lost: Error[] = [];
    const worker = startWorker(read, store, join(dir, 'no-such-worker.js'), {
      execArgv: [],
      onLost: (e) => lost.push(e),
    });
    const runner = new ProjectionRunner(store, read, PROJECTIONS, undefined, { remote: worker });
    closing.push(() => runner.stop());
    await runner.start();
    expect(worker.up).toBe(false);
    expect(lost).toHaveLength(1);
    expect(await snapshot(read, fights)).toEqual(await foldedFresh(store, fights));
  });
});
