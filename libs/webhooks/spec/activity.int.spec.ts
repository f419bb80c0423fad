import { EventStore, InMemoryEventStore } from '@app/event-store';
import { FightService, TailPage, TailReader } from '@app/fights';
import { WebhookActivity } from '../src/activity';
import { DEFAULT_WEBHOOK_CONFIG, WebhookConfig } from '../src/config';
import { WebhookDispatcher } from '../src/dispatcher';
import { WebhookOutbox } from '../src/outbox';
import { Sender } from '../src/sender';
import { WebhookService } from '../src/service';
import { SqlWebhookStore } from '../src/store/sql-store';
import { SqliteDriver } from '../src/store/sqlite-driver';
import { WebhookStore } from '../src/store/types';

/** Polls as often as it can: an outbox or a dispatcher that is not idle shows up at once. */
const config: WebhookConfig = { ...DEFAULT_WEBHOOK_CONFIG, pollMs: 1, allowPrivate: true };
const actor = { name: 'gm', scope: 'all' as const, tenantId: 't1' };
const sender: Sender = async () => ({ status: 200, excerpt: '', latencyMs: 1 });

/** Counts the calls of the named methods, passing every call through. */
function counting<T extends object>(
  target: T,
  names: string[],
): { wrapped: T; calls: Record<string, number> } {
  const calls: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  const wrapped = new Proxy(target, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t) as unknown;
      if (typeof value !== 'function') return value;
      const fn = (value as (...args: unknown[]) => unknown).bind(t);
      if (typeof prop !== 'string' || !names.includes(prop)) return fn;
      return (...args: unknown[]) => {
        calls[prop]++;
        return fn(...args);
      };
    },
  });
  return { wrapped, calls };
}

const at = (ms: number) => () => new Date(ms);

describe('webhook outbox idle without endpoints (docs/webhooks.md "Idle without endpoints")', () => {
  let log: InMemoryEventStore;
  let store: WebhookStore;
  let now: number;
  let fights: FightService;
  let heard: number;
  let activity: WebhookActivity;
  let outbox: WebhookOutbox;
  let dispatcher: WebhookDispatcher;
  let service: WebhookService;
  let logCalls: Record<string, number>;
  let storeCalls: Record<string, number>;

  /** Until the follower has handed on every event of the log. */
  const handedOn = async () => {
    const total = (await log.readAll({})).length;
    while (heard < total) await new Promise((r) => setImmediate(r));
  };

  beforeEach(async () => {
    log = new InMemoryEventStore();
    const events = counting<EventStore>(log, ['readAll', 'subscribeAll']);
    logCalls = events.calls;
    const webhooks = counting<WebhookStore>(new SqlWebhookStore(new SqliteDriver(':memory:', 'memory')), [
      'checkpoint',
      'commitPage',
      'claimDue',
      'fightTenants',
    ]);
    store = webhooks.wrapped;
    storeCalls = webhooks.calls;
    now = 1_000_000;
    activity = new WebhookActivity(store);
    dispatcher = new WebhookDispatcher(store, config, sender);
    outbox = new WebhookOutbox(
      events.wrapped,
      store,
      () => dispatcher.kick(),
      undefined,
      () => now,
      { tail: new TailReader(events.wrapped), activity },
    );
    service = new WebhookService(store, dispatcher, config, () => now, activity);
    await activity.start();
    outbox.start(config.pollMs);
    dispatcher.start(activity);
    // The events are stamped by this clock, the endpoints by `now`.
    fights = new FightService(log, at(1_000_000));
    heard = 0;
    fights.onLogPage.add((p: TailPage) => outbox.offer(p));
    fights.onLogPage.add((p: TailPage) => (heard += p.events.length));
    fights.start(undefined);
  });

  afterEach(async () => {
    fights.stop();
    await outbox.stop();
    await dispatcher.stop();
    activity.stop();
    await store.close();
  });

  it('given no endpoint, when fights are played, then the outbox reads no log and the dispatcher claims nothing', async () => {
    const { fightId } = await fights.create(
      { system: 'narateer', name: 'F', dice: { mode: 'manual' } },
      actor,
    );
    for (let i = 0; i < 20; i++) await fights.execute(fightId, { type: 'AddNote', text: `n${i}` }, actor);
    await handedOn();

    expect(outbox.following).toBe(false);
    expect(logCalls.readAll).toBe(0);
    expect(storeCalls).toEqual({ checkpoint: 0, commitPage: 0, claimDue: 0, fightTenants: 0 });
  });

  it('given a fight played while no endpoint existed, when the first endpoint comes, then the outbox reads on from where it stopped and queues only what follows the endpoint', async () => {
    const { fightId } = await fights.create(
      { system: 'narateer', name: 'F', dice: { mode: 'manual' } },
      actor,
    );
    await fights.execute(fightId, { type: 'AddNote', text: 'before' }, actor);
    await handedOn();
    expect(logCalls.readAll).toBe(0);

    now = 2_000_000;
    const { endpoint } = await service.create('t1', { url: 'http://127.0.0.1:9/hook' });
    expect(outbox.following).toBe(true);
    const later = new FightService(log, at(3_000_000));
    const { seq } = await later.execute(fightId, { type: 'AddNote', text: 'after' }, actor);
    let queued: number[] = [];
    while (!queued.includes(seq)) {
      queued = (await store.listDeliveries(endpoint.id, { limit: 100 })).map((d) => d.seq);
      await new Promise((r) => setImmediate(r));
    }
    // The fight's owner is known from its first event, read when the outbox woke; the events before the endpoint are not its own.
    expect(queued).toEqual([seq]);
    expect(logCalls.readAll).toBeGreaterThan(0);

    await service.remove('t1', endpoint.id);
    expect(outbox.following).toBe(false);
    expect(activity.active).toBe(false);
  });

  it('given endpoints managed by other instances (PostgreSQL), then the owner notices one as the log moves, and an instance that wins the read side looks afresh', async () => {
    const owner = { owned: false, onChange: new Set<(owned: boolean) => void>() };
    const shared = new WebhookActivity(store, owner, { recheckMs: 0 });
    await shared.start();
    try {
      // Another instance creates an endpoint: this one does not own the read side, so it does not look.
      await service.create('t1', { url: 'http://127.0.0.1:9/hook' });
      shared.heard();
      expect(shared.active).toBe(false);
      owner.owned = true;
      for (const listener of owner.onChange) listener(true);
      while (!shared.active) await new Promise((r) => setImmediate(r));

      // Deleted elsewhere: the next events make the owner look again, and it idles.
      const [ep] = await store.listEndpoints('t1');
      await store.deleteEndpoint(ep.id);
      shared.heard();
      while (shared.active) await new Promise((r) => setImmediate(r));
    } finally {
      shared.stop();
    }
  });
});
