import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@app/event-store';
import { FightService, fightStream, FoldWorker, PROJECTIONS, type TaskListeners } from '@app/fights';
import { WebhookOutbox } from '../src/outbox';
import { SqlWebhookStore } from '../src/store/sql-store';
import { SqliteDriver } from '../src/store/sqlite-driver';
import { WebhookStore } from '../src/store/types';
import { duel } from '../../../test/support/narateer-sheets';
import { endpointRow } from './helpers';

/** The worker and the outbox's module from the TypeScript sources, as the built service loads the compiled ones. */
const SOURCE_WORKER = join(__dirname, '../../fights/src/projections/fold-worker-thread.ts');
const SOURCE_TASK = join(__dirname, '../src/outbox-thread.ts');
const TS_LOADER = ['--require', join(__dirname, '../../../test/support/ts-require.js')];

const actor = { name: 'gm', scope: 'all' as const, tenantId: 't1' };
let dir: string;
const closing: Array<() => Promise<unknown>> = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'outbox-thread-'));
});

afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

function open() {
  const events = new SqliteEventStore(join(dir, 'events.sqlite'));
  const store = new SqlWebhookStore(new SqliteDriver(join(dir, 'webhooks.sqlite')));
  closing.push(
    () => events.close(),
    () => store.close(),
  );
  return { events, store, fights: new FightService(events) };
}

function startWorker(events: SqliteEventStore) {
  const worker = new FoldWorker(
    SOURCE_WORKER,
    { eventsFile: events.file, readFile: join(dir, 'read.sqlite'), names: [...PROJECTIONS] },
    { execArgv: TS_LOADER },
  );
  closing.push(() => worker.stop());
  return worker;
}

/** An outbox of this thread whose catch-ups go to the worker's task, with the store's commits counted. */
function outboxOn(
  worker: FoldWorker,
  events: SqliteEventStore,
  store: SqlWebhookStore,
  file = SOURCE_TASK,
  listeners: TaskListeners = {},
) {
  let commits = 0;
  const counted = new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'commitPage') commits++;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as WebhookStore;
  const remote = worker.task('webhook-outbox', file, { webhooksFile: store.file }, listeners);
  const outbox = new WebhookOutbox(events, counted, undefined, undefined, undefined, { remote });
  closing.push(() => outbox.stop());
  return { outbox, remote, commitsHere: () => commits };
}

async function fightWithNotes(fights: FightService, notes: number): Promise<string> {
  const { fightId } = await fights.create(duel({ mode: 'fair' }), actor);
  for (let i = 0; i < notes; i++) await fights.execute(fightId, { type: 'AddNote', text: `n${i}` }, actor);
  return fightId;
}

/** Every delivery of the endpoint, oldest first, without the time it was queued (each outbox reads its own clock). */
async function deliveries(store: WebhookStore, endpointId: string) {
  const rows = await store.listDeliveries(endpointId, { limit: 500 });
  return rows
    .map(({ id, fightId, seq, eventType, payload }) => ({ id, fightId, seq, eventType, payload }))
    .sort((x, y) => x.seq - y.seq);
}

describe('the webhook outbox on the fold worker (SQLite)', () => {
  it('given more than a page of commits, then the worker queues what an outbox in this thread queues, and notes each batch', async () => {
    const { events, store, fights } = open();
    await store.insertEndpoint(endpointRow('e1'));
    // Past the outbox's page of 200 events: each page is one run on the worker.
    const fightId = await fightWithNotes(fights, 230);
    let notes = 0;
    const { outbox, commitsHere } = outboxOn(startWorker(events), events, store, SOURCE_TASK, {
      onNote: () => notes++,
    });
    expect(outbox.queuingElsewhere).toBe(true);
    const queued = await outbox.catchUp();
    const seqs = (await events.readStream(fightStream(fightId))).length;
    expect(queued).toBe(seqs);
    expect(notes).toBeGreaterThanOrEqual(2);
    // The worker committed the pages over its own connection: none went through this thread's store.
    expect(commitsHere()).toBe(0);

    // The same log, queued by an outbox in this thread into a store of its own.
    const here = new SqlWebhookStore(new SqliteDriver(join(dir, 'here.sqlite')));
    closing.push(() => here.close());
    await here.insertEndpoint(endpointRow('e1'));
    expect(await new WebhookOutbox(events, here).catchUp()).toBe(seqs);
    const got = await deliveries(store, 'e1');
    expect(got).toEqual(await deliveries(here, 'e1'));
    expect(got.map((d) => d.seq)).toEqual(Array.from({ length: seqs }, (_, i) => i + 1));
    expect(await store.checkpoint()).toBe(await here.checkpoint());
  });

  it('given the worker is lost, then the catch-ups are made in this thread from where the worker stopped', async () => {
    const { events, store, fights } = open();
    await store.insertEndpoint(endpointRow('e1'));
    const fightId = await fightWithNotes(fights, 2);
    const worker = startWorker(events);
    const { outbox, remote, commitsHere } = outboxOn(worker, events, store);
    const first = await outbox.catchUp();
    expect(first).toBeGreaterThan(0);
    await worker.stop();
    expect(remote.up).toBe(false);
    expect(outbox.queuingElsewhere).toBe(false);
    await fights.execute(fightId, { type: 'AddNote', text: 'after' }, actor);
    expect(await outbox.catchUp()).toBe(1);
    expect(commitsHere()).toBeGreaterThan(0);
    const got = await deliveries(store, 'e1');
    expect(got.map((d) => d.seq)).toEqual(Array.from({ length: first + 1 }, (_, i) => i + 1));
  });

  it('given a task module the worker cannot load, then it says so once and the catch-ups are made in this thread', async () => {
    const { events, store, fights } = open();
    await store.insertEndpoint(endpointRow('e1'));
    await fightWithNotes(fights, 1);
    const unavailable: string[] = [];
    const { outbox, remote, commitsHere } = outboxOn(
      startWorker(events),
      events,
      store,
      join(dir, 'no-such-module.js'),
      { onUnavailable: (e) => unavailable.push(e.message) },
    );
    expect(remote.up).toBe(true);
    const queued = await outbox.catchUp();
    expect(queued).toBeGreaterThan(0);
    expect(remote.up).toBe(false);
    expect(unavailable).toEqual([expect.stringContaining('no-such-module')]);
    expect(commitsHere()).toBeGreaterThan(0);
    expect((await deliveries(store, 'e1')).length).toBe(queued);
  });
});
