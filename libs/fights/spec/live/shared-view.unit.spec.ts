import { InMemoryEventStore } from '@app/event-store';
import { FightService } from '../../src/fight-service';

async function fixture() {
  const service = new FightService(new InMemoryEventStore());
  const { fightId } = await service.create({ system: 'narateer', name: 'F', dice: { mode: 'manual' } });
  const note = (text: string) => service.execute(fightId, { type: 'AddNote', text });
  return { service, fightId, note };
}

describe('fight views shared by their subscribers', () => {
  it('given two subscribers of a fight, each gets the same view object, now and after a change', async () => {
    const { service, fightId, note } = await fixture();
    const [a, b] = await Promise.all([service.watchViews(fightId), service.watchViews(fightId)]);
    const [a1, b1] = await Promise.all([a.next(), b.next()]);
    expect(a1.value).toBe(b1.value);

    const { seq } = await note('seen by both');
    const [a2, b2] = await Promise.all([a.next(), b.next()]);
    expect(a2.value.seq).toBe(seq);
    expect(a2.value).toBe(b2.value);
    await Promise.all([a.return!(), b.return!()]);
  });

  it('given a subscriber that joins later, it gets the view the others have, not a read of its own', async () => {
    const { service, fightId } = await fixture();
    const first = await service.watchViews(fightId);
    const now = (await first.next()).value;
    const later = await service.watchViews(fightId);
    expect((await later.next()).value).toBe(now);
    await Promise.all([first.return!(), later.return!()]);
  });

  it('given a slow subscriber, a burst of changes reaches it as the last view only', async () => {
    const { service, fightId, note } = await fixture();
    const views = await service.watchViews(fightId);
    await views.next();
    await note('one');
    await note('two');
    const { seq } = await note('three');
    await new Promise((r) => setImmediate(r));
    expect((await views.next()).value.seq).toBe(seq);
    await views.return!();
  });

  it('given the last subscriber leaves, the fight is no longer followed, and a new subscriber starts afresh', async () => {
    const { service, fightId, note } = await fixture();
    const [a, b] = await Promise.all([service.watchViews(fightId), service.watchViews(fightId)]);
    expect(service.feed.subscribers).toBe(1);
    await a.return!();
    expect(service.feed.subscribers).toBe(1);
    await b.return!();
    expect(service.feed.subscribers).toBe(0);

    const { seq } = await note('after everyone left');
    const c = await service.watchViews(fightId);
    expect((await c.next()).value.seq).toBe(seq);
    await c.return!();
  });

  it('given a missing fight, every subscriber asking is refused with FIGHT_NOT_FOUND and nothing is left open', async () => {
    const { service } = await fixture();
    const asks = await Promise.allSettled([service.watchViews('missing'), service.watchViews('missing')]);
    for (const ask of asks)
      expect(ask).toMatchObject({ status: 'rejected', reason: { code: 'FIGHT_NOT_FOUND' } });
    expect(service.feed.subscribers).toBe(0);
  });
});

describe('fight views once the fight has ended (nothing follows FightEnded)', () => {
  it('given two subscribers when the fight ends, each gets the ended view, then the end, and the fight is no longer followed', async () => {
    const { service, fightId, note } = await fixture();
    const [a, b] = await Promise.all([service.watchViews(fightId), service.watchViews(fightId)]);
    await Promise.all([a.next(), b.next()]);
    await note('last words');
    const { seq } = await service.execute(fightId, { type: 'EndFight' });
    for (const s of [a, b]) {
      let last = (await s.next()).value;
      // The note's view may come first, or be skipped for the last one (a slow reader skips to the last).
      if (last.seq < seq) last = (await s.next()).value;
      expect(last).toMatchObject({ seq, view: { status: 'ended' } });
      expect(await s.next()).toEqual({ value: undefined, done: true });
    }
    expect(service.feed.subscribers).toBe(0);
  });

  it('given a fight that has ended, a new subscriber gets its view now, then the end', async () => {
    const { service, fightId } = await fixture();
    const { seq } = await service.execute(fightId, { type: 'EndFight' });
    const views = await service.watchViews(fightId);
    expect((await views.next()).value).toMatchObject({ seq, view: { status: 'ended' } });
    expect(await views.next()).toEqual({ value: undefined, done: true });
    expect(service.feed.subscribers).toBe(0);
  });

  it('given a fight that has ended, a watch from its last event is over at once; one from before it gets the rest, then the end', async () => {
    const { service, fightId, note } = await fixture();
    const { seq: noted } = await note('before the end');
    const { seq } = await service.execute(fightId, { type: 'EndFight' });
    const atEnd = await service.watch(fightId, seq);
    expect(atEnd.over).toBe(true);
    expect(await atEnd.next()).toEqual({ value: undefined, done: true });

    const before = await service.watch(fightId, noted - 1);
    expect(before.over).toBe(false);
    const seen: string[] = [];
    for await (const e of before) seen.push(`${e.seq} ${e.type}`);
    expect(seen).toEqual([`${noted} GmNoteAdded`, `${seq} FightEnded`]);
    expect(before.over).toBe(true);
    expect(service.feed.subscribers).toBe(0);
  });
});
