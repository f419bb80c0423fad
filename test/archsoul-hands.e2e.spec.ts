import { bow, unarmed as base, sword } from '../libs/rules/spec/archsoul/helpers';
import { useApp } from './support/app';

/** The rules review's Archsoul cases through REST, with manual dice (S15): hands (S51, S52), the view, S53, S54. */

const greatsword = { id: 'greatsword', name: 'Greatsword', type: 'melee', damage: 3, twoHanded: true };
const dagger = { id: 'dagger', name: 'Dagger', type: 'melee', damage: 1, handling: 'light' };
const spear = {
  id: 'spear',
  name: 'Spear',
  type: 'melee',
  damage: 2,
  reach: 2,
  twoHanded: true,
  properties: ['spear'],
};
const claws = { id: 'claws', name: 'Claws', type: 'unarmed', damage: 1 };
const shield = { id: 'kite', name: 'Kite shield', bonus: 2 };

type Event = { type: string; data: any };
type Result = { events: Event[]; view: any };
const types = (r: Result) => r.events.map((e) => e.type);
const data = (r: Result, type: string) => r.events.find((e) => e.type === type)?.data;
const who = (view: any, id: string) => view.combatants.find((c: any) => c.id === id);

describe('Archsoul rules review end to end: hands, draws, the view, Quick Attack, Trample (manual dice)', () => {
  const t = useApp();

  const fight = async (
    combatants: Array<{
      id: string;
      side: string;
      sheet: Record<string, unknown>;
      at: [number, number];
      facing: string;
    }>,
    options: Record<string, unknown> = {},
  ) => {
    const setup = {
      system: 'archsoul',
      name: 'Hands',
      dice: { mode: 'manual' },
      options,
      combatants: combatants.map(({ id, side, sheet }) => ({
        id,
        name: id,
        side,
        sheet: { ...base, ...sheet },
      })),
    };
    const { body } = await t.http.post('/fights').send(setup).expect(201);
    const url = `/fights/${body.fightId}/commands`;
    const send = async (cmd: Record<string, unknown>): Promise<Result> =>
      (await t.http.post(url).send(cmd).expect(200)).body;
    const refuse = async (cmd: Record<string, unknown>) =>
      (await t.http.post(url).send(cmd).expect(422)).body as {
        code: string;
        field?: string;
        message: string;
      };
    await send({ type: 'SetMap', grid: 'hex' });
    for (const c of combatants)
      await send({
        type: 'PlaceCombatant',
        combatantId: c.id,
        position: { x: c.at[0], y: c.at[1] },
        facing: c.facing,
      });
    await send({ type: 'SetInitiative', order: combatants.map((c) => c.id) });
    const opened = await send({ type: 'StartRound' });
    return { send, refuse, view: opened.view };
  };

  it('GET /systems/archsoul lists the rulings S51–S54', async () => {
    const system = (await t.http.get('/systems/archsoul').expect(200)).body;
    expect(system.rulings.map((r: { id: string }) => r.id)).toEqual(
      expect.arrayContaining(['S51', 'S52', 'S53', 'S54']),
    );
  });

  it('S51 through REST: a sheet holding more than two hands can is a 422 naming the field', async () => {
    const over = { ...base, weapons: [{ ...greatsword, held: true }], shield: { ...shield, held: true } };
    const res = await t.http
      .post('/fights')
      .send({
        system: 'archsoul',
        name: 'Over-full',
        dice: { mode: 'manual' },
        combatants: [{ id: 'a', name: 'A', side: 'heroes', sheet: over }],
      })
      .expect(422);
    expect(res.body).toMatchObject({ code: 'INVALID_FIELD', field: 'combatants[0].sheet.shield.held' });
    expect(res.body.message).toContain('Greatsword (two-handed) already fills both hands');
  });

  it('S51 through REST: a greatsword fills both hands, so no dagger or shield beside it; dropped, the hands take a dagger and a shield (S52: Draw Awkward Item)', async () => {
    const { send, refuse, view } = await fight([
      {
        id: 'brann',
        side: 'heroes',
        sheet: { weapons: [greatsword, dagger, spear], shield },
        at: [0, 0],
        facing: 'N',
      },
      { id: 'orc', side: 'enemies', sheet: { weapons: [sword] }, at: [0, -4], facing: 'S' },
    ]);
    expect(who(view, 'brann')).toMatchObject({
      held: ['greatsword'],
      hands: ['greatsword', 'greatsword'],
      freeHands: 0,
      shieldBonus: 0,
    });
    expect(who(view, 'brann').weapons.map((w: any) => [w.id, w.held])).toEqual([
      ['greatsword', true],
      ['dagger', false],
      ['spear', false],
    ]);
    expect(await refuse({ type: 'DrawSimpleItem', combatantId: 'brann', itemId: 'dagger' })).toMatchObject({
      code: 'ARCHSOUL_HANDS_FULL',
      field: 'itemId',
    });
    const equip = await refuse({ type: 'DrawAwkwardItem', combatantId: 'brann', itemId: 'kite' });
    expect(equip).toMatchObject({ code: 'ARCHSOUL_HANDS_FULL', field: 'itemId' });
    expect(equip.message).toContain('Greatsword (both hands)');

    const dropped = await send({ type: 'DropItem', combatantId: 'brann', itemId: 'greatsword' });
    expect(who(dropped.view, 'brann')).toMatchObject({ hands: [null, null], freeHands: 2 });
    // S52: a shield is equipped, not drawn simply; the refusal quotes that clause.
    const simple = await refuse({ type: 'DrawSimpleItem', combatantId: 'brann', itemId: 'kite' });
    expect(simple).toMatchObject({ code: 'ARCHSOUL_AWKWARD_ITEM', field: 'itemId' });
    expect(simple.message).toContain('"equip a shield"');
    expect(simple.message).not.toContain('two-handed');
    const drawn = await send({ type: 'DrawSimpleItem', combatantId: 'brann', itemId: 'dagger' });
    expect(data(drawn, 'ApSpent')).toMatchObject({ action: 'drawSimpleItem', ap: 1 });
    const equipped = await send({ type: 'DrawAwkwardItem', combatantId: 'brann', itemId: 'kite' });
    expect(data(equipped, 'ApSpent')).toMatchObject({ action: 'drawAwkwardItem', ap: 2 });
    expect(who(equipped.view, 'brann')).toMatchObject({
      held: ['dagger', 'kite'],
      hands: ['dagger', 'kite'],
      freeHands: 0,
      shieldBonus: 2,
    });
  });

  it('S52 through REST: a two-handed weapon is drawn with Draw Awkward Item (2 AP), a spear wielded two-handed with Draw Simple Item (1 AP)', async () => {
    const { send, refuse } = await fight([
      {
        id: 'brann',
        side: 'heroes',
        sheet: {
          weapons: [
            { ...greatsword, held: false },
            { ...spear, held: false },
          ],
        },
        at: [0, 0],
        facing: 'N',
      },
      { id: 'orc', side: 'enemies', sheet: { weapons: [sword] }, at: [0, -4], facing: 'S' },
    ]);
    const refused = await refuse({ type: 'DrawSimpleItem', combatantId: 'brann', itemId: 'greatsword' });
    expect(refused).toMatchObject({ code: 'ARCHSOUL_AWKWARD_ITEM', field: 'itemId' });
    expect(refused.message).toContain('"Draw a two-handed weapon"');
    const spearDrawn = await send({ type: 'DrawSimpleItem', combatantId: 'brann', itemId: 'spear' });
    expect(data(spearDrawn, 'ApSpent')).toMatchObject({ action: 'drawSimpleItem', ap: 1 });
    expect(who(spearDrawn.view, 'brann').hands).toEqual(['spear', 'spear']);
    await send({ type: 'DropItem', combatantId: 'brann', itemId: 'spear' });
    const great = await send({ type: 'DrawAwkwardItem', combatantId: 'brann', itemId: 'greatsword' });
    expect(data(great, 'ApSpent')).toMatchObject({ action: 'drawAwkwardItem', ap: 2 });
    expect(who(great.view, 'brann').hands).toEqual(['greatsword', 'greatsword']);
    // The sheet's stowage cannot contradict the text.
    const bad = { ...base, weapons: [{ ...greatsword, stowage: 'simple' }] };
    const res = await t.http
      .post('/fights')
      .send({
        system: 'archsoul',
        name: 'Bad stowage',
        dice: { mode: 'manual' },
        combatants: [{ id: 'a', name: 'A', side: 'heroes', sheet: bad }],
      })
      .expect(422);
    expect(res.body).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'combatants[0].sheet.weapons[0].stowage',
    });
  });

  it('S52 through REST: a shield dropped and picked up (1 AP) is carried, not equipped, until Draw Awkward Item equips it (2 AP)', async () => {
    const { send } = await fight([
      { id: 'brann', side: 'heroes', sheet: { weapons: [sword], shield }, at: [0, 0], facing: 'N' },
      { id: 'orc', side: 'enemies', sheet: { weapons: [sword] }, at: [0, -4], facing: 'S' },
    ]);
    const dropped = await send({ type: 'DropItem', combatantId: 'brann', itemId: 'kite' });
    const groundId = dropped.view.ground[0].groundId;
    const picked = await send({ type: 'DrawSimpleItem', combatantId: 'brann', groundId });
    expect(data(picked, 'ApSpent')).toMatchObject({ action: 'drawSimpleItem', ap: 1 });
    expect(who(picked.view, 'brann')).toMatchObject({ held: ['sword'], freeHands: 1, shieldBonus: 0 });
    expect(picked.view.ground).toEqual([]);
    const equipped = await send({ type: 'DrawAwkwardItem', combatantId: 'brann', itemId: 'kite' });
    expect(data(equipped, 'ApSpent')).toMatchObject({ action: 'drawAwkwardItem', ap: 2, apLeft: 0 });
    expect(who(equipped.view, 'brann')).toMatchObject({ hands: ['sword', 'kite'], shieldBonus: 2 });
  });

  it('the view through REST shows the speed a Move allows (ankle sprain, mount) and a grappled combatant’s Shield Bonus of 0', async () => {
    const { send, refuse, view } = await fight(
      [
        {
          id: 'rider',
          side: 'heroes',
          sheet: { weapons: [bow], mount: { name: 'Horse', speed: 6 } },
          at: [3, 0],
          facing: 'N',
        },
        { id: 'kael', side: 'heroes', sheet: { weapons: [sword] }, at: [0, 0], facing: 'N' },
        { id: 'wolf', side: 'heroes', sheet: { weapons: [claws] }, at: [-1, -1], facing: 'NE' },
        { id: 'knight', side: 'enemies', sheet: { weapons: [sword], shield }, at: [0, -1], facing: 'S' },
      ],
      { arrowBreakage: false },
    );
    expect(who(view, 'rider')).toMatchObject({ speed: 6, baseSpeed: 3, mounted: true });
    expect(who(view, 'knight')).toMatchObject({ shieldBonus: 2 });
    // Kael's punch fumbles (no success, two 1s): the unarmed table's 2, "Ankle sprains, decreasing movement by 1 for one round".
    await send({ type: 'DropItem', combatantId: 'kael', itemId: 'sword' });
    const fumble = await send({
      type: 'Attack',
      attackerId: 'kael',
      targetId: 'knight',
      dice: [1, 1, 2],
      followUpFaces: [2],
    });
    expect(data(fumble, 'CriticalFailureRolled')).toMatchObject({ table: 'unarmed', face: 2 });
    expect(who(fumble.view, 'kael')).toMatchObject({ speed: 2, baseSpeed: 3 });
    expect(
      await refuse({
        type: 'Move',
        combatantId: 'kael',
        path: [
          { x: 0, y: 1 },
          { x: 0, y: 2 },
          { x: 0, y: 3 },
        ],
      }),
    ).toMatchObject({ code: 'ARCHSOUL_MOVE_TOO_FAR', field: 'path' });
    await send({ type: 'EndTurn', combatantId: 'kael' });
    const off = await send({ type: 'Dismount', combatantId: 'rider' });
    expect(who(off.view, 'rider')).toMatchObject({ speed: 3, mounted: false });
    await send({ type: 'EndTurn', combatantId: 'rider' });
    // The wolf (claws: worn, a hand free) grabs the knight from its side: grappled, no front arc, no Shield Bonus.
    const grab = await send({
      type: 'Grab',
      combatantId: 'wolf',
      targetId: 'knight',
      dice: [4, 4, 1, 4, 1, 1],
    });
    expect(who(grab.view, 'knight')).toMatchObject({
      shieldBonus: 0,
      hasFrontArc: false,
      held: ['sword', 'kite'],
    });
    await send({ type: 'EndRound' });
    await send({ type: 'StartRound' });
    const shot = await send({
      type: 'Attack',
      attackerId: 'rider',
      targetId: 'knight',
      weaponId: 'bow',
      dice: [1, 2, 3, 2],
    });
    expect(data(shot, 'ExchangeResolved')).toMatchObject({ shieldBonus: 0 });
  });

  it('S53, S54 through REST: a Quick Attack with the sword after a reactive attack with it in the enemies’ phase; a trample from the back arc', async () => {
    const { send, view } = await fight([
      { id: 'orc', side: 'enemies', sheet: { weapons: [sword] }, at: [0, -1], facing: 'S' },
      { id: 'imp', side: 'enemies', sheet: { weapons: [sword], size: 'small' }, at: [4, -2], facing: 'N' },
      { id: 'kael', side: 'heroes', sheet: { weapons: [sword] }, at: [0, 0], facing: 'N' },
      {
        id: 'sera',
        side: 'heroes',
        sheet: { weapons: [sword], mount: { name: 'Warhorse', speed: 3, size: 'large', trampleDamage: 3 } },
        at: [4, 0],
        facing: 'N',
      },
    ]);
    expect(view.phase).toMatchObject({ party: 'enemies' });
    // S53: the orc walks out of Kael's reach and front arc; Kael reacts with his sword (a miss).
    await send({ type: 'Move', combatantId: 'orc', path: [{ x: 0, y: -2 }] });
    const reacted = await send({
      type: 'ReactiveAttack',
      combatantId: 'kael',
      weaponId: 'sword',
      dice: [2, 3, 2, 3],
    });
    expect(who(reacted.view, 'kael').attackedWith).toEqual(['sword']);
    await send({ type: 'ResumeAction', combatantId: 'orc' });
    await send({ type: 'Move', combatantId: 'orc', path: [{ x: 0, y: -1 }] });
    const heroes = await send({ type: 'EndPhase' });
    expect(heroes.view.phase).toMatchObject({ party: 'heroes' });
    expect(who(heroes.view, 'kael')).toMatchObject({ inTurn: true, attackedWith: [] });
    const quick = await send({
      type: 'Attack',
      attackerId: 'kael',
      targetId: 'orc',
      weaponId: 'sword',
      special: 'quick',
      dice: [2, 3, 2, 3],
    });
    expect(data(quick, 'ExchangeResolved')).toMatchObject({ special: 'quick', weaponId: 'sword' });

    // S54: Sera rides through the Imp from its back arc: it cannot stop her, and the Warhorse tramples it (4, 4, 1: 2).
    const ride = await send({
      type: 'Move',
      combatantId: 'sera',
      path: [
        { x: 4, y: -1 },
        { x: 4, y: -2 },
        { x: 4, y: -3 },
      ],
      trample: true,
      dice: [4, 4, 1],
    });
    expect(types(ride)).toEqual(['ApSpent', 'WoundsApplied', 'Moved']);
    expect(data(ride, 'WoundsApplied')).toMatchObject({ combatantId: 'imp', damage: 2 });
    expect(who(ride.view, 'sera').position).toEqual({ x: 4, y: -3 });
  });
});
