import { InMemoryEventStore } from '@app/event-store';
import { blankFight } from '@app/fight-log';
import { findSystem } from '@app/rules';
import { CommandIndex } from '../src/command-index';
import { approxBytes, FightCache, LoadedFight, viewOf } from '../src/fight-cache';

const system = findSystem('narateer')!;
const fight = (id: string, stateBytes: number): LoadedFight => ({
  ...blankFight(system, id),
  commands: new CommandIndex(),
  stateBytes,
});

describe('the fight cache is bounded by count and by approximate size', () => {
  it('given more fights than it may hold, the least recently used go first', () => {
    const cache = new FightCache(new InMemoryEventStore(), { maxFights: 2 });
    cache.remember(fight('a', 100));
    cache.remember(fight('b', 100));
    cache.remember(cache.get('a')!);
    cache.remember(fight('c', 100));
    expect(['a', 'b', 'c'].map((id) => cache.get(id) !== undefined)).toEqual([true, false, true]);
    expect(cache.held.fights).toBe(2);
  });

  it('given fights larger than the byte budget allows, the least recently used go until they fit', () => {
    const big = approxBytes(fight('x', 10_000));
    const cache = new FightCache(new InMemoryEventStore(), { maxBytes: 2 * big + 10 });
    for (const id of ['a', 'b', 'c']) cache.remember(fight(id, 10_000));
    expect(['a', 'b', 'c'].map((id) => cache.get(id) !== undefined)).toEqual([false, true, true]);
    expect(cache.held).toEqual({ fights: 2, approxBytes: 2 * big });
    // A fight remembered again counts once; one forgotten counts no more.
    cache.remember(cache.get('c')!);
    cache.forget('b');
    expect(cache.held).toEqual({ fights: 1, approxBytes: big });
  });

  it('a single fight larger than the whole budget is still held (the one in use)', () => {
    const cache = new FightCache(new InMemoryEventStore(), { maxBytes: 10 });
    cache.remember(fight('huge', 1_000_000));
    expect(cache.get('huge')).toBeDefined();
  });
});

describe("a held fight's view is built once", () => {
  it('viewOf builds the view of a fight object once; the next fold of the fight gets its own', () => {
    const view = jest.spyOn(system, 'view');
    const a = fight('a', 100);
    expect(viewOf(a)).toBe(viewOf(a));
    expect(view).toHaveBeenCalledTimes(1);
    const next = { ...a, seq: 1, headHash: 'h1' };
    expect(viewOf(next)).toMatchObject({ seq: 1, headHash: 'h1' });
    expect(view).toHaveBeenCalledTimes(2);
    view.mockRestore();
  });

  it('heldView answers only for the fight at exactly that seq and head hash', () => {
    const cache = new FightCache(new InMemoryEventStore());
    const held = { ...fight('a', 100), seq: 3, headHash: 'h3' };
    cache.remember(held);
    expect(cache.heldView('a', 3, 'h3')).toBe(viewOf(held));
    expect(cache.heldView('a', 2, 'h3')).toBeUndefined();
    expect(cache.heldView('a', 3, 'other')).toBeUndefined();
    expect(cache.heldView('b', 3, 'h3')).toBeUndefined();
  });

  it('heldView still answers for a fight remembered lately at that seq, after the fight moved on', () => {
    const cache = new FightCache(new InMemoryEventStore());
    const at3 = { ...fight('a', 100), seq: 3, headHash: 'h3' };
    cache.remember(at3);
    cache.remember({ ...at3, seq: 4, headHash: 'h4' });
    expect(cache.heldView('a', 3, 'h3')).toBe(viewOf(at3));
    expect(cache.heldView('a', 3, 'other')).toBeUndefined();
    for (let i = 0; i < 300; i++) cache.remember({ ...fight(`f${i}`, 100), seq: 1, headHash: 'x' });
    expect(cache.heldView('a', 3, 'h3')).toBeUndefined();
  });
});
