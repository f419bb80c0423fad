import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '../src/sqlite';

/**
 * The SQLite store reads a long stream a page at a time (docs/event-store.md: readStream returns the
 * stream from `from`, in order): the pages must join into exactly the stream, across page borders.
 */
describe('SQLite readStream over more events than one page', () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'crs-pages-'));
    store = new SqliteEventStore(join(dir, 'events.sqlite'));
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given a stream of 4,500 events, when it is read whole and from inside a page, then every event comes once, in order', async () => {
    for (let i = 0; i < 45; i++)
      await store.append(
        'long',
        Array.from({ length: 100 }, (_, j) => ({
          id: randomUUID(),
          type: 'Noted',
          data: { n: i * 100 + j },
        })),
        { expectedRevision: 'any' },
      );
    await store.append('other', [{ id: randomUUID(), type: 'Noted', data: { n: -1 } }], {
      expectedRevision: 'any',
    });
    const whole = await store.readStream('long');
    expect(whole.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 4500 }, (_, i) => i));
    expect(whole.map((e) => Number(e.revision))).toEqual(Array.from({ length: 4500 }, (_, i) => i));
    const tail = await store.readStream('long', { from: 1999n });
    expect(tail.map((e) => (e.data as { n: number }).n)).toEqual(
      Array.from({ length: 2501 }, (_, i) => i + 1999),
    );
    expect(await store.readStream('long', { from: 4500n })).toEqual([]);
  });

  it('given a limit across page borders, when the stream is read, then exactly that many come, in order', async () => {
    const n = (events: Array<{ data: unknown }>) => events.map((e) => (e.data as { n: number }).n);
    const range = (from: number, length: number) => Array.from({ length }, (_, i) => from + i);
    expect(n(await store.readStream('long', { limit: 1200 }))).toEqual(range(0, 1200));
    expect(n(await store.readStream('long', { from: 499n, limit: 502 }))).toEqual(range(499, 502));
    expect(n(await store.readStream('long', { limit: 500 }))).toEqual(range(0, 500));
    expect(n(await store.readStream('long', { from: 4000n, limit: 1000 }))).toEqual(range(4000, 500));
  });
});
