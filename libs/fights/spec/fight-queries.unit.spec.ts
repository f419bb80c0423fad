import { FightQueries } from '../src/fight-queries';
import type { FightService, FightViewResult } from '../src/fight-service';
import type { FightRow } from '../src/projections/read-store';
import type { ProjectionRunner } from '../src/projections/runner';

const row = (seq: number): FightRow => ({
  fightId: 'f1',
  tenantId: 't1',
  system: 'narateer',
  name: 'Fight',
  status: 'active',
  seq,
  headHash: `h${seq}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  view: { seq, headHash: `h${seq}` },
});

/** Queries over a read model that holds `projected` (or nothing) and a store at `stored`; counts the waits on the projection. */
function queries(projected: FightRow | undefined, stored: number) {
  const waits: number[] = [];
  const runner = {
    read: { getFight: async () => projected },
    waitFor: async (_name: string, _fightId: string, seq: number) => {
      waits.push(seq);
      return false;
    },
  } as unknown as ProjectionRunner;
  const fresh: FightViewResult = {
    fightId: 'f1',
    seq: stored,
    view: { seq: stored, headHash: `h${stored}` },
  };
  const reads = { store: 0 };
  const fights = {
    view: async () => {
      reads.store++;
      return fresh;
    },
  } as unknown as FightService;
  return { q: new FightQueries(runner, fights), waits, fresh, reads };
}

describe('FightQueries.fight: the projection once it has reached minSeq (docs/event-store.md), else the store', () => {
  it('given a fight not projected yet, when its view is asked, then it waits (briefly) for the projection to reach the store, and answers with the store’s view', async () => {
    const { q, waits, fresh } = queries(undefined, 1);
    await expect(q.fight('f1')).resolves.toEqual(fresh);
    expect(waits).toEqual([1]);
  });

  it('given a projection behind the store, when minSeq is asked, then it waits for the projection to reach minSeq (a barrier for the read model), and answers with the store’s view if it never gets there', async () => {
    const { q, waits, fresh } = queries(row(2), 3);
    await expect(q.fight('f1', 3)).resolves.toEqual(fresh);
    expect(waits).toEqual([3]);
  });

  it('given a projection at minSeq, then it answers and the store is not read', async () => {
    const { q, reads } = queries(row(3), 5);
    await expect(q.fight('f1', 3)).resolves.toEqual({ fightId: 'f1', seq: 3, view: row(3).view });
    expect(reads.store).toBe(0);
  });

  it('given a row the read store holds, then every read of it answers the same object (the edge writes its text once), and a new row another', async () => {
    const held = row(3);
    const { q } = queries(held, 3);
    const first = await q.fight('f1');
    expect(await q.fight('f1')).toBe(first);
    const { q: after } = queries(row(4), 4);
    expect(await after.fight('f1')).not.toBe(first);
    expect(await after.fight('f1')).toEqual({ fightId: 'f1', seq: 4, view: row(4).view });
  });

  it("given a minSeq past the store's head, then it is 422 SEQ_OUT_OF_RANGE naming minSeq at once, without waiting for the projection", async () => {
    const { q, waits } = queries(row(2), 3);
    await expect(q.fight('f1', 9)).rejects.toMatchObject({
      status: 422,
      code: 'SEQ_OUT_OF_RANGE',
      field: 'minSeq',
      message: "minSeq must be at most 3, the fight's last seq",
    });
    expect(waits).toEqual([]);
  });

  it("given a minSeq at the store's head exactly, then it still waits for the projection and answers", async () => {
    const { q, waits, fresh } = queries(row(2), 3);
    await expect(q.fight('f1', 3)).resolves.toEqual(fresh);
    expect(waits).toEqual([3]);
  });
});

describe('FightQueries.combatants: the entries of the view the fight-views row holds, as GET /fights/:id answers it', () => {
  /** A read side whose fight-views row is at `rowSeq` (or none), and a store at `stored`. */
  function combatantQueries(rowSeq: number | undefined, stored: number) {
    const waits: number[] = [];
    const held =
      rowSeq === undefined
        ? undefined
        : {
            ...row(rowSeq),
            view: { seq: rowSeq, system: 'narateer', combatants: [{ id: 'a', name: 'A' }] },
          };
    const runner = {
      read: { getFight: async () => held },
      waitFor: async (_name: string, _fightId: string, seq: number) => {
        waits.push(seq);
        return false;
      },
    } as unknown as ProjectionRunner;
    const fresh: FightViewResult = {
      fightId: 'f1',
      seq: stored,
      view: {
        seq: stored,
        system: 'narateer',
        combatants: [
          { id: 'a', name: 'A' },
          { id: 'c', name: 'C', side: 'x' },
        ],
      },
    };
    const fights = { view: async () => fresh } as unknown as FightService;
    return { q: new FightQueries(runner, fights), waits };
  }
  const both = [
    {
      fightId: 'f1',
      combatantId: 'a',
      system: 'narateer',
      name: 'A',
      side: 'default',
      summary: { id: 'a', name: 'A' },
    },
    {
      fightId: 'f1',
      combatantId: 'c',
      system: 'narateer',
      name: 'C',
      side: 'x',
      summary: { id: 'c', name: 'C', side: 'x' },
    },
  ];

  it('given the fight-views row at minSeq, when the combatants are asked, then the row’s entries answer without a wait', async () => {
    const { q, waits } = combatantQueries(3, 3);
    expect(await q.combatants('f1', 3)).toEqual([both[0]]);
    expect(waits).toEqual([]);
  });

  it('given the fight-views row behind minSeq, when the combatants are asked, then it waits, and answers the entries of the view at the head', async () => {
    const { q, waits } = combatantQueries(3, 4);
    expect(await q.combatants('f1', 4)).toEqual(both);
    expect(waits).toEqual([4]);
  });

  it('given a fight the read side has not written yet, when the combatants are asked without minSeq, then they are those of the view at the head, not an empty list', async () => {
    const { q } = combatantQueries(undefined, 2);
    expect(await q.combatants('f1')).toEqual(both);
  });

  it('given a minSeq past the store’s head, when the combatants are asked, then 422 SEQ_OUT_OF_RANGE naming minSeq', async () => {
    const { q } = combatantQueries(3, 3);
    await expect(q.combatants('f1', 9)).rejects.toMatchObject({ code: 'SEQ_OUT_OF_RANGE', field: 'minSeq' });
  });
});
