import type { StoreFactory } from './factory';
import { DuplicateEventId, WrongExpectedRevision, type AppendResult, type EventStore } from '../port';
import { ids, logOf, newEvent, newEvents, outcome, type Outcome as Settled } from './helpers';

type Outcome = Settled<AppendResult>;

const succeeded = (outcomes: Outcome[]): AppendResult[] => outcomes.flatMap((o) => ('ok' in o ? [o.ok] : []));

/** Every append either landed at a unique revision or failed WrongExpectedRevision, and the stream has no gap. */
async function expectConsistentStream(store: EventStore, stream: string, outcomes: Outcome[]): Promise<void> {
  for (const o of outcomes) if ('error' in o) expect(o.error).toBeInstanceOf(WrongExpectedRevision);
  const wins = succeeded(outcomes).map((r) => r.nextRevision);
  expect(new Set(wins).size).toBe(wins.length);
  const revisions = (await store.readStream(stream)).map((e) => e.revision);
  expect(revisions).toEqual(revisions.map((_, i) => BigInt(i)));
  expect(revisions).toHaveLength(1 + wins.length);
  expect([...wins].sort((a, b) => (a < b ? -1 : 1))).toEqual(revisions.slice(1));
}

export function concurrencyContract(open: StoreFactory): void {
  describe('concurrent appends', () => {
    it('50 appends expecting the same revision: exactly one wins', async () => {
      const store = await open();
      await store.append('s', [newEvent()], { expectedRevision: 'no_stream' });
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, () => outcome(store.append('s', [newEvent()], { expectedRevision: 0n }))),
      );
      expect(succeeded(outcomes)).toHaveLength(1);
      await expectConsistentStream(store, 's', outcomes);
    });

    it('50 appends expecting revisions 0..49: unique consecutive revisions or WrongExpectedRevision', async () => {
      const store = await open();
      await store.append('s', [newEvent()], { expectedRevision: 'no_stream' });
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          outcome(store.append('s', [newEvent()], { expectedRevision: BigInt(i) })),
        ),
      );
      expect(succeeded(outcomes).length).toBeGreaterThan(0);
      await expectConsistentStream(store, 's', outcomes);
    });

    it("50 'any' appends to one stream all land at consecutive revisions", async () => {
      const store = await open();
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, () =>
          outcome(store.append('s', newEvents(2), { expectedRevision: 'any' })),
        ),
      );
      expect(succeeded(outcomes)).toHaveLength(50);
      const revisions = (await store.readStream('s')).map((e) => e.revision);
      expect(revisions).toEqual(Array.from({ length: 100 }, (_, i) => BigInt(i)));
    });

    it('appends to 50 different streams all land', async () => {
      const store = await open();
      const batches = Array.from({ length: 50 }, () => newEvents(2));
      const results = await Promise.all(
        batches.map((events, i) => store.append(`s-${i}`, events, { expectedRevision: 'no_stream' })),
      );
      expect(results.map((r) => r.nextRevision)).toEqual(batches.map(() => 1n));
      const log = await logOf(store, 100);
      expect(new Set(ids(log))).toEqual(new Set(batches.flat().map((e) => e.id)));
      expect(new Set(log.map((e) => e.checkpoint)).size).toBe(100);
    });

    it('appends arriving together are judged one by one; the rejected ones change nothing', async () => {
      const store = await open();
      const [a, b, c] = newEvents(3);
      const [byA, byB, sameAsA, byC, clashC] = await Promise.all(
        [
          store.append('s', [a], { expectedRevision: 'no_stream' }),
          store.append('s', [b], { expectedRevision: 'no_stream' }),
          store.append('s', [a], { expectedRevision: 'no_stream' }),
          store.append('t', [c], { expectedRevision: 'no_stream' }),
          store.append('u', [{ ...c, data: { clash: true } }], { expectedRevision: 'no_stream' }),
          store.append('v', newEvents(1), { expectedRevision: 'no_stream' }),
        ].map(outcome),
      );
      expect([byA, byB].filter((o) => 'ok' in o)).toHaveLength(1);
      expect([byA, byB].find((o) => 'error' in o)).toEqual({ error: expect.any(WrongExpectedRevision) });
      expect(sameAsA).toEqual('ok' in byA ? byA : { error: expect.any(WrongExpectedRevision) });
      expect([byC, clashC].filter((o) => 'ok' in o)).toHaveLength(1);
      expect([byC, clashC].find((o) => 'error' in o)).toEqual({ error: expect.any(DuplicateEventId) });
      const log = await logOf(store, 3);
      expect(log.map((e) => e.stream).sort()).toEqual(['s', 'ok' in byC ? 't' : 'u', 'v'].sort());
      expect(await store.readStream('s')).toHaveLength(1);
    });
  });
}
