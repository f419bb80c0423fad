import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENDPOINT_CONCURRENCY, TENANT_CONCURRENCY } from '../../src/config';
import { WebhookPruner } from '../../src/pruner';
import { PostgresDriver } from '../../src/store/postgres-driver';
import Database from 'better-sqlite3';
import {
  ANY_DUE_SQL,
  CLAIM_ENDPOINTS_SQL,
  CLAIM_MANY_SQL,
  ENDPOINT_DUE_SQL,
  LOWEST_PENDING_MANY_SQL,
  LOWEST_PENDING_SQL,
  SqlWebhookStore,
  TENANT_IN_FLIGHT_SQL,
} from '../../src/store/sql-store';
import { SqliteDriver } from '../../src/store/sqlite-driver';
import { DeliveryRow, NewDelivery, WebhookStore } from '../../src/store/types';
import { endpointRow as endpoint } from '../helpers';

const delivery = (endpointId: string, fightId: string | null, seq: number): NewDelivery => ({
  id: `msg_${endpointId}_${fightId}_${seq}`,
  endpointId,
  tenantId: 't1',
  fightId,
  seq,
  eventType: 'E',
  payload: `{"seq":${seq}}`,
  createdAt: seq,
});
const ok = {
  status: 'delivered' as const,
  nextAttemptAt: 0,
  lastStatus: 200,
  lastError: null,
  deliveredAt: 10,
};
const attempt = (d: NewDelivery, n = 1) => ({
  deliveryId: d.id,
  endpointId: d.endpointId,
  attemptNo: n,
  attemptedAt: 10,
  status: 200,
  latencyMs: 3,
  responseExcerpt: 'ok',
  error: null,
});
const DAY = 86_400_000;

/** Queues `d` and attempts it once: 'delivered' or 'failed' (for good) finish it at `at`, 'retrying' leaves it pending with an attempt logged. */
async function settle(
  store: WebhookStore,
  d: NewDelivery,
  how: 'delivered' | 'failed' | 'retrying',
  at: number,
): Promise<void> {
  await store.insertDelivery(d);
  const [claimed] = await store.claimDue(at, 1, 'me', at + 1000);
  expect(claimed?.id).toBe(d.id);
  const status = how === 'delivered' ? 'delivered' : how === 'failed' ? 'failed' : 'pending';
  const outcome = {
    status,
    nextAttemptAt: at,
    lastStatus: how === 'delivered' ? 200 : 500,
    lastError: how === 'delivered' ? null : 'HTTP 500',
    deliveredAt: how === 'delivered' ? at : null,
  } as const;
  await store.recordAttempt(
    'me',
    { ...attempt(d), attemptedAt: at, status: outcome.lastStatus },
    outcome,
    how === 'delivered'
      ? { kind: 'success' }
      : { kind: 'failure', now: at, disableIfFailingSince: -1, reason: 'x' },
  );
}

/** `fights × perFight` deliveries on `endpointId` as the outbox queues them: in log order (every fight's seq 1, then every fight's seq 2, …). */
function backlog(endpointId: string, fights: number, perFight: number): NewDelivery[] {
  const out: NewDelivery[] = [];
  for (let seq = 1; seq <= perFight; seq++)
    for (let f = 0; f < fights; f++)
      out.push({ ...delivery(endpointId, `f${f}`, seq), createdAt: out.length });
  return out;
}

async function queueAll(store: WebhookStore, ds: NewDelivery[]): Promise<void> {
  // Checkpoint '' reads back as none: the pages only insert.
  for (let i = 0; i < ds.length; i += 500)
    expect(
      await store.commitPage(undefined, '', { fightTenants: [], deliveries: ds.slice(i, i + 500) }),
    ).toBe(true);
}

const success = (store: WebhookStore, d: DeliveryRow) =>
  store.recordAttempt('me', attempt(d, d.attempts + 1), ok, { kind: 'success' });

function storeContract(name: string, make: () => Promise<WebhookStore>) {
  describe(`webhook store: ${name}`, () => {
    let store: WebhookStore;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(() => store.close());

    // The delivery log's keyset pages (the integration conventions review): newest first by (createdAt, seq, id), ids in
    // byte order on every engine, so mixed-case ids sharing a time and a seq come in the same order everywhere.
    it('lists deliveries in keyset pages after (createdAt, seq, id): every one once, the same order on every engine', async () => {
      await store.insertEndpoint(endpoint('e1'));
      const at = (id: string, createdAt: number, seq: number): NewDelivery => ({
        ...delivery('e1', null, seq),
        id,
        createdAt,
      });
      const ds = [
        at('msg_a', 1, 1),
        at('msg_B', 2, 1),
        at('msg_b', 2, 1),
        at('msg_Z', 2, 1),
        at('msg_-', 2, 1),
        at('msg_c', 2, 2),
        at('msg_d', 3, 1),
      ];
      await store.commitPage(undefined, '', { fightTenants: [], deliveries: ds });
      const expected = ['msg_d', 'msg_c', 'msg_b', 'msg_Z', 'msg_B', 'msg_-', 'msg_a'];
      expect((await store.listDeliveries('e1', { limit: 100 })).map((d) => d.id)).toEqual(expected);
      for (const limit of [1, 2, 3]) {
        const seen: string[] = [];
        let after: { createdAt: number; seq: number; id: string } | undefined;
        for (let pages = 0; pages < 20; pages++) {
          const page = await store.listDeliveries('e1', { limit, after });
          seen.push(...page.map((d) => d.id));
          if (page.length < limit) break;
          const last = page[page.length - 1];
          after = { createdAt: last.createdAt, seq: last.seq, id: last.id };
        }
        expect(seen).toEqual(expected);
      }
    });

    it('moves the checkpoint and inserts deliveries in one step; a stale checkpoint changes nothing', async () => {
      await store.insertEndpoint(endpoint('e1'));
      expect(await store.checkpoint()).toBeUndefined();
      expect(
        await store.commitPage(undefined, 'c1', {
          fightTenants: [['f1', 't1']],
          deliveries: [delivery('e1', 'f1', 1)],
        }),
      ).toBe(true);
      expect(
        await store.commitPage(undefined, 'c2', { fightTenants: [], deliveries: [delivery('e1', 'f1', 2)] }),
      ).toBe(false);
      expect(await store.checkpoint()).toBe('c1');
      expect((await store.fightTenants(['f1', 'f9'])).get('f1')).toBe('t1');
      expect((await store.listDeliveries('e1', { limit: 10 })).map((d) => d.seq)).toEqual([1]);
      // The same webhook-id twice is one delivery.
      expect(
        await store.commitPage('c1', 'c2', { fightTenants: [], deliveries: [delivery('e1', 'f1', 1)] }),
      ).toBe(true);
      expect(await store.listDeliveries('e1', { limit: 10 })).toHaveLength(1);
    });

    it('claims only the lowest pending seq per (endpoint, fight); a failing fight does not hold back another', async () => {
      await store.insertEndpoint(endpoint('e1'));
      await store.insertEndpoint(endpoint('e2'));
      const ds = [
        delivery('e1', 'fA', 1),
        delivery('e1', 'fA', 2),
        delivery('e1', 'fB', 1),
        delivery('e1', 'fB', 2),
        delivery('e2', 'fA', 1),
        delivery('e1', null, 0),
      ];
      await store.commitPage(undefined, 'c1', { fightTenants: [], deliveries: ds });
      const first = await store.claimDue(5000, 10, 'me', 9000);
      expect(first.map((d) => d.id).sort()).toEqual([ds[0].id, ds[2].id, ds[4].id, ds[5].id].sort());
      // fA seq 1 fails and waits; fB seq 1 succeeds: fB seq 2 is due, fA seq 2 is not.
      await store.recordAttempt(
        'me',
        { ...attempt(ds[0]), status: 500 },
        {
          status: 'pending',
          nextAttemptAt: 60_000,
          lastStatus: 500,
          lastError: 'HTTP 500',
          deliveredAt: null,
        },
        { kind: 'failure', now: 5000, disableIfFailingSince: -1, reason: 'x' },
      );
      await store.recordAttempt('me', attempt(ds[2]), ok, { kind: 'success' });
      const second = await store.claimDue(6000, 10, 'me', 9000);
      expect(second.map((d) => d.id)).toEqual([ds[3].id]);
      for (const d of [ds[3], ds[4], ds[5]])
        await store.recordAttempt('me', attempt(d), ok, { kind: 'success' });
      // Once fA seq 1 is delivered, fA seq 2 comes.
      const retry = await store.claimDue(60_000, 10, 'me', 99_000);
      expect(retry.map((d) => d.id)).toEqual([ds[0].id]);
      expect(retry[0].roundAttempts).toBe(1);
      await store.recordAttempt('me', attempt(ds[0], 2), ok, { kind: 'success' });
      expect((await store.claimDue(60_001, 10, 'me', 99_000)).map((d) => d.id)).toEqual([ds[1].id]);
      expect((await store.listAttempts(ds[0].id)).map((a) => a.status)).toEqual([500, 200]);
    });

    it('the claim leases the next due delivery of each fight, in send order, with nothing pending and with many waiting behind', async () => {
      await store.insertEndpoint(endpoint('e1'));
      // One endpoint's order, with no bound on its attempts in flight (its endpoint's or its tenant's).
      const unbounded = 1000;
      expect(await store.claimDue(1_000_000, 16, 'me', 2_000_000, unbounded, unbounded)).toEqual([]);
      await queueAll(store, backlog('e1', 100, 30));
      // Only heads, oldest first: each fight's seq 1, in the order they were queued.
      const first = await store.claimDue(1_000_000, 16, 'me', 2_000_000, unbounded, unbounded);
      expect(first.map((d) => [d.fightId, d.seq])).toEqual(
        Array.from({ length: 16 }, (_, f) => [`f${f}`, 1]),
      );
      // The next claim passes over the leased heads to the next fights' heads.
      const second = await store.claimDue(1_000_000, 4, 'other', 2_000_000, unbounded, unbounded);
      expect(second.map((d) => [d.fightId, d.seq])).toEqual([16, 17, 18, 19].map((f) => [`f${f}`, 1]));
      // Delivered heads hand on to their fight's seq 2, due after every seq 1 (queued later): the order stays the log's.
      for (const d of first.slice(0, 3)) await success(store, d);
      const rest = [
        ...Array.from({ length: 80 }, (_, f) => [`f${f + 20}`, 1]),
        ['f0', 2],
        ['f1', 2],
        ['f2', 2],
      ];
      expect(
        (await store.claimDue(1_000_000, 90, 'me', 2_000_000, unbounded, unbounded)).map((d) => [
          d.fightId,
          d.seq,
        ]),
      ).toEqual(rest);
    });

    it('an endpoint with ENDPOINT_CONCURRENCY attempts in flight gets no more; another endpoint’s due deliveries are claimed past its backlog', async () => {
      await store.insertEndpoint(endpoint('eA'));
      await store.insertEndpoint(endpoint('eB', { tenantId: 't2' }));
      // eA's 32 fights were queued first, so every one of them is due before eB's delivery.
      await queueAll(store, [
        ...backlog('eA', 32, 1),
        { ...delivery('eB', 'f0', 1), tenantId: 't2', createdAt: 100 },
      ]);
      const first = await store.claimDue(1000, 16, 'me', 9000);
      expect(first.map((d) => [d.endpointId, d.fightId])).toEqual([
        ...Array.from({ length: ENDPOINT_CONCURRENCY }, (_, f) => ['eA', `f${f}`]),
        ['eB', 'f0'],
      ]);
      // eA's attempts hang: while they hold their leases, nothing more of eA is claimed, on this or another instance.
      expect(await store.claimDue(2000, 16, 'me', 9000)).toEqual([]);
      expect(await store.claimDue(2000, 16, 'other', 9000)).toEqual([]);
      // One of them ends: one slot, taken by eA's next fight in send order.
      await success(store, first[0]);
      expect((await store.claimDue(3000, 16, 'me', 9000)).map((d) => d.fightId)).toEqual([
        `f${ENDPOINT_CONCURRENCY}`,
      ]);
      await success(store, first[ENDPOINT_CONCURRENCY]);
      // Leases that ran out (a crashed instance) are no longer in flight: their deliveries and the next come back.
      expect((await store.claimDue(9001, 16, 'other', 20_000)).map((d) => d.fightId)).toEqual(
        Array.from({ length: ENDPOINT_CONCURRENCY }, (_, f) => `f${f + 1}`),
      );
      // A caller may ask for a different bound.
      await store.releaseLeases('other');
      expect(await store.claimDue(9002, 16, 'me', 20_000, 2)).toHaveLength(2);
    });

    it('a tenant with TENANT_CONCURRENCY attempts in flight over its endpoints gets no more; another tenant’s due delivery is claimed past its backlog', async () => {
      // t1's five endpoints (five fights each) were queued first, endpoint after endpoint: every one of their deliveries
      // is due before t2's one.
      const eps = Array.from({ length: 5 }, (_, i) => `eA${i}`);
      for (const e of eps) await store.insertEndpoint(endpoint(e));
      await store.insertEndpoint(endpoint('eB', { tenantId: 't2' }));
      await queueAll(store, [
        ...eps.flatMap((e) => backlog(e, 5, 1)).map((d, i) => ({ ...d, createdAt: i })),
        { ...delivery('eB', 'f0', 1), tenantId: 't2', createdAt: 100 },
      ]);
      const first = await store.claimDue(1000, 16, 'me', 9000);
      // In send order: eA0's first ENDPOINT_CONCURRENCY fights (its fifth waits on the endpoint's cap), then eA1's,
      // until t1 has TENANT_CONCURRENCY in flight; then t2's.
      const t1 = [0, 1].flatMap((e) =>
        Array.from({ length: ENDPOINT_CONCURRENCY }, (_, f) => [`eA${e}`, `f${f}`]),
      );
      expect(t1).toHaveLength(TENANT_CONCURRENCY);
      expect(first.map((d) => [d.endpointId, d.fightId])).toEqual([...t1, ['eB', 'f0']]);
      // t1's attempts hang: while they hold their leases, nothing more of t1 is claimed, on this or another instance.
      expect(await store.claimDue(2000, 16, 'me', 9000)).toEqual([]);
      expect(await store.claimDue(2000, 16, 'other', 9000)).toEqual([]);
      // One of them ends: one slot for t1, taken in send order by eA0's fifth fight (before eA2's first).
      await success(store, first[0]);
      expect((await store.claimDue(3000, 16, 'other', 9000)).map((d) => [d.endpointId, d.fightId])).toEqual([
        ['eA0', `f${ENDPOINT_CONCURRENCY}`],
      ]);
      // A caller may ask for a different bound: 4 more of t1, eA2's (eA0 and eA1 are at their endpoint cap).
      expect(
        (await store.claimDue(4000, 16, 'me', 9000, ENDPOINT_CONCURRENCY, TENANT_CONCURRENCY + 4)).map(
          (d) => [d.endpointId, d.fightId],
        ),
      ).toEqual(Array.from({ length: 4 }, (_, f) => ['eA2', `f${f}`]));
      // Leases that ran out (a crashed instance) are no longer in flight: TENANT_CONCURRENCY of t1 come back, and t2's.
      const later = await store.claimDue(9001, 16, 'other', 20_000);
      expect(later.filter((d) => d.tenantId === 't1')).toHaveLength(TENANT_CONCURRENCY);
      expect(later.filter((d) => d.tenantId === 't2').map((d) => d.endpointId)).toEqual(['eB']);
    });

    it('a backlog drains to the end: never two of one fight at once, each fight in seq order, every delivery once', async () => {
      await store.insertEndpoint(endpoint('e1'));
      const fights = 8;
      const perFight = 10;
      await queueAll(store, backlog('e1', fights, perFight));
      const sent = new Map<string, number[]>();
      for (;;) {
        const batch = await store.claimDue(1_000_000, 7, 'me', 2_000_000);
        if (batch.length === 0) break;
        expect(new Set(batch.map((d) => d.fightId)).size).toBe(batch.length);
        for (const d of batch) {
          sent.set(d.fightId!, [...(sent.get(d.fightId!) ?? []), d.seq]);
          expect(await success(store, d)).toBe(true);
        }
      }
      expect(sent.size).toBe(fights);
      for (const seqs of sent.values())
        expect(seqs).toEqual(Array.from({ length: perFight }, (_, i) => i + 1));
      expect((await store.stats()).deliveries).toEqual({ delivered: fights * perFight });
    });

    it('a failing head holds back its fight in a large backlog while the other fights drain past it', async () => {
      await store.insertEndpoint(endpoint('e1'));
      await queueAll(store, backlog('e1', 6, 10));
      const [f0] = await store.claimDue(1000, 1, 'me', 2000);
      expect([f0.fightId, f0.seq]).toEqual(['f0', 1]);
      await store.recordAttempt(
        'me',
        { ...attempt(f0), status: 500 },
        {
          status: 'pending',
          nextAttemptAt: 90_000,
          lastStatus: 500,
          lastError: 'HTTP 500',
          deliveredAt: null,
        },
        { kind: 'failure', now: 1000, disableIfFailingSince: -1, reason: 'x' },
      );
      let others = 0;
      for (
        let batch = await store.claimDue(1000, 16, 'me', 2000);
        batch.length;
        batch = await store.claimDue(1000, 16, 'me', 2000)
      ) {
        expect(batch.some((d) => d.fightId === 'f0')).toBe(false);
        for (const d of batch) await success(store, d);
        others += batch.length;
      }
      expect(others).toBe(5 * 10);
      // Its retry comes due: f0 goes on from seq 1.
      const again = await store.claimDue(90_000, 16, 'me', 99_000);
      expect(again.map((d) => [d.fightId, d.seq])).toEqual([['f0', 1]]);
    });

    it('a redelivered earlier event is its fight’s head again: the later pending ones wait for it', async () => {
      await store.insertEndpoint(endpoint('e1'));
      const [s1, s2, s3] = [1, 2, 3].map((seq) => delivery('e1', 'fA', seq));
      await queueAll(store, [s1, s2, s3]);
      const [one] = await store.claimDue(10, 5, 'me', 100);
      await success(store, one);
      const [two] = await store.claimDue(10, 5, 'me', 100);
      expect(two.id).toBe(s2.id);
      await store.recordAttempt(
        'me',
        { ...attempt(two), status: 500 },
        { status: 'pending', nextAttemptAt: 50, lastStatus: 500, lastError: 'HTTP 500', deliveredAt: null },
        { kind: 'failure', now: 10, disableIfFailingSince: -1, reason: 'x' },
      );
      expect(await store.requeue('e1', { deliveryId: s1.id }, 20)).toBe(1);
      expect((await store.claimDue(60, 5, 'me', 100)).map((d) => d.id)).toEqual([s1.id]);
      await success(store, (await store.getDelivery(s1.id))!);
      expect((await store.claimDue(61, 5, 'me', 100)).map((d) => d.id)).toEqual([s2.id]);
      await success(store, (await store.getDelivery(s2.id))!);
      expect((await store.claimDue(62, 5, 'me', 100)).map((d) => d.id)).toEqual([s3.id]);
      // Everything since the start again: seq 1, 2, 3 in order.
      await success(store, (await store.getDelivery(s3.id))!);
      expect(await store.requeue('e1', { since: 0 }, 70)).toBe(3);
      const order: number[] = [];
      for (
        let batch = await store.claimDue(80, 5, 'me', 100);
        batch.length;
        batch = await store.claimDue(80, 5, 'me', 100)
      ) {
        expect(batch).toHaveLength(1);
        order.push(batch[0].seq);
        await success(store, batch[0]);
      }
      expect(order).toEqual([1, 2, 3]);
    });

    it('a lease keeps a delivery from a second instance until it runs out; the late first instance’s result is dropped', async () => {
      await store.insertEndpoint(endpoint('e1'));
      const d = delivery('e1', 'f1', 1);
      await store.insertDelivery(d);
      expect(await store.claimDue(100, 5, 'a', 1000)).toHaveLength(1);
      expect(await store.claimDue(500, 5, 'b', 2000)).toHaveLength(0);
      expect(await store.claimDue(1001, 5, 'b', 2000)).toHaveLength(1);
      expect(await store.recordAttempt('a', attempt(d), ok, { kind: 'success' })).toBe(false);
      expect(await store.recordAttempt('b', attempt(d), ok, { kind: 'success' })).toBe(true);
      expect((await store.getDelivery(d.id))!.status).toBe('delivered');
    });

    it('released leases are claimable at once (a clean stop)', async () => {
      await store.insertEndpoint(endpoint('e1'));
      await store.insertDelivery(delivery('e1', 'f1', 1));
      await store.claimDue(100, 5, 'a', 10_000);
      await store.releaseLeases('a');
      expect(await store.claimDue(101, 5, 'b', 10_000)).toHaveLength(1);
    });

    it('a disabled endpoint’s deliveries wait; failing past the limit disables the endpoint and says why', async () => {
      await store.insertEndpoint(endpoint('e1'));
      const d = delivery('e1', 'f1', 1);
      await store.insertDelivery(d);
      await store.claimDue(10, 5, 'me', 100);
      const failed = {
        status: 'pending' as const,
        nextAttemptAt: 0,
        lastStatus: 503,
        lastError: 'HTTP 503',
        deliveredAt: null,
      };
      await store.recordAttempt('me', { ...attempt(d), status: 503 }, failed, {
        kind: 'failure',
        now: 1000,
        disableIfFailingSince: 1000 - 5000,
        reason: 'failing',
      });
      expect(await store.getEndpoint('e1')).toMatchObject({ enabled: true, failingSince: 1000 });
      await store.claimDue(7000, 5, 'me', 8000);
      await store.recordAttempt('me', { ...attempt(d, 2), status: 503 }, failed, {
        kind: 'failure',
        now: 7000,
        disableIfFailingSince: 7000 - 5000,
        reason: 'every delivery failed',
      });
      expect(await store.getEndpoint('e1')).toMatchObject({
        enabled: false,
        disabledReason: 'every delivery failed',
        failingSince: 1000,
      });
      expect(await store.claimDue(9000, 5, 'me', 10_000)).toHaveLength(0);
      await store.updateEndpoint('e1', { enabled: true, disabledReason: null, failingSince: null });
      expect(await store.claimDue(9000, 5, 'me', 10_000)).toHaveLength(1);
    });

    it('requeues one delivery or every delivery since a time, with a fresh schedule', async () => {
      await store.insertEndpoint(endpoint('e1'));
      const ds = [1, 2, 3].map((s) => delivery('e1', `f${s}`, s));
      for (const d of ds) await store.insertDelivery(d);
      for (const d of await store.claimDue(10, 10, 'me', 100))
        await store.recordAttempt('me', attempt(d), ok, { kind: 'success' });
      expect(await store.requeue('e1', { deliveryId: ds[0].id }, 50)).toBe(1);
      expect(await store.requeue('e1', { since: 2 }, 50)).toBe(2);
      const again = await store.claimDue(50, 10, 'me', 100);
      expect(again.map((d) => [d.seq, d.roundAttempts, d.attempts]).sort()).toEqual([
        [1, 0, 1],
        [2, 0, 1],
        [3, 0, 1],
      ]);
    });

    it('retention deletes finished deliveries that finished before the cutoff, with their attempts; recent and pending ones stay, however old', async () => {
      await store.insertEndpoint(endpoint('e1'));
      const [oldDelivered, oldFailed, recent, atCutoff] = [
        delivery('e1', 'f1', 1),
        delivery('e1', 'f2', 1),
        delivery('e1', 'f3', 1),
        delivery('e1', 'f4', 1),
      ];
      // A delivery created long ago but finished recently (a redelivery) counts from when it finished.
      await settle(store, oldDelivered, 'delivered', 1000);
      await settle(store, oldFailed, 'failed', 1500);
      await settle(store, recent, 'delivered', 5000);
      await settle(store, atCutoff, 'failed', 2000);
      const retrying = delivery('e1', 'f5', 1);
      await settle(store, retrying, 'retrying', 100);
      const neverTried = delivery('e1', 'f6', 1);
      await store.insertDelivery(neverTried);

      expect(await store.pruneFinished(2000, 100)).toBe(2);
      for (const d of [oldDelivered, oldFailed]) {
        expect(await store.getDelivery(d.id)).toBeUndefined();
        expect(await store.listAttempts(d.id)).toEqual([]);
      }
      for (const d of [recent, atCutoff, retrying]) expect(await store.listAttempts(d.id)).toHaveLength(1);
      expect((await store.getDelivery(retrying.id))!.status).toBe('pending');
      expect((await store.getDelivery(neverTried.id))!.status).toBe('pending');
      expect((await store.stats()).deliveries).toEqual({ delivered: 1, failed: 1, pending: 2 });
      // Pending deliveries are kept at any cutoff.
      expect(await store.pruneFinished(Number.MAX_SAFE_INTEGER, 100)).toBe(2);
      expect((await store.listDeliveries('e1', { limit: 10 })).map((d) => d.id).sort()).toEqual(
        [retrying.id, neverTried.id].sort(),
      );
    });

    it('retention cannot unblock a fight: a pending delivery still holds back the later ones once the delivered earlier ones are gone', async () => {
      await store.insertEndpoint(endpoint('e1'));
      const [s1, s2, s3] = [1, 2, 3].map((seq) => delivery('e1', 'fA', seq));
      await settle(store, s1, 'delivered', 10);
      await settle(store, s2, 'retrying', 20);
      await store.insertDelivery(s3);
      expect(await store.pruneFinished(10 * DAY, 100)).toBe(1);
      expect((await store.claimDue(10 * DAY, 10, 'me', 11 * DAY)).map((d) => d.id)).toEqual([s2.id]);
    });

    it('retention goes in batches: a batch stops at the limit, oldest first, and the next one continues', async () => {
      await store.insertEndpoint(endpoint('e1'));
      const ds = [1, 2, 3, 4, 5].map((f) => delivery('e1', `f${f}`, 1));
      for (const [i, d] of ds.entries())
        await settle(store, d, i % 2 ? 'failed' : 'delivered', 100 * (i + 1));
      expect(await store.pruneFinished(DAY, 2)).toBe(2);
      expect(await store.getDelivery(ds[0].id)).toBeUndefined();
      expect(await store.getDelivery(ds[1].id)).toBeUndefined();
      expect(await store.getDelivery(ds[2].id)).toBeDefined();
      expect(await store.pruneFinished(DAY, 2)).toBe(2);
      expect(await store.pruneFinished(DAY, 2)).toBe(1);
      expect(await store.pruneFinished(DAY, 2)).toBe(0);
      expect(await store.listDeliveries('e1', { limit: 10 })).toEqual([]);
    });

    it('the pruner counts the retention in days back from its clock, batch after batch; retention 0 deletes nothing', async () => {
      await store.insertEndpoint(endpoint('e1'));
      const now = 100 * DAY;
      const old = [1, 2, 3].map((f) => delivery('e1', `old${f}`, 1));
      for (const d of old) await settle(store, d, 'delivered', now - 31 * DAY);
      const young = delivery('e1', 'young', 1);
      await settle(store, young, 'delivered', now - 29 * DAY);
      const ancientPending = delivery('e1', 'pending', 1);
      await store.insertDelivery(ancientPending);

      expect(
        await new WebhookPruner(store, 0, () => now, undefined, {
          firstAfterMs: 0,
          everyMs: 1,
          batchSize: 2,
        }).prune(),
      ).toBe(0);
      expect(await store.listDeliveries('e1', { limit: 10 })).toHaveLength(5);
      const batches: number[] = [];
      const pruner = new WebhookPruner(store, 30, () => now, undefined, {
        firstAfterMs: 0,
        everyMs: 1,
        batchSize: 2,
      });
      pruner.onPruned.add((n) => batches.push(n));
      expect(await pruner.prune()).toBe(3);
      expect(batches).toEqual([2, 1]);
      expect((await store.listDeliveries('e1', { limit: 10 })).map((d) => d.id).sort()).toEqual(
        [young.id, ancientPending.id].sort(),
      );
    });

    it('replaces a secret only while it is the one expected: of two rotations built on one secret, the second changes nothing', async () => {
      await store.insertEndpoint(endpoint('e1'));
      const previousSecrets = [
        { secret: 'whsec_AAAA', until: 700 },
        { secret: 'whsec_OLD0', until: 600 },
      ];
      expect(
        await store.replaceSecret('e1', 'whsec_AAAA', {
          secret: 'whsec_BBBB',
          previousSecrets,
          updatedAt: 5,
        }),
      ).toBe(true);
      expect(
        await store.replaceSecret('e1', 'whsec_AAAA', {
          secret: 'whsec_CCCC',
          previousSecrets: [],
          updatedAt: 6,
        }),
      ).toBe(false);
      expect(await store.getEndpoint('e1')).toMatchObject({
        secret: 'whsec_BBBB',
        previousSecrets,
        updatedAt: 5,
      });
      expect(
        await store.replaceSecret('gone', 'whsec_BBBB', { secret: 'x', previousSecrets: [], updatedAt: 7 }),
      ).toBe(false);
    });

    it('inserts an endpoint only while its tenant has fewer than the limit; another tenant and a deletion make room', async () => {
      for (const id of ['e1', 'e2']) expect(await store.insertEndpoint(endpoint(id), 2)).toBe(true);
      expect(await store.insertEndpoint(endpoint('e3'), 2)).toBe(false);
      expect(await store.getEndpoint('e3')).toBeUndefined();
      expect(await store.insertEndpoint(endpoint('e4', { tenantId: 't2' }), 2)).toBe(true);
      await store.deleteEndpoint('e1');
      expect(await store.insertEndpoint(endpoint('e3'), 2)).toBe(true);
      expect((await store.listEndpoints('t1')).map((e) => e.id).sort()).toEqual(['e2', 'e3']);
    });

    it('keeps endpoints: patch, list per tenant, delete with its deliveries', async () => {
      await store.insertEndpoint(endpoint('e1', { eventTypes: ['WoundsApplied'] }));
      await store.insertEndpoint(endpoint('e2', { tenantId: 't2' }));
      await store.updateEndpoint('e1', { fightId: 'f1', description: 'overlay' });
      expect(await store.getEndpoint('e1')).toMatchObject({
        fightId: 'f1',
        description: 'overlay',
        eventTypes: ['WoundsApplied'],
        previousSecrets: [],
      });
      expect((await store.listEndpoints('t1')).map((e) => e.id)).toEqual(['e1']);
      await store.insertDelivery(delivery('e1', 'f1', 1));
      await store.deleteEndpoint('e1');
      expect(await store.getEndpoint('e1')).toBeUndefined();
      expect(await store.getDelivery(delivery('e1', 'f1', 1).id)).toBeUndefined();
    });
  });
}

storeContract('memory', async () => new SqlWebhookStore(new SqliteDriver(':memory:', 'memory')));

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
storeContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crs-webhooks-'));
  dirs.push(dir);
  return new SqlWebhookStore(new SqliteDriver(join(dir, 'webhooks.sqlite')));
});

/**
 * A backlog big enough for the planners to see: 400 fights × 20 on an enabled endpoint, 100 × 5 on a disabled one,
 * and 50 endpoints with nothing pending.
 */
async function plannedBacklog(store: WebhookStore): Promise<void> {
  await store.insertEndpoint(endpoint('e1'));
  await store.insertEndpoint(endpoint('e2', { enabled: false }));
  for (let i = 0; i < 50; i++) await store.insertEndpoint(endpoint(`idle${i}`));
  await queueAll(store, [...backlog('e1', 400, 20), ...backlog('e2', 100, 5)]);
}

/**
 * 50,000 deliveries pending on eA (5,000 fights × 10), whose receiver hangs: ENDPOINT_CONCURRENCY of its heads are
 * leased and never answered. Then eB's one delivery is queued, due after every one of eA's.
 */
async function hangingBacklog(store: WebhookStore): Promise<void> {
  await store.insertEndpoint(endpoint('eA'));
  await store.insertEndpoint(endpoint('eB', { tenantId: 't2' }));
  await queueAll(store, backlog('eA', 5000, 10));
  expect(await store.claimDue(1_000_000, 16, 'hung', 2_000_000)).toHaveLength(ENDPOINT_CONCURRENCY);
  await store.insertDelivery({ ...delivery('eB', 'f0', 1), tenantId: 't2', createdAt: 60_000 });
}

/** The tables as they were before the head mark (no `head` column, the old due index). */
const SCHEMA_BEFORE_HEADS = [
  `CREATE TABLE webhook_endpoints (id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, url TEXT NOT NULL, description TEXT NOT NULL, event_types TEXT NOT NULL, fight_id TEXT, enabled INTEGER NOT NULL, secret TEXT NOT NULL, previous_secret TEXT, previous_secret_until BIGINT, disabled_reason TEXT, failing_since BIGINT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)`,
  `CREATE TABLE webhook_checkpoint (name TEXT PRIMARY KEY, checkpoint TEXT NOT NULL)`,
  `CREATE TABLE webhook_deliveries (id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, tenant_id TEXT NOT NULL, fight_id TEXT, seq INTEGER NOT NULL, event_type TEXT NOT NULL, payload TEXT NOT NULL, created_at BIGINT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL, round_attempts INTEGER NOT NULL, next_attempt_at BIGINT NOT NULL, locked_until BIGINT, locked_by TEXT, last_status INTEGER, last_error TEXT, delivered_at BIGINT)`,
  `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
  `INSERT INTO webhook_endpoints VALUES ('e1', 't1', 'http://127.0.0.1:1/hook', '', '[]', NULL, 1, 'whsec_AAAA', 'whsec_OLD0', 500, NULL, NULL, 0, 0)`,
  // fA: 1, 2, 3 pending; fB: 1 delivered, 2 and 3 pending; a pending ping.
  ...[
    ['fA', 1, 'pending'],
    ['fA', 2, 'pending'],
    ['fA', 3, 'pending'],
    ['fB', 1, 'delivered'],
    ['fB', 2, 'pending'],
    ['fB', 3, 'pending'],
    [null, 0, 'pending'],
  ].map(
    ([fight, seq, status]) =>
      `INSERT INTO webhook_deliveries VALUES ('msg_e1_${fight}_${seq}', 'e1', 't1', ${fight === null ? 'NULL' : `'${fight}'`}, ${seq}, 'E', '{}', ${seq}, '${status}', 0, 0, ${seq}, NULL, NULL, NULL, NULL, NULL)`,
  ),
];

/** Opened by this version, a database from before the head mark claims what it claimed: each fight's lowest pending seq, and the ping; it reads its endpoint's previous secret. */
async function claimsAfterUpgrade(store: WebhookStore): Promise<void> {
  expect((await store.claimDue(100, 10, 'me', 1000)).map((d) => d.id).sort()).toEqual([
    'msg_e1_fA_1',
    'msg_e1_fB_2',
    'msg_e1_null_0',
  ]);
  await success(store, (await store.getDelivery('msg_e1_fB_2'))!);
  expect((await store.claimDue(100, 10, 'me', 1000)).map((d) => d.id)).toEqual(['msg_e1_fB_3']);
  // A rotation from before the list of previous secrets: its one previous secret still signs until its overlap ends.
  expect((await store.getEndpoint('e1'))?.previousSecrets).toEqual([{ secret: 'whsec_OLD0', until: 500 }]);
}

describe('claim plan: sqlite', () => {
  it('EXPLAIN QUERY PLAN: the claim searches the endpoints with a pending head and then each one’s due heads, in send order (no scan of the deliveries, no temp b-tree), before and after ANALYZE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-webhooks-plan-'));
    dirs.push(dir);
    const driver = new SqliteDriver(join(dir, 'webhooks.sqlite'));
    const store = new SqlWebhookStore(driver);
    const plan = async (sql: string, params: unknown[]) =>
      (await driver.query<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)).map((r) => r.detail);
    try {
      await plannedBacklog(store);
      for (const analyzed of [false, true]) {
        if (analyzed) await driver.run('ANALYZE');
        expect(await plan(ANY_DUE_SQL, [1_000_000])).toEqual([
          'SEARCH webhook_deliveries USING COVERING INDEX webhook_deliveries_heads_due (next_attempt_at<?)',
        ]);
        const endpoints = await plan(CLAIM_ENDPOINTS_SQL, [1_000_000]);
        expect(endpoints).toEqual(
          expect.arrayContaining([
            'SEARCH webhook_deliveries USING COVERING INDEX webhook_deliveries_heads_endpoint (endpoint_id>?)',
            'SEARCH e USING INDEX sqlite_autoindex_webhook_endpoints_1 (id=?)',
            'SEARCH l USING COVERING INDEX webhook_deliveries_leased (endpoint_id=? AND locked_until>?)',
          ]),
        );
        expect(endpoints.join('\n')).not.toMatch(/TEMP B-TREE|SCAN (webhook_deliveries|e|l)\b/);
        expect(await plan(ENDPOINT_DUE_SQL, [1_000_000, 'e1', ENDPOINT_CONCURRENCY])).toEqual([
          'SEARCH d USING INDEX webhook_deliveries_heads_endpoint (endpoint_id=? AND next_attempt_at<?)',
        ]);
        // A tenant's attempts in flight: a search of its leases alone.
        expect(await plan(TENANT_IN_FLIGHT_SQL, [1_000_000, 't1'])).toEqual([
          'SEARCH l USING COVERING INDEX webhook_deliveries_leased_tenant (tenant_id=? AND locked_until>?)',
        ]);
        // Finding a fight's next head after a delivery: one search of the order index, no sort.
        const lowest = await plan(LOWEST_PENDING_SQL, ['e1', 'f1']);
        expect(lowest).toEqual([
          'SEARCH webhook_deliveries USING INDEX webhook_deliveries_order (endpoint_id=? AND fight_id=?)',
        ]);
      }
    } finally {
      await store.close();
    }
  });

  it('50,000 pending on an endpoint whose receiver hangs: the claim leases the other endpoint’s delivery, and the hanging one’s next as a lease runs out', async () => {
    const store = new SqlWebhookStore(new SqliteDriver(':memory:', 'memory'));
    try {
      await hangingBacklog(store);
      expect((await store.claimDue(1_000_000, 16, 'me', 2_000_000)).map((d) => d.id)).toEqual([
        delivery('eB', 'f0', 1).id,
      ]);
      expect(await store.claimDue(1_000_000, 16, 'me', 2_000_000)).toEqual([]);
      await store.releaseLeases('hung', [delivery('eA', 'f0', 1).id]);
      expect((await store.claimDue(1_000_000, 16, 'me', 2_000_000)).map((d) => d.id)).toEqual([
        delivery('eA', 'f0', 1).id,
      ]);
    } finally {
      await store.close();
    }
  });
});

it('sqlite: a database from before the head mark gets the column and its heads marked once, on open', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crs-webhooks-upgrade-'));
  dirs.push(dir);
  const file = join(dir, 'webhooks.sqlite');
  const old = new Database(file);
  for (const statement of SCHEMA_BEFORE_HEADS) old.exec(statement);
  old.close();
  const store = new SqlWebhookStore(new SqliteDriver(file));
  try {
    await claimsAfterUpgrade(store);
  } finally {
    await store.close();
  }
  // Opened again, the marking does not run again (it reads every pending delivery): a head unmarked by hand stays so.
  const reopened = new Database(file);
  reopened.exec(`UPDATE webhook_deliveries SET head = 0 WHERE id = 'msg_e1_fA_1'`);
  reopened.close();
  const again = new SqlWebhookStore(new SqliteDriver(file));
  try {
    // The first session's leases ran out at 1000: fA's head would be back had the marking run again.
    expect((await again.claimDue(2000, 10, 'me2', 3000)).map((d) => d.id).sort()).toEqual([
      'msg_e1_fB_3',
      'msg_e1_null_0',
    ]);
  } finally {
    await again.close();
  }
});

const PG_URL = process.env.EVENT_STORE_PG_URL;
if (PG_URL) {
  const schemas: string[] = [];
  storeContract('postgres', async () => {
    const schema = `wh_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    return new SqlWebhookStore(new PostgresDriver(PG_URL, schema));
  });

  // A database whose own collation is a locale's (ICU en-US: case and punctuation second): the log must still page in byte order.
  const icu = { url: '', name: `wh_icu_${process.pid}` };
  storeContract('postgres (database collation ICU en-US)', async () => {
    if (!icu.url) {
      const { Client } = await import('pg');
      const c = new Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${icu.name}`);
      await c.query(
        `CREATE DATABASE ${icu.name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`,
      );
      await c.end();
      const url = new URL(PG_URL);
      url.pathname = `/${icu.name}`;
      icu.url = url.toString();
    }
    return new SqlWebhookStore(
      new PostgresDriver(icu.url, `wh_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`),
    );
  });
  afterAll(async () => {
    if (!icu.url) return;
    const { Client } = await import('pg');
    const c = new Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${icu.name} WITH (FORCE)`);
    await c.end();
  });

  type PlanNode = {
    'Node Type': string;
    'Index Name'?: string;
    'Relation Name'?: string;
    'Actual Rows'?: number;
    'Actual Loops'?: number;
    Plans?: PlanNode[];
  };
  const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
  const explain = async (driver: PostgresDriver, sql: string, params: unknown[], analyze = false) =>
    nodes(
      (
        await driver.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          `EXPLAIN (FORMAT JSON${analyze ? ', ANALYZE' : ''}) ${sql}`,
          params,
        )
      )[0]['QUERY PLAN'][0].Plan,
    );
  const indexScans = (plan: PlanNode[], index: string) =>
    plan.filter((n) => n['Node Type'].startsWith('Index') && n['Index Name'] === index);
  /** Index entries an executed plan read from the deliveries (every scan's rows, over all its loops). */
  const deliveryRowsRead = (plan: PlanNode[]) =>
    plan
      .filter(
        (n) =>
          n['Index Name']?.startsWith('webhook_deliveries') || n['Relation Name'] === 'webhook_deliveries',
      )
      .reduce((sum, n) => sum + (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1), 0);

  it('postgres: EXPLAIN shows the claim searching the endpoints with a pending head and each one’s due heads, no scan of the deliveries; it reads about what it leases', async () => {
    const schema = `wh_plan_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    const driver = new PostgresDriver(PG_URL, schema);
    const store = new SqlWebhookStore(driver);
    const claim = [1_000_000, 16, ENDPOINT_CONCURRENCY, TENANT_CONCURRENCY];
    try {
      await plannedBacklog(store);
      for (const analyzed of [false, true]) {
        if (analyzed) await driver.run('ANALYZE');
        const plan = await explain(driver, CLAIM_MANY_SQL, claim);
        expect(indexScans(plan, 'webhook_deliveries_heads_endpoint').length).toBeGreaterThan(0);
        expect(
          plan.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'webhook_deliveries'),
        ).toEqual([]);
        // A page's groups' next heads, in one statement: a search of the order index per group, no sort.
        const lowest = await explain(driver, LOWEST_PENDING_MANY_SQL, [
          ['e1', 'e1', 'e2'],
          ['f1', 'f2', 'f1'],
        ]);
        expect(indexScans(lowest, 'webhook_deliveries_order').length).toBeGreaterThan(0);
        expect(lowest.filter((n) => n['Node Type'].includes('Sort'))).toEqual([]);
      }
      // 8,500 pending, 500 of them heads (100 a disabled endpoint's): the skip scan reads an entry per endpoint
      // with a pending head, then e1's first heads; the disabled endpoint's are never read.
      expect(deliveryRowsRead(await explain(driver, CLAIM_MANY_SQL, claim, true))).toBeLessThanOrEqual(
        3 + ENDPOINT_CONCURRENCY,
      );
    } finally {
      await store.close();
    }
  });

  it('postgres: 50,000 pending on an endpoint whose receiver hangs: the claim reads a few index entries and leases the other endpoint’s delivery', async () => {
    const schema = `wh_hang_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    const driver = new PostgresDriver(PG_URL, schema);
    const store = new SqlWebhookStore(driver);
    try {
      await hangingBacklog(store);
      await driver.run('ANALYZE');
      const claim = [1_000_000, 16, ENDPOINT_CONCURRENCY, TENANT_CONCURRENCY];
      expect(deliveryRowsRead(await explain(driver, CLAIM_MANY_SQL, claim, true))).toBeLessThanOrEqual(
        3 + ENDPOINT_CONCURRENCY + 1,
      );
      expect((await store.claimDue(1_000_000, 16, 'me', 2_000_000)).map((d) => d.id)).toEqual([
        delivery('eB', 'f0', 1).id,
      ]);
    } finally {
      await store.close();
    }
  });

  it('postgres: a schema from before the head mark gets the column and its heads marked, on first use', async () => {
    const schema = `wh_up_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    const { Client } = await import('pg');
    const c = new Client({ connectionString: PG_URL });
    await c.connect();
    try {
      await c.query(`CREATE SCHEMA ${schema}`);
      await c.query(`SET search_path = ${schema}`);
      for (const statement of SCHEMA_BEFORE_HEADS) await c.query(statement);
    } finally {
      await c.end();
    }
    const store = new SqlWebhookStore(new PostgresDriver(PG_URL, schema));
    try {
      await claimsAfterUpgrade(store);
    } finally {
      await store.close();
    }
  });
  it('postgres: two instances claiming at once never both get a delivery (SKIP LOCKED)', async () => {
    const schema = `wh_race_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    const [a, b] = [
      new SqlWebhookStore(new PostgresDriver(PG_URL, schema)),
      new SqlWebhookStore(new PostgresDriver(PG_URL, schema)),
    ];
    try {
      // 10 endpoints with ENDPOINT_CONCURRENCY fights each: every delivery may be in flight at once.
      const eps = Array.from({ length: 10 }, (_, i) => `e${i}`);
      for (const e of eps) await a.insertEndpoint(endpoint(e));
      await queueAll(
        a,
        eps.flatMap((e) => backlog(e, ENDPOINT_CONCURRENCY, 1)),
      );
      // One tenant's: no bound on the tenant's attempts in flight here.
      const [x, y] = await Promise.all([
        a.claimDue(10, 40, 'a', 10_000, ENDPOINT_CONCURRENCY, 40),
        b.claimDue(10, 40, 'b', 10_000, ENDPOINT_CONCURRENCY, 40),
      ]);
      const ids = [...x, ...y].map((d) => d.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(10 * ENDPOINT_CONCURRENCY);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('postgres: instances claiming at once lease at most ENDPOINT_CONCURRENCY of one endpoint between them', async () => {
    const schema = `wh_cap_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    const stores = [0, 1, 2].map(() => new SqlWebhookStore(new PostgresDriver(PG_URL, schema)));
    try {
      await stores[0].insertEndpoint(endpoint('eA'));
      await stores[0].insertEndpoint(endpoint('eB'));
      await queueAll(stores[0], [...backlog('eA', 40, 1), ...backlog('eB', 2, 1)]);
      for (let round = 0; round < 3; round++) {
        const claimed = (await Promise.all(stores.map((s, i) => s.claimDue(10, 16, `i${i}`, 10_000)))).flat();
        expect(new Set(claimed.map((d) => d.id)).size).toBe(claimed.length);
        // The first round leases eA's first fights and both of eB's; later rounds find eA full and eB done.
        const of = (e: string) =>
          claimed
            .filter((d) => d.endpointId === e)
            .map((d) => d.fightId)
            .sort();
        expect(of('eA')).toEqual(
          round === 0 ? Array.from({ length: ENDPOINT_CONCURRENCY }, (_, f) => `f${f}`).sort() : [],
        );
        expect(of('eB')).toEqual(round === 0 ? ['f0', 'f1'] : []);
      }
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it('postgres: instances claiming at once lease at most TENANT_CONCURRENCY of one tenant between them', async () => {
    const schema = `wh_tcap_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    const stores = [0, 1, 2].map(() => new SqlWebhookStore(new PostgresDriver(PG_URL, schema)));
    try {
      // t1: five endpoints with eight fights each, queued first; t2: one endpoint with two.
      const eps = Array.from({ length: 5 }, (_, i) => `eA${i}`);
      for (const e of eps) await stores[0].insertEndpoint(endpoint(e));
      await stores[0].insertEndpoint(endpoint('eB', { tenantId: 't2' }));
      await queueAll(stores[0], [
        ...eps.flatMap((e) => backlog(e, 8, 1)).map((d, i) => ({ ...d, createdAt: i })),
        ...backlog('eB', 2, 1).map((d, i) => ({ ...d, tenantId: 't2', createdAt: 100 + i })),
      ]);
      for (let round = 0; round < 3; round++) {
        const claimed = (
          await Promise.all(stores.map((s, i) => s.claimDue(1000, 16, `i${i}`, 10_000)))
        ).flat();
        expect(new Set(claimed.map((d) => d.id)).size).toBe(claimed.length);
        // The first round leases TENANT_CONCURRENCY of t1 (at most ENDPOINT_CONCURRENCY per endpoint) and both of
        // t2's; later rounds find t1 full and t2 done.
        const t1 = claimed.filter((d) => d.tenantId === 't1');
        expect(t1).toHaveLength(round === 0 ? TENANT_CONCURRENCY : 0);
        for (const e of eps)
          expect(t1.filter((d) => d.endpointId === e).length).toBeLessThanOrEqual(ENDPOINT_CONCURRENCY);
        expect(
          claimed
            .filter((d) => d.tenantId === 't2')
            .map((d) => d.fightId)
            .sort(),
        ).toEqual(round === 0 ? ['f0', 'f1'] : []);
      }
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it('postgres: instances creating endpoints of one tenant at once never pass its limit between them', async () => {
    const schema = `wh_elim_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    const stores = [0, 1, 2].map(() => new SqlWebhookStore(new PostgresDriver(PG_URL, schema)));
    try {
      await stores[0].listEndpoints('t1');
      const made = await Promise.all(
        Array.from({ length: 30 }, (_, i) => stores[i % 3].insertEndpoint(endpoint(`e${i}`), 5)),
      );
      expect(made.filter(Boolean)).toHaveLength(5);
      expect(await stores[1].listEndpoints('t1')).toHaveLength(5);
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it('postgres: two instances pruning at once delete each delivery once and leave nothing behind', async () => {
    const schema = `wh_prune_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    const [a, b] = [
      new SqlWebhookStore(new PostgresDriver(PG_URL, schema)),
      new SqlWebhookStore(new PostgresDriver(PG_URL, schema)),
    ];
    try {
      await a.insertEndpoint(endpoint('e1'));
      for (let f = 0; f < 40; f++) await settle(a, delivery('e1', `f${f}`, 1), 'delivered', 100 + f);
      const passes = await Promise.all(
        [0, 1, 2].flatMap(() => [a.pruneFinished(DAY, 7), b.pruneFinished(DAY, 7)]),
      );
      const more = [await a.pruneFinished(DAY, 40), await b.pruneFinished(DAY, 40)];
      expect([...passes, ...more].reduce((x, y) => x + y, 0)).toBe(40);
      expect(await a.listDeliveries('e1', { limit: 50 })).toEqual([]);
      expect((await a.stats()).failedAttempts).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  afterAll(async () => {
    const { Client } = await import('pg');
    const c = new Client({ connectionString: PG_URL });
    await c.connect();
    for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    await c.end();
  });
} else {
  console.warn(
    'PostgreSQL webhook-store suite SKIPPED: set EVENT_STORE_PG_URL=postgres://user@host:5432/db to run it',
  );
  describe.skip('postgres webhook store (SKIPPED: EVENT_STORE_PG_URL is not set)', () =>
    it('needs PostgreSQL', () => undefined));
}
