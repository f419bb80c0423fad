import { FightEvent } from '@app/fight-log';
import { FightFeed } from '../../src/live/fight-feed';

const event = (seq: number, fightId = 'f'): FightEvent => ({
  fightId,
  seq,
  type: 'NoteAdded',
  v: 1,
  at: '2026-01-01T00:00:00.000Z',
  actor: 'gm',
  commandId: `c${seq}`,
  data: {},
  hash: `h${seq}`,
});

describe('FightFeed', () => {
  it('an event that arrives twice (this instance’s append, then the global log) goes out once', () => {
    const feed = new FightFeed();
    const seen: FightEvent[] = [];
    feed.on('f', (e) => seen.push(e));
    const own = event(1);
    feed.publish(own);
    feed.publish(event(1));
    feed.publish(event(2));
    expect(seen.map((e) => e.seq)).toEqual([1, 2]);
    expect(seen[0]).toBe(own);
  });

  it('an event goes only to its own fight’s listeners, and not to those that left', () => {
    const feed = new FightFeed();
    const seen: string[] = [];
    const off = feed.on('a', (e) => seen.push(`${e.fightId}${e.seq}`));
    feed.on('b', (e) => seen.push(`${e.fightId}${e.seq}`));
    feed.publish(event(1, 'a'));
    feed.publish(event(1, 'b'));
    off();
    feed.publish(event(2, 'a'));
    expect(seen).toEqual(['a1', 'b1']);
    expect(feed.subscribers).toBe(1);
  });
});
