import { InMemoryEventStore } from '../src/memory';
import { disjointPrefixes, prefixEnd, scanPrefixed } from '../src/prefixed';
import { newEvent } from '../src/contract/helpers';

describe('stream prefixes', () => {
  it('prefixEnd is the least name above every name with the prefix, in code point order', () => {
    expect(prefixEnd('access-')).toBe('access.');
    expect(prefixEnd('a')).toBe('b');
    // After U+D7FF comes U+E000: surrogates are not characters.
    expect(prefixEnd('x\uD7FF')).toBe('x\uE000');
    // A prefix ending in an astral character steps the whole code point, not half of it.
    expect(prefixEnd('x😀')).toBe('x😁');
    expect(prefixEnd('x\u{10FFFF}')).toBeUndefined();
    for (const name of ['access-', 'access-zzz', 'access-\u{10FFFF}'])
      expect(Buffer.compare(Buffer.from(name), Buffer.from(prefixEnd('access-')!))).toBe(-1);
  });

  it('disjointPrefixes drops repeats and prefixes another one covers, and refuses an empty one', () => {
    expect(disjointPrefixes(['tenant-', 'access-', 'access-1', 'tenant-'])).toEqual(['access-', 'tenant-']);
    expect(() => disjointPrefixes(['access-', ''])).toThrow(RangeError);
  });

  it('scanPrefixed, paging through the whole log, reads what an engine reads by its own index', async () => {
    const store = new InMemoryEventStore();
    expect(await scanPrefixed(store, ['a-'])).toEqual({ events: [] });
    for (const stream of ['a-1', 'b-1', 'a-2', 'a', 'b-2', 'a-1', 'c']) {
      await store.append(stream, [newEvent()], { expectedRevision: 'any' });
    }
    for (const pageSize of [1, 2, 3, 7, 1000])
      expect(await scanPrefixed(store, ['a-', 'b-'], {}, pageSize)).toEqual(
        await store.readPrefixed(['b-', 'a-']),
      );
    expect((await scanPrefixed(store, ['a-'], {}, 2)).events.map((e) => e.stream)).toEqual([
      'a-1',
      'a-2',
      'a-1',
    ]);
    // After a checkpoint: what came since, and the head even when nothing did.
    const { head } = await store.readPrefixed(['a-']);
    const fourth = (await store.readAll())[3].checkpoint;
    for (const pageSize of [1, 2, 1000]) {
      const since = await scanPrefixed(store, ['a-', 'b-'], { after: fourth }, pageSize);
      expect(since).toEqual(await store.readPrefixed(['a-', 'b-'], { after: fourth }));
      expect(since.events.map((e) => e.stream)).toEqual(['b-2', 'a-1']);
      expect(await scanPrefixed(store, ['a-'], { after: head }, pageSize)).toEqual({ events: [], head });
    }
    await store.close();
  });
});
