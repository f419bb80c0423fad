import { useApp } from './support/app';
import { overGraphql, overRest } from './support/fight-calls';

const sword = { id: 'sword', name: 'Sword', type: 'melee', damage: 2 };
const lance = { id: 'lance', name: 'Lance', type: 'melee', damage: 3, properties: ['lance'] };
const bomb = {
  id: 'bomb',
  name: 'Bomb',
  type: 'thrown',
  damage: 3,
  accurateRange: 3,
  maximumRange: 6,
  areaRadius: 2,
  weakAgainst: ['plate'],
};
const base = {
  attributes: { precision: 2, athletics: 2, endurance: 2, soulpower: 1, intellect: 1 },
  skills: { awareness: 1, meleeWeapons: 2, primitiveAttacks: 1, weaponMastery: 1, resolve: 1 },
  maxHp: 10,
  defense: 1,
};
const setup = {
  system: 'archsoul',
  name: 'Ambush at the mill',
  dice: { mode: 'manual' },
  combatants: [
    {
      id: 'kael',
      name: 'Kael',
      side: 'heroes',
      sheet: {
        ...base,
        skills: { ...base.skills, confusion: 2 },
        armour: { type: 'plate', metal: true },
        weapons: [sword],
      },
    },
    {
      id: 'sera',
      name: 'Sera',
      side: 'heroes',
      sheet: {
        ...base,
        weapons: [lance],
        mount: { name: 'Warhorse', speed: 3, size: 'large', trampleDamage: 3 },
      },
    },
    { id: 'brute', name: 'Brute', side: 'enemies', sheet: { ...base, weapons: [sword] } },
    { id: 'scout', name: 'Scout', side: 'enemies', sheet: { ...base, weapons: [sword] } },
    { id: 'bomber', name: 'Bomber', side: 'enemies', sheet: { ...base, weapons: [bomb] } },
  ],
};
const opening = [
  { type: 'SetMap', grid: 'hex' },
  { type: 'PlaceCombatant', combatantId: 'kael', position: { x: 0, y: 0 }, facing: 'N' },
  { type: 'PlaceCombatant', combatantId: 'sera', position: { x: 4, y: 0 }, facing: 'N' },
  { type: 'PlaceCombatant', combatantId: 'brute', position: { x: 0, y: -1 }, facing: 'S' },
  { type: 'PlaceCombatant', combatantId: 'scout', position: { x: 4, y: -4 }, facing: 'S' },
  { type: 'PlaceCombatant', combatantId: 'bomber', position: { x: -4, y: 2 }, facing: 'NE' },
  { type: 'SetInitiative', order: ['kael', 'sera', 'brute', 'scout', 'bomber'] },
  { type: 'StartRound' },
];

type Send = (cmd: Record<string, unknown>) => Promise<{ events: { type: string; data: any }[]; view: any }>;
type Refuse = (cmd: Record<string, unknown>) => Promise<{ code: string; field?: string }>;
const data = (r: { events: { type: string; data: any }[] }, type: string) =>
  r.events.find((e) => e.type === type)?.data;
const who = (view: any, id: string) => view.combatants.find((c: any) => c.id === id);

/** The scenario: a feint into a knockdown, a charge, a grapple and an area attack, with manual dice (S15). */
async function scenario(send: Send, refuse: Refuse): Promise<void> {
  for (const cmd of opening) await send(cmd);
  expect(
    await refuse({
      type: 'Attack',
      attackerId: 'kael',
      targetId: 'brute',
      weaponId: 'sword',
      feint: true,
      sneak: true,
    }),
  ).toMatchObject({ code: 'ARCHSOUL_MANEUVER_COMBINATION', field: 'sneak' });

  // Kael feints (2 against the Brute's 1), turns it away, then knocks it down from its back arc (damage 2 > Athletics/Resolve 1).
  const feint = await send({
    type: 'Attack',
    attackerId: 'kael',
    targetId: 'brute',
    weaponId: 'sword',
    feint: { facing: 'N' },
    knockdown: true,
    dice: [5, 5, 1, 1, 4, 4, 4, 1, 2, 3, 1, 1, 4, 4, 1, 1, 1],
  });
  expect(feint.events.map((e) => e.type)).toEqual([
    'ApSpent',
    'FeintResolved',
    'Turned',
    'ExchangeResolved',
    'KnockdownResolved',
    'ConditionApplied',
  ]);
  expect(data(feint, 'ExchangeResolved')).toMatchObject({
    targetArc: 'back',
    hit: true,
    maneuvers: ['feint', 'knockdown'],
  });
  expect(who(feint.view, 'brute')).toMatchObject({
    hp: 10,
    facing: 'N',
    conditions: [{ condition: 'prone' }],
  });

  // Sera charges three spaces straight at the Scout: the Lance's damage pool gains the horse's speed 3 (9 dice).
  const charge = await send({
    type: 'Charge',
    combatantId: 'sera',
    path: [
      { x: 4, y: -1 },
      { x: 4, y: -2 },
      { x: 4, y: -3 },
    ],
    targetId: 'scout',
    weaponId: 'lance',
    dice: [4, 4, 1, 2, 4, 4, 4, 1, 1, 1, 1, 1, 1],
  });
  expect(data(charge, 'ApSpent')).toMatchObject({ action: 'charge', ap: 3, apLeft: 0 });
  expect(data(charge, 'WoundsApplied')).toMatchObject({
    combatantId: 'scout',
    damage: 3,
    damageRoll: { pool: 9 },
  });
  await send({ type: 'EndTurn', combatantId: 'kael' });
  const phase = await send({ type: 'EndTurn', combatantId: 'sera' });
  expect(phase.view.phase).toMatchObject({ party: 'enemies' });
  await send({ type: 'EndTurn', combatantId: 'brute' });

  // The Scout grabs Sera: Sera may react first (declines); then 2 unarmed successes against 1.
  const grab = await send({ type: 'Grab', combatantId: 'scout', targetId: 'sera' });
  expect(grab.view.pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'sera' });
  await send({ type: 'DeclineReactiveAttack', combatantId: 'sera' });
  const held = await send({ type: 'ResumeAction', combatantId: 'scout', dice: [4, 4, 1, 4, 1, 1] });
  expect(held.view.grapples).toEqual([
    { grappleId: 'gr1', memberIds: ['scout', 'sera'], controlId: 'scout' },
  ]);
  expect(who(held.view, 'sera')).toMatchObject({ hasFrontArc: false });
  expect(
    await refuse({ type: 'Attack', attackerId: 'scout', targetId: 'sera', weaponId: 'sword' }),
  ).toMatchObject({ code: 'ARCHSOUL_GRAPPLED', field: 'weaponId' });

  // The Bomber's bomb at Kael's space: one roll 6,5,1, recounted — Kael (plate, weak against: 6) 1, the Brute (5) 2.
  const blast = await send({
    type: 'AreaAttack',
    attackerId: 'bomber',
    weaponId: 'bomb',
    centre: { x: 0, y: 0 },
    dice: [6, 5, 1, 4, 4, 1, 1, 1, 1],
  });
  expect(
    data(blast, 'AreaAttackResolved').targets.map((t: any) => [t.targetId, t.difficulty, t.successes, t.hit]),
  ).toEqual([
    ['kael', 6, 1, false],
    ['brute', 5, 2, true],
  ]);
  expect(
    blast.events.filter((e) => e.type === 'WoundsApplied').map((e) => [e.data.combatantId, e.data.damage]),
  ).toEqual([['brute', 2]]);
  expect([who(blast.view, 'kael').hp, who(blast.view, 'brute').hp, who(blast.view, 'scout').hp]).toEqual([
    10, 8, 7,
  ]);
}

describe('Archsoul maneuvers end to end: feint into knockdown, charge, grapple, area attack (manual dice)', () => {
  const t = useApp();

  it('lists the maneuver commands and rulings S27–S37', async () => {
    const system = (await t.http.get('/systems/archsoul').expect(200)).body;
    const text = JSON.stringify(system);
    for (const name of ['Charge', 'Grab', 'AreaAttack', 'HoldFirm', 'Study', 'S27', 'S37'])
      expect(text).toContain(name);
  });

  it('through REST', async () => {
    const { send, refuse } = await overRest(t, setup);
    await scenario(send, refuse);
  });

  it('through GraphQL, with the same numbers', async () => {
    const { send, refuse } = await overGraphql(t, setup);
    await scenario(send, refuse);
  });
});
