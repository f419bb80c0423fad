import { FightEvent } from '@app/fight-log';
import { FightFeed } from '../../src/live/fight-feed';
import { LiveFightStream } from '../../src/live/live-stream';

const event = (seq: number): FightEvent => ({
  fightId: 'f',
  seq,
  type: 'NoteAdded',
  v: 1,
  at: '2026-01-01T00:00:00.000Z',
  actor: 'gm',
  commandId: `c${seq}`,
  data: {},
  hash: `h${seq}`,
});
const fightEnded = (seq: number): FightEvent => ({ ...event(seq), type: 'FightEnded' });
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const tick = () => new Promise((r) => setImmediate(r));

/** A store holding `log`, whose reads resolve only when `release()` is called. */
function slowStore(log: FightEvent[]) {
  const pending: Array<() => void> = [];
  return {
    read: (after: number) =>
      new Promise<FightEvent[]>((resolve) => pending.push(() => resolve(log.filter((e) => e.seq > after)))),
    release: () => pending.splice(0).forEach((r) => r()),
  };
}

describe('LiveFightStream observed (push mode)', () => {
  it('replays after `after`, then goes live: no gap and no repeat at the switch', async () => {
    const feed = new FightFeed();
    const log = upTo(5).map(event);
    const store = slowStore(log);
    const stream = new LiveFightStream(2, store.read, (deliver) => feed.on('f', deliver));
    const seen: number[] = [];
    stream.observe({ next: (e) => seen.push(e.seq), error: fail, complete: () => undefined });
    // Committed while the catch-up read runs: 5 again (already in the log) and 6.
    feed.publish(log[4]);
    feed.publish(event(6));
    store.release();
    await tick();
    feed.publish(event(6));
    feed.publish(event(7));
    expect(seen).toEqual([3, 4, 5, 6, 7]);
  });

  it('given a history of several pages, reads it a page at a time with a turn of the loop between, then goes live', async () => {
    const feed = new FightFeed();
    const log = upTo(10).map(event);
    const reads: Array<[number, number]> = [];
    const read = async (after: number, limit: number) => {
      reads.push([after, limit]);
      return log.filter((e) => e.seq > after).slice(0, limit);
    };
    const stream = new LiveFightStream(0, read, (deliver) => feed.on('f', deliver), 4);
    const seen: Array<number | 'turn'> = [];
    stream.observe({ next: (e) => seen.push(e.seq), error: fail, complete: () => undefined });
    setImmediate(() => seen.push('turn'));
    // Committed while the history is read: held, then given once, after the history.
    log.push(event(11));
    feed.publish(event(11));
    for (let i = 0; i < 10 && !seen.includes(11); i++) await tick();
    feed.publish(event(12));
    expect(reads).toEqual([
      [0, 4],
      [4, 4],
      [8, 4],
    ]);
    expect(seen).toEqual([1, 2, 3, 4, 'turn', 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('given a subscriber that leaves during the history, reads no further page', async () => {
    const feed = new FightFeed();
    const log = upTo(12).map(event);
    let reads = 0;
    const read = async (after: number, limit: number) => {
      reads++;
      return log.filter((e) => e.seq > after).slice(0, limit);
    };
    const stream = new LiveFightStream(0, read, (deliver) => feed.on('f', deliver), 4);
    const seen: number[] = [];
    stream.observe({
      next: (e) => {
        seen.push(e.seq);
        if (e.seq === 2) void stream.return();
      },
      error: fail,
      complete: () => undefined,
    });
    for (let i = 0; i < 5; i++) await tick();
    expect(seen).toEqual([1, 2]);
    expect(reads).toBe(1);
  });

  it('a gap in the live events is read back from the store, and the late copies are dropped', async () => {
    const feed = new FightFeed();
    const log = [event(1)];
    const stream = new LiveFightStream(
      0,
      async (after) => log.filter((e) => e.seq > after),
      (deliver) => feed.on('f', deliver),
    );
    const seen: number[] = [];
    stream.observe({ next: (e) => seen.push(e.seq), error: fail, complete: () => undefined });
    await tick();
    // 2 and 3 were committed elsewhere and are not yet on the feed when 4 arrives.
    log.push(event(2), event(3), event(4));
    feed.publish(log[3]);
    await tick();
    feed.publish(log[1]);
    feed.publish(log[2]);
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it('events queued before observe() go first; return() completes the observer once and stops delivery', async () => {
    const feed = new FightFeed();
    const stream = new LiveFightStream(
      0,
      async () => [],
      (deliver) => feed.on('f', deliver),
    );
    await tick();
    feed.publish(event(1));
    const seen: number[] = [];
    let completed = 0;
    stream.observe({ next: (e) => seen.push(e.seq), error: fail, complete: () => completed++ });
    feed.publish(event(2));
    await stream.return();
    await stream.return();
    feed.publish(event(3));
    expect(seen).toEqual([1, 2]);
    expect(completed).toBe(1);
    expect(feed.subscribers).toBe(0);
  });

  it('a failed store read errors the observer', async () => {
    const feed = new FightFeed();
    const stream = new LiveFightStream(
      0,
      () => Promise.reject(new Error('store down')),
      (deliver) => feed.on('f', deliver),
    );
    const errors: unknown[] = [];
    stream.observe({ next: () => undefined, error: (e) => errors.push(e), complete: fail });
    await tick();
    expect(errors).toEqual([new Error('store down')]);
    expect(feed.subscribers).toBe(0);
  });
});

describe('LiveFightStream read by next() (pull mode)', () => {
  it('given a reader that does not read, reads one page of the history and no more until it is taken', async () => {
    const feed = new FightFeed();
    const log = upTo(10).map(event);
    const reads: number[] = [];
    const read = async (after: number, limit: number) => {
      reads.push(after);
      return log.filter((e) => e.seq > after).slice(0, limit);
    };
    const stream = new LiveFightStream(0, read, (deliver) => feed.on('f', deliver), 4);
    for (let i = 0; i < 10; i++) await tick();
    expect(reads).toEqual([0]);

    // Taking three of the page's four reads nothing more; the fourth lets the catch-up go on.
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) seen.push((await stream.next()).value.seq);
    for (let i = 0; i < 5; i++) await tick();
    expect(reads).toEqual([0]);
    seen.push((await stream.next()).value.seq);
    for (let i = 0; i < 5; i++) await tick();
    expect(reads).toEqual([0, 4]);

    // Committed while the history is held back: given after it, once.
    log.push(event(11));
    feed.publish(event(11));
    while (seen.length < 11) seen.push((await stream.next()).value.seq);
    feed.publish(event(12));
    seen.push((await stream.next()).value.seq);
    expect(reads).toEqual([0, 4, 8]);
    expect(seen).toEqual(upTo(12));
    await stream.return();
    expect(feed.subscribers).toBe(0);
  });

  it('given a reader waiting on next(), reads the next page once the one it was given is taken', async () => {
    const feed = new FightFeed();
    const log = upTo(9).map(event);
    let reads = 0;
    const read = async (after: number, limit: number) => {
      reads++;
      return log.filter((e) => e.seq > after).slice(0, limit);
    };
    const stream = new LiveFightStream(0, read, (deliver) => feed.on('f', deliver), 3);
    const seen: number[] = [];
    for (let i = 0; i < 9; i++) seen.push((await stream.next()).value.seq);
    expect(seen).toEqual(upTo(9));
    for (let i = 0; i < 5; i++) await tick();
    // Three full pages, then the read that finds the end of the history.
    expect(reads).toBe(4);
    await stream.return();
  });
});

function fail(): never {
  throw new Error('not expected');
}

describe('LiveFightStream after FightEnded (nothing follows it)', () => {
  it('given FightEnded live, an observer gets it, then is completed, and the feed is left', async () => {
    const feed = new FightFeed();
    const log = upTo(2).map(event);
    const stream = new LiveFightStream(
      0,
      async (after) => log.filter((e) => e.seq > after),
      (d) => feed.on('f', d),
    );
    const seen: Array<number | 'complete'> = [];
    stream.observe({ next: (e) => seen.push(e.seq), error: fail, complete: () => seen.push('complete') });
    await tick();
    feed.publish(fightEnded(3));
    feed.publish(event(4));
    expect(seen).toEqual([1, 2, 3, 'complete']);
    expect(stream.over).toBe(true);
    expect(feed.subscribers).toBe(0);
  });

  it('given FightEnded in the history read by next(), a reader gets every event through it, then the end, though live events were held behind it', async () => {
    const feed = new FightFeed();
    const log = [event(1), event(2), fightEnded(3)];
    const store = slowStore(log);
    const stream = new LiveFightStream(0, store.read, (d) => feed.on('f', d));
    feed.publish(event(4));
    store.release();
    await tick();
    const seen: number[] = [];
    for await (const e of stream) seen.push(e.seq);
    expect(seen).toEqual([1, 2, 3]);
    expect(feed.subscribers).toBe(0);
  });

  it('given a reader waiting when FightEnded comes, its next read after the event is the end', async () => {
    const feed = new FightFeed();
    const stream = new LiveFightStream(
      0,
      async () => [],
      (d) => feed.on('f', d),
    );
    await tick();
    const first = stream.next();
    feed.publish(fightEnded(1));
    expect((await first).value?.seq).toBe(1);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('given a stream opened over (the fight ended at its resume point), nothing is read or listened to, and it ends at once', async () => {
    const feed = new FightFeed();
    let reads = 0;
    const stream = new LiveFightStream(
      3,
      async () => {
        reads++;
        return [];
      },
      (d) => feed.on('f', d),
      undefined,
      true,
    );
    const completed: boolean[] = [];
    stream.observe({ next: () => fail(), error: fail, complete: () => completed.push(true) });
    expect(completed).toEqual([true]);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    expect(reads).toBe(0);
    expect(feed.subscribers).toBe(0);
  });
});
