import { useApp } from './support/app';
import { sword as blade } from './support/archsoul-sheets';
import { mace, sword } from './support/narateer-sheets';

/**
 * C12 through both transports, with real player tokens: a player's command that carries a GM-only
 * field, or answers for a combatant the token does not hold, is refused with 403, the code and the field, and
 * the fight's log does not move; the same command without the field, or from the GM, goes through.
 */
type Cmd = Record<string, unknown>;
interface Answer {
  status: number;
  body: any;
}

const narateerSheet = (weapon: Cmd) => ({
  vitals: { strength: 2, agility: 2, resilience: 2 },
  skills: { melee: 3, ranged: 0, acrobatics: 1 },
  maxVitality: 8,
  maxAD: 5,
  maxMD: 0,
  armour: { soak: 1 },
  weapons: [weapon],
});

const stats = (brawn: number, agility: number) => ({ brawn, agility, endurance: 2, spirit: 3, technique: 2 });
const beast = (attackId: string) => ({
  kind: 'beast',
  stats: stats(2, 2),
  hp: 12,
  stamina: 2,
  stage: 1,
  stages: [{ stage: 1 }],
  attacks: [{ id: attackId, name: attackId, range: 'melee' }],
});
const binder = (beastId: string) => ({
  kind: 'binder',
  beastId,
  stats: stats(1, 2),
  hp: 30,
  stamina: 3,
  inventory: [],
});

const archsoulSheet = {
  attributes: { precision: 2, athletics: 2, endurance: 2, soulpower: 1, intellect: 1 },
  skills: { awareness: 1, meleeWeapons: 2, weaponMastery: 1, resolve: 1 },
  maxHp: 30,
  defense: 1,
  weapons: [blade],
};

describe('RULINGS.md C12: a player sets none of the GM’s fields and answers for no one else', () => {
  const t = useApp();

  /** A fight with seeded dice, its opening sent by the GM, and a way to send commands as anyone through `transport`. */
  async function table(transport: 'REST' | 'GraphQL', setup: Cmd, opening: Cmd[]) {
    const created = await t.http
      .post('/fights')
      // A fixed drawKey (C14): the same faces every run, so no critical failure or reactive attack comes by chance.
      .send({ ...setup, dice: { mode: 'seeded', seed: 'player-fields', drawKey: 'player-fields' } })
      .expect(201);
    const id: string = created.body.fightId;
    const send = async (cmd: Cmd, key?: string): Promise<Answer> => {
      if (transport === 'REST') {
        const req = key
          ? t.anon.post(`/fights/${id}/commands`).set('authorization', `Bearer ${key}`)
          : t.http.post(`/fights/${id}/commands`);
        const res = await req.send(cmd);
        return { status: res.status, body: res.body };
      }
      const { type, ...payload } = cmd;
      const res = await t.gql(
        `mutation($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { seq events { type data } } }`,
        { f: id, i: { type, payload } },
        key,
      );
      return res.errors
        ? { status: res.errors[0].extensions.statusCode, body: res.errors[0].extensions }
        : { status: 200, body: res.data.command };
    };
    const log = async () => (await t.http.get(`/fights/${id}/events`).expect(200)).body as { seq: number }[];
    const token = async (combatantIds: string[]) =>
      (await t.http.post(`/fights/${id}/tokens`).send({ role: 'player', combatantIds }).expect(201)).body
        .token as string;
    const gm = async (cmd: Cmd) => {
      const res = await send(cmd);
      expect({ cmd, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({
        cmd,
        status: 200,
        body: undefined,
      });
      return res.body;
    };
    const ok = async (key: string, cmd: Cmd) => {
      const res = await send(cmd, key);
      expect({ cmd, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({
        cmd,
        status: 200,
        body: undefined,
      });
      return res.body;
    };
    /** Refused with 403, `code` and `field`; the log is byte for byte what it was. */
    const refused = async (key: string, cmd: Cmd, code: string, field: string) => {
      const before = await log();
      const res = await send(cmd, key);
      expect({ cmd, status: res.status, code: res.body.code, field: res.body.field }).toEqual({
        cmd,
        status: 403,
        code,
        field,
      });
      expect(res.body.statusCode).toBe(403);
      const after = await log();
      expect(after).toEqual(before);
      expect(after[after.length - 1].seq).toBe(before[before.length - 1].seq);
    };
    for (const cmd of opening) await gm(cmd);
    return { id, token, gm, ok, refused };
  }

  describe.each(['REST', 'GraphQL'] as const)('through %s', (transport) => {
    it('Narateer: the Guide’s circumstances and overrides, forced movement, and another’s response', async () => {
      const f = await table(
        transport,
        {
          system: 'narateer',
          combatants: [
            { id: 'mira', name: 'Mira', sheet: narateerSheet(sword) },
            { id: 'orin', name: 'Orin', sheet: narateerSheet(mace) },
          ],
        },
        [
          { type: 'SetPosition', combatantId: 'mira', position: { x: 0, y: 0 } },
          { type: 'SetPosition', combatantId: 'orin', position: { x: 1, y: 0 } },
          { type: 'SetInitiative', order: ['mira', 'orin'] },
          { type: 'StartRound' },
          { type: 'StartActivation' },
        ],
      );
      const mira = await f.token(['mira']);
      const orin = await f.token(['orin']);
      const declare = {
        type: 'DeclareExchange',
        attackerId: 'mira',
        targetId: 'orin',
        kind: 'melee',
        weaponId: 'sword',
        boost: 0,
      };

      const gmOnly: Cmd = {
        edge: 'advantage',
        responderEdge: 'disadvantage',
        distance: 1,
        attackerUnseen: true,
        attackerCannotSeeTarget: true,
        targetCannotSeeAttacker: true,
        targetUnaware: true,
        harm: 'Elemental (Fire)',
      };
      for (const [field, value] of Object.entries(gmOnly))
        await f.refused(mira, { ...declare, [field]: value }, 'GM_ONLY_FIELD', field);
      // Whatever its value: the field itself is the GM's.
      await f.refused(mira, { ...declare, targetUnaware: false }, 'GM_ONLY_FIELD', 'targetUnaware');
      await f.refused(
        mira,
        { ...declare, response: { response: 'clash', boost: 0, harm: 'Elemental (Fire)' } },
        'GM_ONLY_FIELD',
        'response.harm',
      );
      // Pre-answering Orin's response is answering Orin's decision.
      await f.refused(mira, { ...declare, response: 'none' }, 'NOT_YOUR_COMBATANT', 'response');
      await f.refused(
        mira,
        { type: 'Move', combatantId: 'mira', path: [{ x: -1, y: 0 }], forced: true },
        'GM_ONLY_FIELD',
        'forced',
      );
      await f.refused(
        mira,
        { type: 'Move', combatantId: 'mira', path: [{ x: -1, y: 0 }], noReactions: true },
        'GM_ONLY_FIELD',
        'noReactions',
      );

      // Without them Mira's player declares, and Orin's player answers, without the GM's harm override.
      const declared = await f.ok(mira, declare);
      expect(declared.events.map((e: { type: string }) => e.type)).toEqual(['ExchangeDeclared']);
      await f.refused(
        orin,
        {
          type: 'RespondToExchange',
          combatantId: 'orin',
          response: 'fullGuard',
          boost: 0,
          harm: 'Elemental (Fire)',
        },
        'GM_ONLY_FIELD',
        'harm',
      );
      await f.ok(orin, { type: 'RespondToExchange', combatantId: 'orin', response: 'fullGuard', boost: 0 });

      // A token that also holds the target may answer for it up front.
      const both = await f.token(['mira', 'orin']);
      const answered = await f.ok(both, { ...declare, response: 'fullGuard' });
      expect(
        answered.events.find((e: { type: string }) => e.type === 'ExchangeResponded').data,
      ).toMatchObject({ combatantId: 'orin', response: 'fullGuard', source: 'declaration' });

      // The GM is unaffected.
      const ruled = await f.gm({ ...declare, ...gmOnly, response: { response: 'none' } });
      expect(ruled.events.find((e: { type: string }) => e.type === 'ExchangeDeclared').data).toMatchObject({
        targetUnaware: true,
        harm: { domain: 'Elemental', type: 'Fire' },
      });
      await f.ok(mira, { type: 'Move', combatantId: 'mira', path: [{ x: -1, y: 0 }] });
      await f.gm({
        type: 'Move',
        combatantId: 'mira',
        path: [{ x: 0, y: 0 }],
        forced: true,
        noReactions: true,
      });
    });

    it('Arcana Beast: situational dice, RollTest, and the Intercept of another player’s beast', async () => {
      const f = await table(
        transport,
        {
          system: 'arcana-beast',
          combatants: [
            { id: 'ember', name: 'Ember', side: 'heroes', sheet: beast('claw') },
            { id: 'ash', name: 'Ash', side: 'heroes', sheet: binder('ember') },
            { id: 'pip', name: 'Pip', side: 'heroes', sheet: beast('peck') },
            { id: 'bo', name: 'Bo', side: 'heroes', sheet: binder('pip') },
            { id: 'wolf', name: 'Wolf', side: 'wild', sheet: beast('bite') },
          ],
        },
        [
          { type: 'SetInitiative', order: ['ember', 'ash', 'pip', 'bo', 'wolf'] },
          { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'close' },
          { type: 'SetBand', aId: 'pip', bId: 'ember', band: 'close' },
          { type: 'StartRound' },
          { type: 'StartActivation' },
        ],
      );
      const ash = await f.token(['ash']);
      const bo = await f.token(['bo']);

      // Ember's turn, played by Ash's player.
      await f.refused(
        ash,
        { type: 'Attack', attackerId: 'ember', targetId: 'wolf', bonusDice: 1 },
        'GM_ONLY_FIELD',
        'bonusDice',
      );
      await f.refused(
        ash,
        { type: 'RollTest', combatantId: 'ash', stat: 'spirit', difficulty: 0 },
        'GM_ONLY',
        'type',
      );
      await f.ok(ash, { type: 'Attack', attackerId: 'ember', targetId: 'wolf' });
      await f.ok(ash, { type: 'EndActivation' });

      // Pip's turn: Bo's player may attack Ash but not decide Ember's Intercept.
      await f.gm({ type: 'StartActivation' });
      await f.refused(
        bo,
        { type: 'Attack', attackerId: 'pip', targetId: 'ash', intercept: false },
        'NOT_YOUR_COMBATANT',
        'intercept',
      );
      const asked = await f.ok(bo, { type: 'Attack', attackerId: 'pip', targetId: 'ash' });
      expect(asked.events.map((e: { type: string }) => e.type)).toContain('AttackDeclared');
      await f.ok(ash, { type: 'Intercept', combatantId: 'ember', intercept: false });
      await f.ok(bo, { type: 'EndActivation' });

      // The wolf is the GM's: situational dice and an Intercept answered in advance go through.
      await f.gm({ type: 'StartActivation' });
      const bitten = await f.gm({ type: 'Attack', attackerId: 'wolf', targetId: 'ember', bonusDice: 2 });
      expect(bitten.events.find((e: { type: string }) => e.type === 'AttackResolved').data).toMatchObject({
        bonusDice: 2,
      });
      await f.gm({ type: 'RollTest', combatantId: 'ash', stat: 'spirit', difficulty: 1, bonusDice: 1 });
    });

    it('Archsoul: situational modifiers, the GM’s critical narration and the sheet override', async () => {
      const f = await table(
        transport,
        {
          system: 'archsoul',
          combatants: [
            { id: 'kael', name: 'Kael', side: 'heroes', sheet: archsoulSheet },
            { id: 'brute', name: 'Brute', side: 'enemies', sheet: archsoulSheet },
          ],
        },
        [
          { type: 'SetMap', grid: 'hex' },
          { type: 'PlaceCombatant', combatantId: 'kael', position: { x: 0, y: 0 }, facing: 'N' },
          { type: 'PlaceCombatant', combatantId: 'brute', position: { x: 0, y: -1 }, facing: 'S' },
          { type: 'SetInitiative', order: ['kael', 'brute'] },
          { type: 'StartRound' },
        ],
      );
      const kael = await f.token(['kael']);
      const attack = { type: 'Attack', attackerId: 'kael', targetId: 'brute', weaponId: 'sword' };
      const gmOnly: Cmd = {
        modifier: -2,
        damageModifier: -1,
        criticalNarration: 'The Brute slips in the mud',
        limbArmoured: true,
      };
      for (const [field, value] of Object.entries(gmOnly))
        await f.refused(kael, { ...attack, [field]: value }, 'GM_ONLY_FIELD', field);
      await f.refused(
        kael,
        { type: 'ThrowItem', combatantId: 'kael', itemId: 'sword', targetId: 'brute', modifier: -1 },
        'GM_ONLY_FIELD',
        'modifier',
      );
      await f.ok(kael, attack);
      await f.ok(kael, { type: 'EndTurn', combatantId: 'kael' });

      // The enemies' phase: the GM's Brute attacks with the GM's fields.
      const struck = await f.gm({
        type: 'Attack',
        attackerId: 'brute',
        targetId: 'kael',
        weaponId: 'sword',
        modifier: 1,
        criticalNarration: 'The Brute’s blade snags',
      });
      expect(
        struck.events.find((e: { type: string }) => e.type === 'ExchangeResolved').data.attack.modifiers,
      ).toContainEqual({ reason: 'situational (GM)', amount: 1 });
    });
  });
});
