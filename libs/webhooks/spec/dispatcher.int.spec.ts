import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { InMemoryEventStore } from '@app/event-store';
import { FightService } from '@app/fights';
import {
  DEFAULT_WEBHOOK_CONFIG,
  ENDPOINT_CONCURRENCY,
  TENANT_CONCURRENCY,
  WebhookConfig,
} from '../src/config';
import { WebhookDispatcher } from '../src/dispatcher';
import { OUTBOX_BATCH, WebhookOutbox } from '../src/outbox';
import { Sender, SendResult } from '../src/sender';
import { newSigningSecret } from '../src/signing';
import { SqlWebhookStore } from '../src/store/sql-store';
import { PostgresDriver } from '../src/store/postgres-driver';
import { SqliteDriver } from '../src/store/sqlite-driver';
import { SqlDriver, SqlExec } from '../src/store/driver';
import { EndpointRow, WebhookStore } from '../src/store/types';
import { endpointRow } from './helpers';

const config: WebhookConfig = { ...DEFAULT_WEBHOOK_CONFIG, retryScheduleMs: [0, 1000, 5000], pollMs: 10_000 };
const secret = newSigningSecret();
const endpoint = (id: string): EndpointRow => endpointRow(id, { url: `http://receiver/${id}`, secret });

describe('webhook dispatcher', () => {
  let store: WebhookStore;
  let now: number;
  let received: Array<{ fight: string; seq: number }>;
  let answer: (fight: string, seq: number) => Partial<SendResult>;
  let dispatcher: WebhookDispatcher;
  const sender: Sender = async (_url, headers, body) => {
    const { fight, seq } = JSON.parse(body) as { fight: string; seq: number };
    new Webhook(secret).verify(body, headers);
    received.push({ fight, seq });
    return { excerpt: '', latencyMs: 1, ...answer(fight, seq) };
  };
  const settle = async () => {
    for (let i = 0; i < 20; i++) {
      dispatcher.kick();
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  beforeEach(async () => {
    store = new SqlWebhookStore(new SqliteDriver(':memory:', 'memory'));
    now = Math.floor(Date.now() / 1000) * 1000;
    received = [];
    await store.insertEndpoint(endpoint('e1'));
    for (const fight of ['A', 'B'])
      for (const seq of [1, 2, 3])
        await store.insertDelivery({
          id: `msg_${fight}${seq}`,
          endpointId: 'e1',
          tenantId: 't1',
          fightId: fight,
          seq,
          eventType: 'E',
          payload: JSON.stringify({ fight, seq }),
          createdAt: now,
        });
    dispatcher = new WebhookDispatcher(store, config, sender, () => now);
  });
  afterEach(async () => {
    await dispatcher.stop();
    await store.close();
  });

  it('a failing fight holds back only its own later events, in seq order', async () => {
    let failA = true;
    answer = (fight) => ({ status: fight === 'A' && failA ? 500 : 204 });
    await settle();
    expect(received.filter((r) => r.fight === 'B').map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(received.filter((r) => r.fight === 'A').map((r) => r.seq)).toEqual([1]);
    failA = false;
    now += 1000;
    await settle();
    expect(received.filter((r) => r.fight === 'A').map((r) => r.seq)).toEqual([1, 1, 2, 3]);
    expect((await store.listAttempts('msg_A1')).map((a) => a.status)).toEqual([500, 204]);
  });

  it('while the foreground is busy, one attempt at a time; once it is not, the full concurrency', async () => {
    let busy = true;
    let inflight = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const slow: Sender = async () => {
      most = Math.max(most, ++inflight);
      await new Promise<void>((resolve) => releases.push(resolve));
      inflight--;
      return { status: 204, excerpt: '', latencyMs: 1 };
    };
    const paced = new WebhookDispatcher(store, config, slow, () => now, undefined, { busy: () => busy });
    const flush = async () => {
      for (let i = 0; i < 10; i++) {
        paced.kick();
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    try {
      expect(paced.busyConcurrency).toBe(1);
      await flush();
      // Fight A's and B's first events are both due; only one goes out while commands need the thread.
      expect([inflight, most]).toEqual([1, 1]);
      busy = false;
      await flush();
      expect(inflight).toBe(2);
      while (releases.length > 0) {
        releases.shift()!();
        await flush();
      }
      expect(most).toBe(2);
      expect((await store.getDelivery('msg_B3'))?.status).toBe('delivered');
    } finally {
      await paced.stop();
    }
  });

  it('gives up when the schedule is spent; Retry-After delays the retry', async () => {
    answer = (fight) => (fight === 'A' ? { status: 503, retryAfter: '30' } : { status: 200 });
    await settle();
    now += 1000;
    await settle();
    expect(received.filter((r) => r.fight === 'A')).toHaveLength(1);
    now += 29_000;
    await settle();
    now += 30_000;
    await settle();
    expect((await store.getDelivery('msg_A1'))!.status).toBe('failed');
    // The spent delivery no longer holds back the next one.
    expect(
      received
        .filter((r) => r.fight === 'A')
        .map((r) => r.seq)
        .slice(0, 4),
    ).toEqual([1, 1, 1, 2]);
  });

  it('410 disables the endpoint and says why; the deliveries wait for it', async () => {
    answer = () => ({ status: 410 });
    await settle();
    expect(await store.getEndpoint('e1')).toMatchObject({
      enabled: false,
      disabledReason: 'the receiver answered 410 Gone',
    });
    const sent = received.length;
    now += 60_000;
    await settle();
    expect(received.length).toBe(sent);
    expect((await store.listDeliveries('e1', { limit: 10, status: 'pending' })).length).toBe(6);
  });
});

describe('webhook dispatcher, one tenant’s receiver hanging', () => {
  const PG_URL = process.env.EVENT_STORE_PG_URL;
  const schemas: string[] = [];
  const engines: Array<[string, () => WebhookStore]> = [
    ['memory', () => new SqlWebhookStore(new SqliteDriver(':memory:', 'memory'))],
  ];
  if (PG_URL)
    engines.push([
      'postgres',
      () => {
        const schema = `wh_fair_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
        schemas.push(schema);
        return new SqlWebhookStore(new PostgresDriver(PG_URL, schema));
      },
    ]);
  afterAll(async () => {
    if (!PG_URL || schemas.length === 0) return;
    const { Client } = await import('pg');
    const c = new Client({ connectionString: PG_URL });
    await c.connect();
    for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    await c.end();
  });

  /**
   * A sender that notes each delivery's id in `sent`: endpoint eB's receiver answers 204 at once, every other
   * endpoint's never answers (its attempt ends only when the dispatcher stops, aborted).
   */
  const onlyEndpointBAnswers =
    (sent: string[]): Sender =>
    (url, _headers, body, options) => {
      sent.push((JSON.parse(body) as { id: string }).id);
      if (url.endsWith('/eB')) return Promise.resolve({ status: 204, excerpt: '', latencyMs: 1 });
      return new Promise((resolve) => {
        const abort = () => resolve({ excerpt: '', latencyMs: 1, aborted: true });
        if (options.signal?.aborted) abort();
        else options.signal?.addEventListener('abort', abort, { once: true });
      });
    };

  it.each(engines)(
    '%s: another endpoint’s delivery is sent while one that never answers holds ENDPOINT_CONCURRENCY attempts, in send order',
    async (_engine, open) => {
      const store = open();
      const now = 1_000_000;
      const sent: string[] = [];
      // Endpoint A's receiver never answers: each attempt ends only when the dispatcher stops.
      const sender = onlyEndpointBAnswers(sent);
      const queue = (endpointId: string, fightId: string, createdAt: number) => {
        const id = `msg_${endpointId}_${fightId}`;
        return store.insertDelivery({
          id,
          endpointId,
          tenantId: endpointId === 'eA' ? 't1' : 't2',
          fightId,
          seq: 1,
          eventType: 'E',
          payload: JSON.stringify({ id }),
          createdAt,
        });
      };
      await store.insertEndpoint(endpoint('eA'));
      await store.insertEndpoint({ ...endpoint('eB'), tenantId: 't2' });
      // 32 of A's deliveries are due before B's, twice the dispatcher's slots.
      for (let f = 0; f < 32; f++) await queue('eA', `f${f}`, now - 1000 + f);
      await queue('eB', 'f0', now);
      const dispatcher = new WebhookDispatcher(store, config, sender, () => now);
      try {
        expect(await dispatcher.waitForAttempt('msg_eB_f0', 10_000)).toBe(true);
        expect((await store.getDelivery('msg_eB_f0'))?.status).toBe('delivered');
        // The attempts claimed with B's start on their own time (each reads its endpoint first); then more chances to
        // claim, which must find A full.
        for (let i = 0; i < 200 && sent.length <= ENDPOINT_CONCURRENCY; i++)
          await new Promise((r) => setTimeout(r, 5));
        for (let i = 0; i < 5; i++) {
          dispatcher.kick();
          await new Promise((r) => setTimeout(r, 10));
        }
        // A's first deliveries in send order, each once; attempts to one endpoint run side by side, so in any order.
        const toA = Array.from({ length: ENDPOINT_CONCURRENCY }, (_, f) => `msg_eA_f${f}`);
        expect([...sent].sort()).toEqual([...toA, 'msg_eB_f0'].sort());
        // Every attempt to A is still in flight: none recorded, none of A's later deliveries tried.
        const pendingA = await store.listDeliveries('eA', { status: 'pending', limit: 100 });
        expect(pendingA).toHaveLength(32);
        expect(pendingA.filter((d) => d.attempts > 0)).toEqual([]);
      } finally {
        await dispatcher.stop();
        await store.close();
      }
    },
  );

  it.each(engines)(
    '%s: another tenant’s delivery is sent while five of one tenant’s endpoints that never answer hold TENANT_CONCURRENCY attempts between them',
    async (_engine, open) => {
      const store = open();
      const now = 1_000_000;
      const sent: string[] = [];
      // Tenant t1's receivers never answer: each attempt ends only when the dispatcher stops.
      const sender = onlyEndpointBAnswers(sent);
      const queue = (endpointId: string, tenantId: string, fightId: string, createdAt: number) => {
        const id = `msg_${endpointId}_${fightId}`;
        return store.insertDelivery({
          id,
          endpointId,
          tenantId,
          fightId,
          seq: 1,
          eventType: 'E',
          payload: JSON.stringify({ id }),
          createdAt,
        });
      };
      const eps = Array.from({ length: 5 }, (_, i) => `eA${i}`);
      for (const e of eps) await store.insertEndpoint(endpoint(e));
      await store.insertEndpoint({ ...endpoint('eB'), tenantId: 't2' });
      // 40 of t1's deliveries (8 per endpoint, fight after fight) are due before t2's: enough for every slot.
      for (let f = 0; f < 8; f++)
        for (const [i, e] of eps.entries()) await queue(e, 't1', `f${f}`, now - 1000 + f * eps.length + i);
      await queue('eB', 't2', 'f0', now);
      const dispatcher = new WebhookDispatcher(store, config, sender, () => now);
      try {
        expect(await dispatcher.waitForAttempt('msg_eB_f0', 5_000)).toBe(true);
        expect((await store.getDelivery('msg_eB_f0'))?.status).toBe('delivered');
        for (let i = 0; i < 200 && sent.length <= TENANT_CONCURRENCY; i++)
          await new Promise((r) => setTimeout(r, 5));
        for (let i = 0; i < 5; i++) {
          dispatcher.kick();
          await new Promise((r) => setTimeout(r, 10));
        }
        // t1's first deliveries in send order (fight after fight, across its endpoints), each once.
        const toA = Array.from(
          { length: TENANT_CONCURRENCY },
          (_, n) => `msg_${eps[n % eps.length]}_f${Math.floor(n / eps.length)}`,
        );
        expect([...sent].sort()).toEqual([...toA, 'msg_eB_f0'].sort());
      } finally {
        await dispatcher.stop();
        await store.close();
      }
    },
  );
});

describe('webhook dispatcher, nothing to send', () => {
  /** SQLite in memory, counting statements and transactions. */
  function counted(): { driver: SqlDriver; counts: { queries: number; txs: number } } {
    const inner = new SqliteDriver(':memory:', 'memory');
    const counts = { queries: 0, txs: 0 };
    const driver: SqlDriver = {
      engine: inner.engine,
      lockClause: inner.lockClause,
      query: (sql, params) => (counts.queries++, inner.query(sql, params)),
      run: (sql, params) => (counts.queries++, inner.run(sql, params)),
      tx: <T>(fn: (q: SqlExec) => Promise<T>) => (counts.txs++, inner.tx(fn)),
      close: () => inner.close(),
    };
    return { driver, counts };
  }

  it('polls with one index probe each and opens no transaction, with no endpoints and with an endpoint whose deliveries are all sent', async () => {
    const { driver, counts } = counted();
    const store = new SqlWebhookStore(driver);
    let now = 1_000_000;
    const dispatcher = new WebhookDispatcher(
      store,
      config,
      async () => ({ status: 204, excerpt: '', latencyMs: 1 }),
      () => now,
    );
    const poll = async () => {
      dispatcher.kick();
      await new Promise((r) => setTimeout(r, 5));
    };
    try {
      for (let i = 0; i < 10; i++) await poll();
      expect(counts).toEqual({ queries: 10, txs: 0 });
      await store.insertEndpoint(endpoint('e1'));
      await store.insertDelivery({
        id: 'msg_A1',
        endpointId: 'e1',
        tenantId: 't1',
        fightId: 'A',
        seq: 1,
        eventType: 'E',
        payload: '{}',
        createdAt: now,
      });
      await poll();
      expect((await store.getDelivery('msg_A1')).status).toBe('delivered');
      const after = { ...counts };
      for (let i = 0; i < 10; i++) {
        now += 1000;
        await poll();
      }
      expect(counts).toEqual({ queries: after.queries + 10, txs: after.txs });
    } finally {
      await dispatcher.stop();
      await store.close();
    }
  });

  it('the outbox polls with one read of its checkpoint when the log has nothing new, endpoints or none', async () => {
    const { driver, counts } = counted();
    const store = new SqlWebhookStore(driver);
    const log = new InMemoryEventStore();
    const outbox = new WebhookOutbox(log, store);
    try {
      for (let i = 0; i < 10; i++) expect(await outbox.catchUp()).toBe(0);
      expect(counts).toEqual({ queries: 10, txs: 0 });
      // A fight of a tenant without endpoints: its owner is recorded once, nothing is queued.
      const fightId = randomUUID();
      await log.append(
        `fight-${fightId}`,
        [
          {
            id: randomUUID(),
            type: 'FightStarted',
            data: { system: 'narateer' },
            metadata: { fightId, tenantId: 't1' },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
      expect(await outbox.catchUp()).toBe(0);
      expect(counts.txs).toBe(1);
      const after = { ...counts };
      for (let i = 0; i < 10; i++) expect(await outbox.catchUp()).toBe(0);
      expect(counts).toEqual({ queries: after.queries + 10, txs: 1 });
    } finally {
      await outbox.stop();
      await store.close();
    }
  });

  it('the outbox queues a burst in short transactions, each of at most OUTBOX_BATCH deliveries, and loses none', async () => {
    const { driver, counts } = counted();
    const store = new SqlWebhookStore(driver);
    const log = new InMemoryEventStore();
    const outbox = new WebhookOutbox(log, store);
    const sizes: number[] = [];
    const commitPage = store.commitPage.bind(store);
    store.commitPage = (expected, next, page) => (
      sizes.push(page.deliveries.length),
      commitPage(expected, next, page)
    );
    try {
      await store.insertEndpoint(endpoint('e1'));
      // A fight with 450 events, all committed before the outbox looks.
      const fights = new FightService(log);
      const actor = { name: 'gm', scope: 'all' as const, tenantId: 't1' };
      const { fightId } = await fights.create(
        { system: 'narateer', name: 'burst', dice: { mode: 'manual' } },
        actor,
      );
      for (let i = 1; i < 450; i++)
        await fights.execute(fightId, { type: 'AddNote', text: `note ${i}` }, actor);
      expect(await outbox.catchUp()).toBe(450);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(OUTBOX_BATCH.deliveries);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(450);
      expect(counts.txs).toBe(sizes.length);
      const sent: number[] = [];
      for (
        let batch = await store.claimDue(Date.now() + 1000, 16, 'me', Date.now() + 9000);
        batch.length;
        batch = await store.claimDue(Date.now() + 1000, 16, 'me', Date.now() + 9000)
      ) {
        for (const d of batch) {
          sent.push(d.seq);
          await store.recordAttempt(
            'me',
            {
              deliveryId: d.id,
              endpointId: 'e1',
              attemptNo: 1,
              attemptedAt: 1,
              status: 200,
              latencyMs: 1,
              responseExcerpt: '',
              error: null,
            },
            { status: 'delivered', nextAttemptAt: 1, lastStatus: 200, lastError: null, deliveredAt: 1 },
            { kind: 'success' },
          );
        }
      }
      expect(sent).toEqual(Array.from({ length: 450 }, (_, i) => i + 1));
    } finally {
      await outbox.stop();
      await store.close();
    }
  });
});

describe('webhook dispatcher, deliveries queued while an endpoint is at its cap', () => {
  const now = 1_000_000;
  let store: WebhookStore;
  let claims: number;
  let sent: string[];
  let dispatcher: WebhookDispatcher;
  // Endpoint A's receiver never answers: its attempts end only when the dispatcher stops.
  const sender: Sender = (url, _headers, body, options) => {
    sent.push((JSON.parse(body) as { id: string }).id);
    if (!url.endsWith('/eA')) return Promise.resolve({ status: 204, excerpt: '', latencyMs: 1 });
    return new Promise((resolve) => {
      const abort = () => resolve({ excerpt: '', latencyMs: 1, aborted: true });
      if (options.signal?.aborted) abort();
      else options.signal?.addEventListener('abort', abort, { once: true });
    });
  };
  const queue = (endpointId: string, fightId: string) => {
    const id = `msg_${endpointId}_${fightId}`;
    return store.insertDelivery({
      id,
      endpointId,
      tenantId: 't1',
      fightId,
      seq: 1,
      eventType: 'E',
      payload: JSON.stringify({ id }),
      createdAt: now,
    });
  };
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 2));
  };

  beforeEach(async () => {
    const inner = new SqlWebhookStore(new SqliteDriver(':memory:', 'memory'));
    claims = 0;
    sent = [];
    store = Object.assign(Object.create(inner) as WebhookStore, {
      claimDue: (...args: Parameters<WebhookStore['claimDue']>) => {
        claims++;
        return inner.claimDue(...args);
      },
    });
    await store.insertEndpoint(endpoint('eA'));
    await store.insertEndpoint(endpoint('eB'));
    dispatcher = new WebhookDispatcher(store, config, sender, () => now);
  });
  afterEach(async () => {
    await dispatcher.stop();
    await store.close();
  });

  it('with no endpoint at its cap, a delivery queued is claimed at once', async () => {
    dispatcher.cappedClaimMs = 3_600_000;
    await queue('eB', 'f0');
    dispatcher.queued();
    for (let i = 0; i < 500 && !sent.includes('msg_eB_f0'); i++) await turns(1);
    expect(sent).toEqual(['msg_eB_f0']);
  });

  it('with an endpoint at its cap, pages queued make no claim each; the next claim takes what another endpoint queued', async () => {
    dispatcher.cappedClaimMs = 3_600_000;
    for (let f = 0; f < 2 * ENDPOINT_CONCURRENCY; f++) await queue('eA', `f${f}`);
    dispatcher.kick();
    for (let i = 0; i < 500 && sent.length < ENDPOINT_CONCURRENCY; i++) await turns(1);
    await turns(10);
    expect(sent).toHaveLength(ENDPOINT_CONCURRENCY);
    const before = claims;
    // A claim for each page queued would find A's deliveries held back each time.
    for (let i = 0; i < 20; i++) {
      dispatcher.queued();
      await turns(1);
    }
    expect(claims).toBe(before);
    await queue('eB', 'f0');
    dispatcher.kick();
    for (let i = 0; i < 500 && !sent.includes('msg_eB_f0'); i++) await turns(1);
    expect(sent.filter((id) => id.startsWith('msg_eA_'))).toHaveLength(ENDPOINT_CONCURRENCY);
    expect(sent).toContain('msg_eB_f0');
  });

  it('with an endpoint at its cap, a delivery queued for another is claimed after cappedClaimMs without a kick', async () => {
    dispatcher.cappedClaimMs = 30;
    for (let f = 0; f < ENDPOINT_CONCURRENCY + 1; f++) await queue('eA', `f${f}`);
    dispatcher.kick();
    for (let i = 0; i < 500 && sent.length < ENDPOINT_CONCURRENCY; i++) await turns(1);
    await turns(10);
    await queue('eB', 'f0');
    dispatcher.queued();
    for (let i = 0; i < 500 && !sent.includes('msg_eB_f0'); i++) await turns(1);
    expect(sent).toContain('msg_eB_f0');
  });
});
