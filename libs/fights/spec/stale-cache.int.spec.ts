import { InMemoryEventStore } from '@app/event-store';
import { AppError } from '../src/errors';
import { FightService } from '../src/fight-service';
import { plainSheet } from './helpers';

/**
 * Two instances on one store, neither following the log (as an instance that passes over a fight's
 * events, docs/event-store.md "Selective follow"): each one's cache may be behind what the other wrote.
 */
describe('a command on an instance whose cached fight is behind the store', () => {
  const store = new InMemoryEventStore();
  const [here, there] = [new FightService(store), new FightService(store)];
  const note = (s: FightService, fightId: string, text: string, expectedSeq?: number) =>
    s.execute(fightId, { type: 'AddNote', text, ...(expectedSeq !== undefined && { expectedSeq }) });

  async function staleFight(): Promise<{ fightId: string; head: number }> {
    const { fightId } = await here.create({
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants: [{ id: 'x', name: 'X', side: 'p', sheet: plainSheet }],
    });
    await note(here, fightId, 'held here');
    const { seq: head } = await note(there, fightId, 'written elsewhere');
    expect(here.cache.get(fightId)!.seq).toBe(head - 1);
    return { fightId, head };
  }

  it('given an expectedSeq the client saw elsewhere, then it reads on and lands the command', async () => {
    const { fightId, head } = await staleFight();
    const result = await note(here, fightId, 'at the head', head);
    expect(result.seq).toBe(head + 1);
  });

  it('given an expectedSeq behind the store, then it still refuses it, naming the seq the fight is at', async () => {
    const { fightId, head } = await staleFight();
    const refused = await note(here, fightId, 'too late', head - 1).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'EXPECTED_SEQ_MISMATCH' });
    expect((refused as Error).message).toContain(`at seq ${head}`);
  });

  it('given no expectedSeq, then the conflict with the store is retried on fresh state', async () => {
    const { fightId, head } = await staleFight();
    expect((await note(here, fightId, 'whenever')).seq).toBe(head + 1);
  });
});
