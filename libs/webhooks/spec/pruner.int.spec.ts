import { DEFAULT_WEBHOOK_CONFIG } from '../src/config';
import { judge } from '../src/dispatcher';
import { WebhookPruner } from '../src/pruner';
import { SqlWebhookStore } from '../src/store/sql-store';
import { SqliteDriver } from '../src/store/sqlite-driver';
import { DeliveryRow, WebhookStore } from '../src/store/types';
import { endpointRow } from './helpers';

const DAY = 86_400_000;
const NOW = 400 * DAY;
const schedule = { firstAfterMs: 20, everyMs: 60, batchSize: 2 };
const endpoint = endpointRow('e1', { url: 'http://receiver/e1' });
/** True once `check` holds; passes run on timers, which a loaded machine runs late: a bound on a hang only. */
const until = async (check: () => Promise<boolean>, ms = 60_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 10)))
    if (await check()) return true;
  return false;
};

/** A store whose pruneFinished answers with `counts` in turn, each when the test releases it. */
function scriptedStore(counts: number[]) {
  const calls: Array<(n: number) => void> = [];
  const store = {
    pruneFinished: () => new Promise<number>((resolve) => calls.push(resolve)),
  } as unknown as WebhookStore;
  const answerNext = async () => {
    await until(async () => calls.length > 0);
    calls.shift()!(counts.shift()!);
  };
  return { store, answerNext, pendingCalls: () => calls.length };
}

describe('webhook pruner', () => {
  let store: WebhookStore;
  let pruner: WebhookPruner | undefined;
  const delivered = async (fight: string, finishedAt: number) => {
    const d = {
      id: `msg_${fight}`,
      endpointId: 'e1',
      tenantId: 't1',
      fightId: fight,
      seq: 1,
      eventType: 'E',
      payload: '{}',
      createdAt: 0,
    };
    await store.insertDelivery(d);
    await store.claimDue(finishedAt, 1, 'me', finishedAt + 1000);
    await store.recordAttempt(
      'me',
      {
        deliveryId: d.id,
        endpointId: 'e1',
        attemptNo: 1,
        attemptedAt: finishedAt,
        status: 200,
        latencyMs: 1,
        responseExcerpt: '',
        error: null,
      },
      {
        status: 'delivered',
        nextAttemptAt: finishedAt,
        lastStatus: 200,
        lastError: null,
        deliveredAt: finishedAt,
      },
      { kind: 'success' },
    );
  };
  const kept = async () => (await store.listDeliveries('e1', { limit: 100 })).map((d) => d.fightId).sort();

  beforeEach(async () => {
    store = new SqlWebhookStore(new SqliteDriver(':memory:', 'memory'));
    await store.insertEndpoint(endpoint);
  });
  afterEach(async () => {
    await pruner?.stop();
    pruner = undefined;
    await store.close();
  });

  it('a finished delivery’s nextAttemptAt is when it finished, which the retention counts from', () => {
    const d = { roundAttempts: 7 } as DeliveryRow;
    const config = { ...DEFAULT_WEBHOOK_CONFIG, retryScheduleMs: [0] };
    expect(judge({ status: 204, excerpt: '', latencyMs: 1 }, d, config, 1234).outcome).toMatchObject({
      status: 'delivered',
      nextAttemptAt: 1234,
    });
    expect(judge({ status: 500, excerpt: '', latencyMs: 1 }, d, config, 5678).outcome).toMatchObject({
      status: 'failed',
      nextAttemptAt: 5678,
    });
  });

  it('runs a first pass shortly after start, then one every interval; nothing runs after stop', async () => {
    let now = NOW;
    for (const f of ['a', 'b', 'c']) await delivered(f, NOW - 31 * DAY);
    await delivered('young', NOW - 29 * DAY);
    pruner = new WebhookPruner(store, 30, () => now, undefined, schedule);
    const batches: number[] = [];
    pruner.onPruned.add((n) => batches.push(n));
    pruner.start();
    expect(await kept()).toHaveLength(4);
    expect(await until(async () => (await kept()).length === 1)).toBe(true);
    expect(batches).toEqual([2, 1]);
    // Two days on, the young one is past the retention: the next interval's pass takes it.
    now += 2 * DAY;
    expect(await until(async () => (await kept()).length === 0)).toBe(true);
    await pruner.stop();
    await delivered('late', NOW - 100 * DAY);
    await new Promise((r) => setTimeout(r, 3 * schedule.everyMs));
    expect(await kept()).toEqual(['late']);
  });

  it('retention 0 schedules nothing and prunes nothing', async () => {
    await delivered('a', 0);
    pruner = new WebhookPruner(store, 0, () => NOW, undefined, schedule);
    pruner.start();
    pruner.kick();
    await new Promise((r) => setTimeout(r, 3 * schedule.everyMs));
    expect(await pruner.prune()).toBe(0);
    expect(await kept()).toEqual(['a']);
  });

  it('a pass goes on while batches come back full and stops at the first short one', async () => {
    const { store: scripted, answerNext } = scriptedStore([2, 2, 1, 2]);
    pruner = new WebhookPruner(scripted, 30, () => NOW, undefined, schedule);
    const pass = pruner.prune();
    for (let i = 0; i < 3; i++) await answerNext();
    expect(await pass).toBe(5);
  });

  it('stop waits for the batch in hand and starts no further one, even after a full batch', async () => {
    const { store: scripted, answerNext, pendingCalls } = scriptedStore([2, 2]);
    pruner = new WebhookPruner(scripted, 30, () => NOW, undefined, schedule);
    pruner.kick();
    await until(async () => pendingCalls() === 1);
    let stopped = false;
    const stopping = pruner.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    await answerNext();
    await stopping;
    await new Promise((r) => setTimeout(r, 20));
    expect(pendingCalls()).toBe(0);
  });

  it('a failing pass is reported, not thrown, and the next one runs', async () => {
    const errors: unknown[] = [];
    let failures = 1;
    const flaky = {
      pruneFinished: async () => (failures-- > 0 ? Promise.reject(new Error('database is locked')) : 0),
    } as unknown as WebhookStore;
    pruner = new WebhookPruner(
      flaky,
      30,
      () => NOW,
      (e) => errors.push(e),
      schedule,
    );
    pruner.start();
    expect(await until(async () => failures < 0)).toBe(true);
    expect(errors).toEqual([new Error('database is locked')]);
  });
});
