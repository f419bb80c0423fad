import { useApp } from './support/app';
import { overGraphql, overRest } from './support/fight-calls';

const sword = { id: 'sword', name: 'Sword', type: 'melee', damage: 2 };
const lance = { id: 'lance', name: 'Lance', type: 'melee', damage: 3, properties: ['lance'] };
const rend = { id: 'rend', name: 'Rending', type: 'soul', accurateRange: 6, maximumRange: 10 };
const base = {
  attributes: { precision: 2, athletics: 2, endurance: 2, soulpower: 1, intellect: 1 },
  skills: { awareness: 1, meleeWeapons: 2, primitiveAttacks: 1, weaponMastery: 1, resolve: 1 },
  maxHp: 10,
  defense: 1,
};

type Event = { type: string; data: any };
type Result = { events: Event[]; view: any };
type Send = (cmd: Record<string, unknown>) => Promise<Result>;
type Refuse = (cmd: Record<string, unknown>) => Promise<{ code: string; field?: string }>;
const types = (r: Result) => r.events.map((e) => e.type);
const data = (r: Result, type: string) => r.events.find((e) => e.type === type)?.data;
const who = (view: any, id: string) => view.combatants.find((c: any) => c.id === id);

/** S40–S43: a rider on a hex map, with manual dice (S15). */
const ride = {
  setup: {
    system: 'archsoul',
    name: 'The toll bridge',
    dice: { mode: 'manual' },
    combatants: [
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
      {
        id: 'imp',
        name: 'Imp',
        side: 'enemies',
        sheet: { ...base, size: 'small', trampleResponse: 'avoid', weapons: [sword] },
      },
      { id: 'guard', name: 'Guard', side: 'enemies', sheet: { ...base, weapons: [sword] } },
    ],
  },
  opening: [
    { type: 'SetMap', grid: 'hex' },
    { type: 'PlaceCombatant', combatantId: 'sera', position: { x: 0, y: 0 }, facing: 'N' },
    { type: 'PlaceCombatant', combatantId: 'imp', position: { x: 0, y: -1 }, facing: 'N' },
    { type: 'PlaceCombatant', combatantId: 'guard', position: { x: -1, y: -1 }, facing: 'NE' },
    { type: 'SetInitiative', order: ['sera', 'imp', 'guard'] },
    { type: 'StartRound' },
  ],
};

async function riding(send: Send, refuse: Refuse): Promise<void> {
  for (const cmd of ride.opening) await send(cmd);
  // S41: the map has no height.
  expect(
    await refuse({ type: 'Move', combatantId: 'sera', path: [{ x: 0, y: -1 }], jump: true, vertical: true }),
  ).toMatchObject({ code: 'ARCHSOUL_VERTICAL_JUMP', field: 'vertical' });

  // Sera tramples through the Imp (it lets her pass); leaving its space, the Guard hits (2 > 1; 2 damage; her roll 0): stopped inside.
  const move = await send({
    type: 'Move',
    combatantId: 'sera',
    path: [
      { x: 0, y: -1 },
      { x: 0, y: -2 },
    ],
    trample: true,
  });
  expect(types(move)).toEqual(['ApSpent', 'Moved', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
  const hit = await send({
    type: 'ReactiveAttack',
    combatantId: 'guard',
    weaponId: 'sword',
    dice: [4, 4, 1, 2, 4, 4, 1, 1, 1, 1, 1, 1],
  });
  expect(data(hit, 'PreventionRolled')).toMatchObject({ damage: 2, prevented: true });
  expect(who(hit.view, 'sera')).toMatchObject({ position: { x: 0, y: -1 }, hp: 8, mounted: true });

  // S42: Dismount and Mount, 1 AP each, no reactive attacks; the horse waits in her space.
  const off = await send({ type: 'Dismount', combatantId: 'sera' });
  expect(types(off)).toEqual(['ApSpent', 'Dismounted']);
  expect(data(off, 'Dismounted')).toMatchObject({ at: { x: 0, y: -1 } });
  const on = await send({ type: 'Mount', combatantId: 'sera' });
  expect(types(on)).toEqual(['ApSpent', 'Mounted']);
  expect(who(on.view, 'sera')).toMatchObject({ mounted: true, ap: 0 });

  // S43: she cannot end her turn in the Imp's space, even when the GM ends the phase for her.
  const phase = await send({ type: 'EndPhase' });
  expect(types(phase).slice(0, 3)).toEqual(['Moved', 'TurnEnded', 'PhaseEnded']);
  expect(data(phase, 'Moved')).toMatchObject({
    combatantId: 'sera',
    action: 'pushed',
    from: { x: 0, y: -1 },
    distance: 1,
  });
  expect(phase.view.phase).toMatchObject({ party: 'enemies' });
  const landed = who(phase.view, 'sera').position;
  expect(landed).not.toEqual({ x: 0, y: -1 });

  // S40: the GM's fall: no AP, prone, off the horse, the GM's damage.
  const fall = await send({ type: 'Fall', combatantId: 'sera', damage: 3, metres: 6 });
  expect(types(fall)).toEqual(['Fell', 'Dismounted', 'ConditionApplied', 'WoundsApplied']);
  expect(data(fall, 'Dismounted')).toMatchObject({ at: landed });
  expect(data(fall, 'WoundsApplied')).toMatchObject({ source: 'fall (6 m)', damage: 3, hp: 5 });
  expect(who(fall.view, 'sera')).toMatchObject({ mounted: false, conditions: [{ condition: 'prone' }] });
}

/** S44–S47: a soul caster beside a lamp-bearer, with manual dice (S15). */
const cast = {
  setup: {
    system: 'archsoul',
    name: 'The lamplit crypt',
    dice: { mode: 'manual' },
    combatants: [
      {
        id: 'kael',
        name: 'Kael',
        side: 'heroes',
        sheet: { ...base, skills: { ...base.skills, soulCasting: 2 }, weapons: [sword, rend] },
      },
      {
        id: 'lamp',
        name: 'Lamp-bearer',
        side: 'enemies',
        sheet: {
          ...base,
          weapons: [{ ...sword, held: false }],
          items: [{ id: 'lantern', name: 'Lantern', stowage: 'simple', held: true }],
        },
      },
      { id: 'ghoul', name: 'Ghoul', side: 'enemies', sheet: { ...base, weapons: [sword] } },
      { id: 'warden', name: 'Warden', side: 'enemies', sheet: { ...base, weapons: [sword] } },
    ],
  },
  opening: [
    { type: 'SetMap', grid: 'hex' },
    { type: 'PlaceCombatant', combatantId: 'kael', position: { x: 0, y: 0 }, facing: 'N' },
    { type: 'PlaceCombatant', combatantId: 'lamp', position: { x: 1, y: -1 }, facing: 'N' },
    { type: 'PlaceCombatant', combatantId: 'ghoul', position: { x: 0, y: -3 }, facing: 'S' },
    { type: 'PlaceCombatant', combatantId: 'warden', position: { x: 0, y: 1 }, facing: 'N' },
    { type: 'SetInitiative', order: ['kael', 'lamp', 'ghoul', 'warden'] },
    { type: 'StartRound' },
  ],
};

async function casting(send: Send, refuse: Refuse): Promise<void> {
  for (const cmd of cast.opening) await send(cmd);
  // S44: the lantern is an ordinary item with no weapon roll to defend it.
  expect(
    await refuse({
      type: 'Attack',
      attackerId: 'kael',
      targetId: 'lamp',
      weaponId: 'sword',
      shatter: { itemId: 'lantern' },
    }),
  ).toMatchObject({ code: 'ARCHSOUL_SHATTER_ORDINARY_ITEM', field: 'shatter.itemId' });

  // S46: a ritual that provokes: the Warden, behind him with Kael in its reach and front arc, may react first; it declines.
  const ritual = {
    name: 'Circle of Salt',
    description: 'a salt ring the dead will not cross',
    ap: 1,
    movement: false,
    provokes: true,
  };
  expect(await refuse({ type: 'PerformRitual', combatantId: 'kael', ...ritual, ap: 4 })).toMatchObject({
    code: 'INVALID_FIELD',
    field: 'ap',
  });
  const held = await send({ type: 'PerformRitual', combatantId: 'kael', ...ritual });
  expect(data(held, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'ritual', reactorIds: ['warden'] });
  await send({ type: 'DeclineReactiveAttack', combatantId: 'warden' });
  const performed = await send({ type: 'ResumeAction', combatantId: 'kael' });
  expect(types(performed)).toEqual(['ActionResumed', 'RitualPerformed']);
  expect(data(performed, 'RitualPerformed')).toEqual({ combatantId: 'kael', ...ritual });

  // S45: Rending the Ghoul (soul magic: the Warden declines again) fails critically: soul table 5 shifts Kael 2 m, out of
  // the Warden's reach and front arc, without a reactive attack.
  await send({ type: 'Attack', attackerId: 'kael', targetId: 'ghoul', weaponId: 'rend' });
  await send({ type: 'DeclineReactiveAttack', combatantId: 'warden' });
  const fumble = await send({
    type: 'ResumeAction',
    combatantId: 'kael',
    dice: [1, 1, 2, 3, 3],
    followUpFaces: [5],
  });
  expect(data(fumble, 'CriticalFailureRolled')).toMatchObject({ table: 'soul', face: 5 });
  expect(data(fumble, 'Moved')).toMatchObject({
    combatantId: 'kael',
    action: 'shift',
    from: { x: 0, y: 0 },
    to: { x: 0, y: -1 },
  });
  expect(types(fumble)).not.toContain('ReactiveAttackTriggered');
  expect(fumble.view.pending).toBeNull();
  await send({ type: 'EndTurn', combatantId: 'kael' });

  // S47: the Lamp-bearer grabs Kael from his side (2 against 1), then the GM drops Kael into a pit: the grapple ends.
  const grab = await send({ type: 'Grab', combatantId: 'lamp', targetId: 'kael', dice: [4, 4, 1, 4, 1, 1] });
  expect(grab.view.grapples).toEqual([{ grappleId: 'gr1', memberIds: ['lamp', 'kael'], controlId: 'lamp' }]);
  const fall = await send({ type: 'Fall', combatantId: 'kael', damage: 2, metres: 4 });
  expect(types(fall)).toEqual([
    'Fell',
    'GrappleEnded',
    'ConditionRemoved',
    'ConditionRemoved',
    'ConditionApplied',
    'WoundsApplied',
  ]);
  expect(fall.view.grapples).toEqual([]);
  expect(who(fall.view, 'lamp').conditions).toEqual([]);
  expect(who(fall.view, 'kael')).toMatchObject({ hp: 8, conditions: [{ condition: 'prone' }] });
}

describe('Archsoul rulings S40–S47 end to end (manual dice)', () => {
  const t = useApp();

  const rest = (setup: object) => overRest(t, setup);
  const graphql = (setup: object) => overGraphql(t, setup);

  it('lists PerformRitual and the rulings S40–S49', async () => {
    const system = (await t.http.get('/systems/archsoul').expect(200)).body;
    expect(system.commands.map((c: any) => c.type)).toContain('PerformRitual');
    expect(system.rulings.map((r: any) => r.id)).toEqual(
      expect.arrayContaining(['S40', 'S43', 'S46', 'S47', 'S48', 'S49']),
    );
  });

  it('S40–S43 through REST: a vertical jump refused, a rider stopped in a trampled space dismounts and mounts, is pushed out when the GM ends the phase, then falls', async () => {
    const { send, refuse } = await rest(ride.setup);
    await riding(send, refuse);
  });

  it('S40–S43 through GraphQL, with the same numbers', async () => {
    const { send, refuse } = await graphql(ride.setup);
    await riding(send, refuse);
  });

  it('S44–S47 through REST: a shatter on a lantern refused, a provoking ritual, the critical shift, a fall that ends a grapple', async () => {
    const { send, refuse } = await rest(cast.setup);
    await casting(send, refuse);
  });

  it('S44–S47 through GraphQL, with the same numbers', async () => {
    const { send, refuse } = await graphql(cast.setup);
    await casting(send, refuse);
  });
});
