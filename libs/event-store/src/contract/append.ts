import { DuplicateEventId, WrongExpectedRevision } from '../port';
import type { StoreFactory } from './factory';
import { ids, logOf, newEvent, newEvents, outcome } from './helpers';

export function appendContract(open: StoreFactory): void {
  describe('append with an expected revision', () => {
    it("'no_stream' creates the stream at revision 0 and is rejected once it exists", async () => {
      const store = await open();
      const first = await store.append('s', [newEvent()], { expectedRevision: 'no_stream' });
      expect(first.nextRevision).toBe(0n);
      expect(first.checkpoints).toHaveLength(1);
      const rejected = store.append('s', [newEvent()], { expectedRevision: 'no_stream' });
      await expect(rejected).rejects.toBeInstanceOf(WrongExpectedRevision);
      await expect(rejected).rejects.toMatchObject({ stream: 's', expected: 'no_stream', actual: 0n });
    });

    it('an exact revision must be the current one', async () => {
      const store = await open();
      await store.append('s', newEvents(2), { expectedRevision: 'no_stream' });
      await expect(store.append('s', [newEvent()], { expectedRevision: 0n })).rejects.toMatchObject({
        name: 'WrongExpectedRevision',
        expected: 0n,
        actual: 1n,
      });
      await expect(store.append('s', [newEvent()], { expectedRevision: 2n })).rejects.toBeInstanceOf(
        WrongExpectedRevision,
      );
      expect((await store.append('s', [newEvent()], { expectedRevision: 1n })).nextRevision).toBe(2n);
      await expect(store.append('other', [newEvent()], { expectedRevision: 0n })).rejects.toMatchObject({
        actual: 'no_stream',
      });
    });

    it("'any' appends whether or not the stream exists", async () => {
      const store = await open();
      expect((await store.append('s', newEvents(2), { expectedRevision: 'any' })).nextRevision).toBe(1n);
      expect((await store.append('s', newEvents(1), { expectedRevision: 'any' })).nextRevision).toBe(2n);
      expect(await store.streamRevision('s')).toBe(2n);
    });

    it('a rejected append changes nothing, and its ids stay free', async () => {
      const store = await open();
      await store.append('s', newEvents(2), { expectedRevision: 'no_stream' });
      await store.append('t', newEvents(1), { expectedRevision: 'no_stream' });
      const log = await logOf(store, 3);
      const rejected = newEvents(3);
      await expect(store.append('s', rejected, { expectedRevision: 0n })).rejects.toBeInstanceOf(
        WrongExpectedRevision,
      );
      await expect(store.append('u', rejected, { expectedRevision: 0n })).rejects.toBeInstanceOf(
        WrongExpectedRevision,
      );
      const reused = [newEvent(), { ...log[0], data: { other: true } }];
      await expect(store.append('s', reused, { expectedRevision: 1n })).rejects.toBeInstanceOf(
        DuplicateEventId,
      );
      expect(await logOf(store, 3)).toEqual(log);
      expect(await store.streamRevision('s')).toBe(1n);
      expect(await store.streamRevision('u')).toBeUndefined();
      expect((await store.append('s', rejected, { expectedRevision: 1n })).nextRevision).toBe(4n);
    });

    it('stores what was appended', async () => {
      const store = await open();
      const events = [
        { ...newEvent({ hp: 3, tags: ['a', 'b'], nested: { ok: true } }, 'Hit'), metadata: { by: 'test' } },
        newEvent(null, 'Missed'),
      ];
      const result = await store.append('fight-1', events, { expectedRevision: 'no_stream' });
      const stored = await store.readStream('fight-1');
      expect(stored).toMatchObject([
        {
          id: events[0].id,
          stream: 'fight-1',
          revision: 0n,
          type: 'Hit',
          data: events[0].data,
          metadata: { by: 'test' },
        },
        { id: events[1].id, stream: 'fight-1', revision: 1n, type: 'Missed', data: null, metadata: {} },
      ]);
      expect(stored.map((e) => e.checkpoint)).toEqual(result.checkpoints);
      for (const e of stored) expect(new Date(e.storedAt).toISOString()).toBe(e.storedAt);
    });

    it('an empty append checks the expected revision and writes nothing', async () => {
      const store = await open();
      expect(await store.append('s', [], { expectedRevision: 'no_stream' })).toEqual({
        nextRevision: -1n,
        checkpoints: [],
      });
      await store.append('s', newEvents(2), { expectedRevision: 'no_stream' });
      expect(await store.append('s', [], { expectedRevision: 1n })).toEqual({
        nextRevision: 1n,
        checkpoints: [],
      });
      await expect(store.append('s', [], { expectedRevision: 0n })).rejects.toBeInstanceOf(
        WrongExpectedRevision,
      );
      expect(await logOf(store, 2)).toHaveLength(2);
    });

    it('event ids are UUIDs, distinct within an append', async () => {
      const store = await open();
      await expect(
        store.append('s', [{ id: 'e-1', type: 'T', data: {} }], { expectedRevision: 'any' }),
      ).rejects.toThrow(TypeError);
      const e = newEvent();
      await expect(store.append('s', [e, e], { expectedRevision: 'any' })).rejects.toBeInstanceOf(
        DuplicateEventId,
      );
      expect(await store.readAll()).toEqual([]);
    });
  });

  describe('idempotency by event id', () => {
    it('re-appending the same events returns the first result and writes nothing', async () => {
      const store = await open();
      const events = [newEvent({ a: 1, b: { c: 2, d: 3 } }), newEvent()];
      const first = await store.append('s', events, { expectedRevision: 'no_stream' });
      await store.append('s', [newEvent()], { expectedRevision: 1n });
      const log = await logOf(store, 3);
      const reordered = [{ ...events[0], data: { b: { d: 3, c: 2 }, a: 1 } }, events[1]];
      expect(await store.append('s', reordered, { expectedRevision: 'no_stream' })).toEqual(first);
      expect(await store.append('s', events, { expectedRevision: 0n })).toEqual(first);
      expect(
        await store.append('s', [{ ...events[1], id: events[1].id.toUpperCase() }], {
          expectedRevision: 'any',
        }),
      ).toEqual({ nextRevision: 1n, checkpoints: [first.checkpoints[1]] });
      expect(await logOf(store, 3)).toEqual(log);
    });

    it('the same id with other content, stream or company is a DuplicateEventId', async () => {
      const store = await open();
      const [a, b] = newEvents(2);
      await store.append('s', [a, b], { expectedRevision: 'no_stream' });
      const log = await logOf(store, 2);
      const attempts = await Promise.all(
        [
          store.append('s', [{ ...a, data: { changed: true } }], { expectedRevision: 'any' }),
          store.append('s', [{ ...a, type: 'Other' }], { expectedRevision: 'any' }),
          store.append('s', [{ ...a, metadata: { by: 'someone' } }], { expectedRevision: 'any' }),
          store.append('t', [a], { expectedRevision: 'any' }),
          store.append('s', [a, newEvent()], { expectedRevision: 'any' }),
          store.append('s', [b, a], { expectedRevision: 'any' }),
          // A new event before the clash is not written either.
          store.append('s', [newEvent(), a], { expectedRevision: 'any' }),
          store.append('s', [newEvent(), newEvent(), b], { expectedRevision: 1n }),
        ].map(outcome),
      );
      for (const attempt of attempts) expect(attempt).toEqual({ error: expect.any(DuplicateEventId) });
      expect(attempts[4]).toMatchObject({ error: { eventId: a.id } });
      expect(ids(await logOf(store, 2))).toEqual(ids(log));
    });
  });
}
