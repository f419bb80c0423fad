import { useApp } from './support/app';

/**
 * C2 (manual dice: "count and range are validated") through REST, for every system: a face sent as a
 * string ("6") is not a face at all. It is refused as a field that must be an integer (422 INVALID_FIELD, naming the
 * face's index), not as "6 is not a face of it", and nothing is appended.
 */

const narateer = {
  system: 'narateer',
  name: 'Faces',
  dice: { mode: 'manual' },
  combatants: [
    {
      id: 'mira',
      name: 'Mira',
      sheet: {
        maxVitality: 8,
        maxAD: 5,
        maxMD: 0,
        vitals: { strength: 2, agility: 3, resilience: 2 },
        skills: { melee: 3, ranged: 0, acrobatics: 1 },
      },
    },
  ],
};
const archsoul = {
  system: 'archsoul',
  name: 'Faces',
  dice: { mode: 'manual' },
  combatants: [
    {
      id: 'kael',
      name: 'Kael',
      side: 'heroes',
      sheet: { attributes: { precision: 2 }, skills: { awareness: 1 }, maxHp: 10 },
    },
  ],
};
const stats = { brawn: 2, agility: 2, endurance: 2, spirit: 2, technique: 2 };
const arcana = {
  system: 'arcana-beast',
  name: 'Faces',
  dice: { mode: 'manual' },
  combatants: [
    {
      id: 'ember',
      name: 'Ember',
      side: 'heroes',
      sheet: {
        kind: 'beast',
        stats,
        hp: 10,
        stamina: 2,
        stage: 1,
        stages: [{ stage: 1 }],
        attacks: [{ id: 'claw', name: 'Claw', range: 'melee' }],
      },
    },
    {
      id: 'ash',
      name: 'Ash',
      side: 'heroes',
      sheet: { kind: 'binder', beastId: 'ember', stats, hp: 10, stamina: 2, inventory: [] },
    },
  ],
};

describe('RULINGS.md C2 through REST: a manual face is an integer; "6" is refused saying so', () => {
  const t = useApp();

  it.each([
    ['narateer', narateer],
    ['archsoul', archsoul],
    ['arcana-beast', arcana],
  ])(
    '%s: RollInitiative with dice ["6"], rerollFaces ["6"] or followUpFaces ["6"] is 422 INVALID_FIELD "must be an integer", nothing appended',
    async (_system, setup) => {
      const { body } = await t.http.post('/fights').send(setup).expect(201);
      const url = `/fights/${body.fightId}/commands`;
      for (const field of ['dice', 'rerollFaces', 'followUpFaces']) {
        const refused = (
          await t.http
            .post(url)
            .send({ type: 'RollInitiative', [field]: [6, '6'] })
            .expect(422)
        ).body;
        expect(refused).toMatchObject({ code: 'INVALID_FIELD', field: `${field}[1]` });
        expect(refused.message).toContain('must be an integer');
        expect(refused.message).not.toContain('is not a face');
      }
      // An integer out of range is the other refusal: not a face of a d6.
      const range = (
        await t.http
          .post(url)
          .send({ type: 'RollInitiative', dice: [7, 7, 7, 7, 7, 7] })
          .expect(422)
      ).body;
      expect(range).toMatchObject({ code: 'DICE_FACE_OUT_OF_RANGE', field: 'dice[0]' });
      // Nothing appended: FightStarted and one CombatantJoined per combatant.
      expect((await t.http.get(`/fights/${body.fightId}?minSeq=${body.seq}`).expect(200)).body.seq).toBe(
        1 + setup.combatants.length,
      );
    },
  );
});
