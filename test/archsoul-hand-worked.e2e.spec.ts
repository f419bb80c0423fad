import { useApp, type TestApp } from './support/app';

/**
 * Archsoul cases worked out by hand from the rule text (archsoul.txt) and the shared rulings (C1–C7, S1–S14), then
 * played over the public REST API with manual dice, every face chosen here (C6: a command carries its
 * pools in the order rolled; table and breakage dice go in followUpFaces).
 *
 * What every case leans on:
 * - S1: a roll "Attribute/Skill at difficulty D" is (attribute + skill) d6; each die showing D or more is
 *   a success. The Attack action’s difficulty defaults to 4.
 * - S3: an attack hits when its successes are greater than Defense (plus the Shield Bonus where it applies).
 * - S4: damage = successes of (the table’s damage attributes/skills + base weapon damage) d6 at 4.
 * - S5: a pointy-topped hex map in axial coordinates (x = q, y = r, r growing downward); a combatant facing
 *   N has every space with a smaller r in its front arc, and its own row and every row below in its back
 *   arc (the text’s hex picture). Facing S is the mirror image.
 * - S16 (listed by GET /systems/archsoul): side "enemies" is the GM’s party, every other side a hero.
 */

type Pos = { x: number; y: number };
type Ev = { type: string; data: any };
type Answer = { events: Ev[]; view: any; seq: number };

const at = (x: number, y: number): Pos => ({ x, y });
const find = (res: Answer, type: string) => {
  const e = res.events.find((x) => x.type === type);
  if (!e) throw new Error(`no ${type} in ${res.events.map((x) => x.type).join(', ')}`);
  return e.data;
};
const types = (res: Answer) => res.events.map((e) => e.type);
const who = (view: any, id: string) => view.combatants.find((c: any) => c.id === id);

interface Sheet {
  attributes?: Partial<Record<'precision' | 'athletics' | 'endurance' | 'soulpower' | 'intellect', number>>;
  skills?: Record<string, number>;
  maxHp?: number;
  defense?: number;
  weapons?: object[];
  [more: string]: unknown;
}
const sheet = ({ maxHp = 10, ...rest }: Sheet) => ({ maxHp, ...rest });
const hero = (id: string, s: Sheet) => ({ id, name: id, side: 'heroes', sheet: sheet(s) });
const enemy = (id: string, s: Sheet) => ({ id, name: id, side: 'enemies', sheet: sheet(s) });

/**
 * A manual-dice fight on a hex map: places everyone, then the opening commands (by default the given
 * initiative order and round 1). `send` expects the status and returns the body.
 */
async function newFight(
  t: TestApp,
  combatants: { id: string }[],
  place: Record<string, [Pos, string]>,
  opts: { order?: string[]; options?: object; start?: boolean } = {},
) {
  const { body } = await t.http
    .post('/fights')
    .send({
      system: 'archsoul',
      name: 'Hand-worked case',
      dice: { mode: 'manual' },
      ...(opts.options ? { options: opts.options } : {}),
      combatants,
    })
    .expect(201);
  const id = body.fightId as string;
  const send = async (cmd: Record<string, unknown>, status = 200) => {
    const r = await t.http.post(`/fights/${id}/commands`).send(cmd);
    if (r.status !== status)
      throw new Error(`${String(cmd.type)}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as Answer & { code?: string; field?: string; message?: string };
  };
  await send({ type: 'SetMap', grid: 'hex' });
  for (const [combatantId, [position, facing]] of Object.entries(place))
    await send({ type: 'PlaceCombatant', combatantId, position, facing });
  if (opts.order) await send({ type: 'SetInitiative', order: opts.order });
  let opened: Answer | undefined;
  if (opts.start !== false && opts.order) opened = await send({ type: 'StartRound' });
  return { id, send, opened };
}

describe('Archsoul worked by hand from archsoul.txt, over the public REST API', () => {
  const t = useApp();

  it('archsoul.txt: Attacking, Armor Advantages: given a chain-armoured Ogre (Defense 2, 12 HP) and two heroes whose weapons are strong against chain, one Armor Piercing, when each attacks, then the attack difficulty is 3, the damage difficulty is 4 without Armor Piercing and 3 with it, for 3 + 2 damage', async () => {
    const f = await newFight(
      t,
      [
        hero('ada', {
          attributes: { precision: 3, athletics: 2 },
          skills: { meleeWeapons: 2, weaponMastery: 1 },
          weapons: [{ id: 'axe', name: 'Axe', damage: 2, strongAgainst: ['chain'] }],
        }),
        hero('bo', {
          attributes: { precision: 2, athletics: 1 },
          skills: { meleeWeapons: 2, weaponMastery: 2 },
          weapons: [{ id: 'pick', name: 'Pick', damage: 1, strongAgainst: ['chain'], armourPiercing: true }],
        }),
        enemy('ogre', { maxHp: 12, defense: 2, armour: { type: 'chain' } }),
      ],
      { ada: [at(0, 1), 'N'], bo: [at(1, 0), 'NW'], ogre: [at(0, 0), 'S'] },
      { order: ['ada', 'bo', 'ogre'] },
    );
    // Ada: Precision 3 + Melee Weapons 2 = 5 dice; difficulty 4 − 1 (strong against chain) = 3.
    // 3, 3, 2, 1, 5 → three dice of 3+ → 3 successes > Defense 2: hit.
    // Damage (Melee Weapon row): Athletics 2 + Weapon Mastery 1 + base 2 = 5 dice at 4 (no Armor Piercing:
    // the advantage does not apply to damage). 4, 4, 3, 6, 1 → 3 damage. Ogre 12 → 9.
    const ada = await f.send({
      type: 'Attack',
      attackerId: 'ada',
      targetId: 'ogre',
      weaponId: 'axe',
      dice: [3, 3, 2, 1, 5, 4, 4, 3, 6, 1],
    });
    expect(types(ada)).toEqual(['ApSpent', 'ExchangeResolved', 'WoundsApplied']);
    expect(find(ada, 'ApSpent')).toMatchObject({ action: 'attack', ap: 2, apLeft: 1 });
    expect(find(ada, 'ExchangeResolved')).toMatchObject({
      attackType: 'melee',
      distance: 1,
      attack: { pool: 5, difficulty: 3, successes: 3, criticalFailure: false },
      defense: 2,
      shieldBonus: 0,
      resistance: 2,
      hit: true,
    });
    expect(find(ada, 'WoundsApplied')).toMatchObject({
      combatantId: 'ogre',
      damageRoll: { pool: 5, difficulty: 4, successes: 3 },
      damage: 3,
      hpBefore: 12,
      hp: 9,
    });
    // Bo: Precision 2 + Melee Weapons 2 = 4 dice at 3. 3, 3, 6, 1 → 3 > 2: hit.
    // Damage: Athletics 1 + Weapon Mastery 2 + base 1 = 4 dice; Armor Piercing carries the advantage to the
    // damage roll: difficulty 3. 3, 3, 2, 1 → 2 damage (at 4 it would be 0). Ogre 9 → 7.
    const bo = await f.send({
      type: 'Attack',
      attackerId: 'bo',
      targetId: 'ogre',
      weaponId: 'pick',
      dice: [3, 3, 6, 1, 3, 3, 2, 1],
    });
    expect(find(bo, 'ExchangeResolved')).toMatchObject({
      attack: { pool: 4, difficulty: 3, successes: 3 },
      hit: true,
    });
    expect(find(bo, 'WoundsApplied')).toMatchObject({
      damageRoll: { pool: 4, difficulty: 3, successes: 2 },
      damage: 2,
      hp: 7,
    });
    expect(who(bo.view, 'ogre')).toMatchObject({ hp: 7, maxHp: 12, defense: 2, state: 'Active' });
    expect(who(bo.view, 'ada')).toMatchObject({ ap: 1 });
  });

  it('archsoul.txt: Critical Failure Tables: given Cole (4 dice) and the Gnoll (Defense 1), when Cole rolls 1,1,2,3 and the Gnoll rolls 1,1,1,3 with a table die of 4, then only the Gnoll fails critically (more than half the dice on 1), loses 1 Defense until its next turn, and an all-six roll is just four successes (the text has no critical success)', async () => {
    const fighter = (id: string) =>
      hero(id, {
        attributes: { precision: 2, athletics: 1 },
        skills: { meleeWeapons: 2 },
        weapons: [{ id: 'sword', name: 'Sword', damage: 1 }],
      });
    const f = await newFight(
      t,
      [
        fighter('cole'),
        fighter('dara'),
        enemy('gnoll', {
          attributes: { precision: 2 },
          skills: { meleeWeapons: 2 },
          defense: 1,
          weapons: [{ id: 'club', name: 'Club', damage: 1 }],
        }),
      ],
      { cole: [at(0, 1), 'N'], dara: [at(1, 0), 'NW'], gnoll: [at(0, 0), 'S'] },
      { order: ['cole', 'dara', 'gnoll'] },
    );
    // Cole: 4 dice at 4: 1, 1, 2, 3 → 0 successes; two 1s of four is half, not more than half: no critical
    // failure (S2), a plain miss. No damage roll, no table die.
    const miss = await f.send({
      type: 'Attack',
      attackerId: 'cole',
      targetId: 'gnoll',
      weaponId: 'sword',
      dice: [1, 1, 2, 3],
    });
    expect(types(miss)).toEqual(['ApSpent', 'ExchangeResolved']);
    expect(find(miss, 'ExchangeResolved')).toMatchObject({
      attack: { successes: 0, criticalFailure: false },
      hit: false,
    });
    // Dara: 6, 6, 6, 6 → 4 successes > 1: a hit and nothing more. Damage Athletics 1 + base 1 = 2 dice: 6, 6 → 2.
    const sixes = await f.send({
      type: 'Attack',
      attackerId: 'dara',
      targetId: 'gnoll',
      weaponId: 'sword',
      dice: [6, 6, 6, 6, 6, 6],
    });
    expect(types(sixes)).toEqual(['ApSpent', 'ExchangeResolved', 'WoundsApplied']);
    expect(find(sixes, 'ExchangeResolved')).toMatchObject({ attack: { successes: 4 }, hit: true });
    expect(find(sixes, 'WoundsApplied')).toMatchObject({ damage: 2, hp: 8 });
    await f.send({ type: 'EndTurn', combatantId: 'cole' });
    await f.send({ type: 'EndTurn', combatantId: 'dara' });

    // The Gnoll: 1, 1, 1, 3 → 0 successes and three 1s of four: a critical failure. A club is a melee
    // weapon: the first table; die 4 → "Fall off balance, decreasing your defense by 1 for one round".
    const fumble = await f.send({
      type: 'Attack',
      attackerId: 'gnoll',
      targetId: 'cole',
      weaponId: 'club',
      dice: [1, 1, 1, 3],
      followUpFaces: [4],
    });
    expect(find(fumble, 'ExchangeResolved')).toMatchObject({
      attack: { successes: 0, criticalFailure: true },
      hit: false,
    });
    expect(find(fumble, 'CriticalFailureRolled')).toMatchObject({
      combatantId: 'gnoll',
      table: 'melee',
      face: 4,
      text: 'Fall off balance, decreasing your defense by 1 for one round',
    });
    expect(who(fumble.view, 'gnoll')).toMatchObject({ defense: 0, baseDefense: 1 });
    await f.send({ type: 'EndTurn', combatantId: 'gnoll' });

    // Round 2, before the Gnoll’s next turn: Defense 0, so Cole’s single success (4, 1, 1, 2) now hits
    // (against Defense 1 it would not). Damage 2 dice: 4, 1 → 1. Gnoll 8 → 7.
    await f.send({ type: 'StartRound' });
    const cheap = await f.send({
      type: 'Attack',
      attackerId: 'cole',
      targetId: 'gnoll',
      weaponId: 'sword',
      dice: [4, 1, 1, 2, 4, 1],
    });
    expect(find(cheap, 'ExchangeResolved')).toMatchObject({ defense: 0, resistance: 0, hit: true });
    expect(find(cheap, 'WoundsApplied')).toMatchObject({ damage: 1, hp: 7 });
    // "For one round" ends as the Gnoll’s next turn starts (C7).
    await f.send({ type: 'EndTurn', combatantId: 'cole' });
    const next = await f.send({ type: 'EndTurn', combatantId: 'dara' });
    expect(find(next, 'TurnStarted')).toMatchObject({ combatantId: 'gnoll', ap: 3 });
    expect(who(next.view, 'gnoll')).toMatchObject({ defense: 1 });
  });

  it('archsoul.txt: Quick Attack: given Eli holding a light dagger and a regular sabre, when Eli makes a Quick Attack with the dagger against the Rat (Defense 1), then it costs 1 AP, the attack is at 5 (the non-light sabre in the other hand), the damage at 5, and no other attack is allowed that turn', async () => {
    const f = await newFight(
      t,
      [
        hero('eli', {
          attributes: { precision: 3, athletics: 2 },
          skills: { meleeWeapons: 1, weaponMastery: 1 },
          weapons: [
            { id: 'dagger', name: 'Dagger', damage: 1, handling: 'light' },
            { id: 'sabre', name: 'Sabre', damage: 2 },
          ],
        }),
        enemy('rat', { maxHp: 8, defense: 1 }),
      ],
      { eli: [at(0, 1), 'N'], rat: [at(0, 0), 'S'] },
      { order: ['eli', 'rat'] },
    );
    // Attack: Precision 3 + Melee Weapons 1 = 4 dice; 4 + 1 (a non-light weapon in the other hand) = 5; the
    // dagger is light, so no +1 for itself. 5, 6, 4, 2 → 2 successes > 1: hit.
    // Damage: Athletics 2 + Weapon Mastery 1 + base 1 = 4 dice at 4 + 1 = 5. 5, 4, 6, 1 → 2. Rat 8 → 6.
    const quick = await f.send({
      type: 'Attack',
      attackerId: 'eli',
      targetId: 'rat',
      weaponId: 'dagger',
      special: 'quick',
      dice: [5, 6, 4, 2, 5, 4, 6, 1],
    });
    expect(find(quick, 'ApSpent')).toMatchObject({ action: 'quickAttack', ap: 1, apLeft: 2 });
    expect(find(quick, 'ExchangeResolved')).toMatchObject({
      special: 'quick',
      attack: { pool: 4, difficulty: 5, successes: 2 },
      hit: true,
    });
    expect(find(quick, 'WoundsApplied')).toMatchObject({
      damageRoll: { pool: 4, difficulty: 5, successes: 2 },
      damage: 2,
      hp: 6,
    });
    expect(who(quick.view, 'eli')).toMatchObject({ ap: 2, quickAttacked: true });
    // "After performing a Quick Attack, you cannot make any other attacks … for the remainder of your turn."
    const refused = await f.send(
      {
        type: 'Attack',
        attackerId: 'eli',
        targetId: 'rat',
        weaponId: 'sabre',
        dice: [6, 6, 6, 6, 6, 6, 6, 6, 6],
      },
      422,
    );
    expect(refused).toMatchObject({ code: 'ARCHSOUL_QUICK_ATTACK_ENDS_ATTACKS', field: 'type' });
    expect(who((await f.send({ type: 'AddNote', text: 'after the refusal' })).view, 'rat')).toMatchObject({
      hp: 6,
    });
  });

  it('archsoul.txt: Reckless Attack: given Finn (4 dice, maul damage 5 dice) against the Troll (Defense 2), when Finn attacks recklessly twice, then each costs 3 AP, the attack is at 6 and the damage at 3; two successes only match Defense 2 and miss, three hit for 3', async () => {
    const f = await newFight(
      t,
      [
        hero('finn', {
          attributes: { precision: 2, athletics: 3 },
          skills: { meleeWeapons: 2 },
          weapons: [{ id: 'maul', name: 'Maul', damage: 2 }],
        }),
        enemy('troll', { maxHp: 15, defense: 2 }),
      ],
      { finn: [at(0, 1), 'N'], troll: [at(0, 0), 'S'] },
      { order: ['finn', 'troll'] },
    );
    // 4 dice at 4 + 2 = 6: 6, 6, 5, 4 → 2 successes; 2 is not greater than Defense 2 (S3): a miss.
    const first = await f.send({
      type: 'Attack',
      attackerId: 'finn',
      targetId: 'troll',
      weaponId: 'maul',
      special: 'reckless',
      dice: [6, 6, 5, 4],
    });
    expect(find(first, 'ApSpent')).toMatchObject({ action: 'recklessAttack', ap: 3, apLeft: 0 });
    expect(find(first, 'ExchangeResolved')).toMatchObject({
      special: 'reckless',
      attack: { pool: 4, difficulty: 6, successes: 2 },
      resistance: 2,
      hit: false,
    });
    expect(types(first)).not.toContain('WoundsApplied');
    await f.send({ type: 'EndTurn', combatantId: 'finn' });
    await f.send({ type: 'EndTurn', combatantId: 'troll' });
    await f.send({ type: 'StartRound' });
    // 6, 6, 6, 1 → 3 > 2: hit. Damage Athletics 3 + base 2 = 5 dice at 4 − 1 = 3: 3, 3, 2, 1, 5 → 3. 15 → 12.
    const second = await f.send({
      type: 'Attack',
      attackerId: 'finn',
      targetId: 'troll',
      weaponId: 'maul',
      special: 'reckless',
      dice: [6, 6, 6, 1, 3, 3, 2, 1, 5],
    });
    expect(find(second, 'ExchangeResolved')).toMatchObject({
      attack: { difficulty: 6, successes: 3 },
      hit: true,
    });
    expect(find(second, 'WoundsApplied')).toMatchObject({
      damageRoll: { pool: 5, difficulty: 3, successes: 3 },
      damage: 3,
      hp: 12,
    });
  });

  it('archsoul.txt: Knockdown: given Gus (attack 4 dice, damage 4 dice) and Hob (Defense 1, Athletics/Resolve 2 dice), when Gus’s knockdown hits and its damage roll 2 surpasses Hob’s roll 1, then Hob is knocked down with no HP lost; standing up next turn triggers Gus’s reactive attack, 1 damage, and Hob’s Endurance/Resolve 2 exceeds it, so Hob stands', async () => {
    const f = await newFight(
      t,
      [
        hero('gus', {
          attributes: { precision: 2, athletics: 2 },
          skills: { meleeWeapons: 2, weaponMastery: 1 },
          weapons: [{ id: 'club', name: 'Club', damage: 1 }],
        }),
        enemy('hob', {
          attributes: { athletics: 1, endurance: 2 },
          skills: { resolve: 1 },
          defense: 1,
        }),
      ],
      { gus: [at(0, 1), 'N'], hob: [at(0, 0), 'S'] },
      { order: ['gus', 'hob'] },
    );
    // Dice: the attack, Hob’s Athletics/Resolve, then the damage.
    // Attack 4 dice at 4: 4, 4, 1, 1 → 2 > 1: hit. Hob: Athletics 1 + Resolve 1 = 2 dice at 3: 3, 2 → 1.
    // Damage: Athletics 2 + Weapon Mastery 1 + base 1 = 4 dice at 4: 4, 5, 1, 1 → 2 > 1: knocked down;
    // "The damage your attack would have done is ignored": Hob stays at 10.
    const knock = await f.send({
      type: 'Attack',
      attackerId: 'gus',
      targetId: 'hob',
      weaponId: 'club',
      knockdown: true,
      dice: [4, 4, 1, 1, 3, 2, 4, 5, 1, 1],
    });
    expect(find(knock, 'ExchangeResolved')).toMatchObject({ hit: true, maneuvers: ['knockdown'] });
    expect(find(knock, 'KnockdownResolved')).toMatchObject({
      resist: { pool: 2, difficulty: 3, successes: 1 },
      damageRoll: { pool: 4, difficulty: 4, successes: 2 },
      knockedDown: true,
    });
    expect(types(knock)).not.toContain('WoundsApplied');
    expect(who(knock.view, 'hob')).toMatchObject({
      hp: 10,
      conditions: [expect.objectContaining({ condition: 'prone' })],
    });
    await f.send({ type: 'EndTurn', combatantId: 'gus' });

    // Hob’s turn: Stand Up (1 AP) triggers a reactive attack from Gus (Hob is adjacent, in his front arc).
    const stand = await f.send({ type: 'StandUp', combatantId: 'hob' });
    expect(find(stand, 'ReactiveAttackTriggered')).toMatchObject({
      actorId: 'hob',
      trigger: 'standUp',
      reactorIds: ['gus'],
    });
    expect(stand.view.pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'gus' });
    // Gus: 5, 5, 1, 1 → 2 > 1: hit; damage 4 dice: 4, 1, 1, 1 → 1. Hob 10 → 9.
    // Hob’s Endurance/Resolve at 3: Endurance 2 + Resolve 1 = 3 dice: 3, 3, 1 → 2 > 1: not prevented.
    const reacted = await f.send({
      type: 'ReactiveAttack',
      combatantId: 'gus',
      weaponId: 'club',
      dice: [5, 5, 1, 1, 4, 1, 1, 1, 3, 3, 1],
    });
    expect(find(reacted, 'WoundsApplied')).toMatchObject({ combatantId: 'hob', damage: 1, hp: 9 });
    expect(find(reacted, 'PreventionRolled')).toMatchObject({
      combatantId: 'hob',
      damage: 1,
      test: { pool: 3, difficulty: 3, successes: 2 },
      prevented: false,
    });
    const up = await f.send({ type: 'ResumeAction', combatantId: 'hob' });
    expect(who(up.view, 'hob')).toMatchObject({ hp: 9, ap: 2, conditions: [] });
  });

  it('archsoul.txt: Reactive Attack: given Ivo adjacent to Jax and in Jax’s front arc, when Ivo moves away and Jax’s reactive attack deals 1 damage against Ivo’s Endurance/Resolve roll of 0, then the move is prevented with its AP spent; a second Move the same turn triggers nothing (once per target per attacker per turn) and goes through', async () => {
    const f = await newFight(
      t,
      [
        hero('ivo', { attributes: { endurance: 1 }, defense: 0 }),
        enemy('jax', {
          attributes: { precision: 2, athletics: 1 },
          skills: { meleeWeapons: 1 },
          weapons: [{ id: 'sword', name: 'Sword', damage: 2 }],
        }),
      ],
      { ivo: [at(0, 0), 'N'], jax: [at(0, -1), 'S'] },
      { order: ['ivo', 'jax'] },
    );
    // Jax faces S from (0, −1): every space with r > −1 is in its front arc, (0, 0) among them, at reach 1.
    const away = await f.send({ type: 'Move', combatantId: 'ivo', path: [at(0, 1)] });
    expect(types(away)).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(away, 'ReactiveAttackTriggered')).toMatchObject({
      trigger: 'leaveReach',
      reactorIds: ['jax'],
    });
    // Jax: Precision 2 + Melee Weapons 1 = 3 dice at 4: 4, 2, 2 → 1 > Defense 0: hit.
    // Damage: Athletics 1 + base 2 = 3 dice: 4, 1, 1 → 1. Ivo 10 → 9.
    // Ivo’s Endurance 1 + Resolve 0 = 1 die at 3: 2 → 0, not more than 1: prevented.
    const reacted = await f.send({
      type: 'ReactiveAttack',
      combatantId: 'jax',
      weaponId: 'sword',
      dice: [4, 2, 2, 4, 1, 1, 2],
    });
    expect(find(reacted, 'ExchangeResolved')).toMatchObject({
      action: 'reactive',
      attack: { pool: 3, successes: 1 },
      hit: true,
    });
    expect(find(reacted, 'PreventionRolled')).toMatchObject({
      damage: 1,
      test: { pool: 1, difficulty: 3, successes: 0 },
      prevented: true,
    });
    expect(who(reacted.view, 'ivo')).toMatchObject({ position: at(0, 0), hp: 9, ap: 2 });
    expect(reacted.view.pending).toBeNull();
    // The same mover leaving the same reactor’s reach again this turn: no reactive attack this time.
    const again = await f.send({ type: 'Move', combatantId: 'ivo', path: [at(0, 1)] });
    expect(types(again)).not.toContain('ReactiveAttackTriggered');
    expect(who(again.view, 'ivo')).toMatchObject({ position: at(0, 1), ap: 1 });
  });

  it('archsoul.txt: Feint: given Kira (Precision 2, Confusion 2, Acting 1) against Lom (Intellect 1, Read Emotions 1, Defense 1), when Kira’s feint at 5 scores 2 against Lom’s 1, then Lom is turned to face N and the declared attack is rolled (2 hits, 2 damage); Kurt’s feint of 1 against 1 fails and the attack misses unrolled', async () => {
    const feinter = (id: string) =>
      hero(id, {
        attributes: { precision: 2, athletics: 1 },
        skills: { confusion: 2, acting: 1, meleeWeapons: 1, weaponMastery: 1 },
        weapons: [{ id: 'sword', name: 'Sword', damage: 1 }],
      });
    const f = await newFight(
      t,
      [
        feinter('kira'),
        feinter('kurt'),
        enemy('lom', { attributes: { intellect: 1 }, skills: { readEmotions: 1 }, defense: 1 }),
      ],
      { kira: [at(0, 1), 'N'], kurt: [at(1, 0), 'NW'], lom: [at(0, 0), 'S'] },
      { order: ['kira', 'kurt', 'lom'] },
    );
    // Dice: the feint, Lom’s defence, the attack, the damage.
    // Feint: Precision 2 + the better of Confusion 2 / Acting 1 = 4 dice at 5: 5, 6, 2, 1 → 2.
    // Lom: Intellect 1 + Read Emotions 1 = 2 dice at 4: 4, 2 → 1. 2 > 1: the feint works; Lom turns to N.
    // Attack: Precision 2 + Melee Weapons 1 = 3 dice at 4: 4, 4, 1 → 2 > 1: hit.
    // Damage: Athletics 1 + Weapon Mastery 1 + base 1 = 3 dice: 4, 1, 6 → 2. Lom 10 → 8.
    const feint = await f.send({
      type: 'Attack',
      attackerId: 'kira',
      targetId: 'lom',
      weaponId: 'sword',
      feint: { facing: 'N' },
      dice: [5, 6, 2, 1, 4, 2, 4, 4, 1, 4, 1, 6],
    });
    expect(find(feint, 'FeintResolved')).toMatchObject({
      feint: { pool: 4, difficulty: 5, successes: 2 },
      defence: { pool: 2, difficulty: 4, successes: 1 },
      success: true,
      facing: 'N',
    });
    expect(find(feint, 'ExchangeResolved')).toMatchObject({ attack: { pool: 3, successes: 2 }, hit: true });
    expect(find(feint, 'WoundsApplied')).toMatchObject({ damage: 2, hp: 8 });
    expect(who(feint.view, 'lom')).toMatchObject({ facing: 'N', hp: 8 });
    // Kurt: feint 5, 2, 2, 1 → 1; Lom 4, 1 → 1. 1 does not exceed 1: the feint fails, the attack
    // automatically misses, no attack or damage dice.
    const failed = await f.send({
      type: 'Attack',
      attackerId: 'kurt',
      targetId: 'lom',
      weaponId: 'sword',
      feint: true,
      dice: [5, 2, 2, 1, 4, 1],
    });
    expect(find(failed, 'FeintResolved')).toMatchObject({ success: false });
    const missed = find(failed, 'ExchangeResolved');
    expect(missed).toMatchObject({ hit: false, automaticMiss: expect.any(String) });
    expect(missed.attack).toBeUndefined();
    expect(who(failed.view, 'lom')).toMatchObject({ hp: 8 });
  });

  it('archsoul.txt: Ranged Weapon: given Mara’s longbow (accurate 5, maximum 10, 6 arrows) and Ned 7 spaces away (Defense 1), when Mara shoots, then the attack is at 5 (outside accurate range), 2 successes hit, damage (Weapon Mastery 1 + base 2, no Athletics) is 2, one arrow is spent and a breakage die of 1 breaks it', async () => {
    const f = await newFight(
      t,
      [
        hero('mara', {
          attributes: { precision: 2, athletics: 3 },
          skills: { rangedWeapons: 2, weaponMastery: 1 },
          weapons: [
            {
              id: 'bow',
              name: 'Longbow',
              type: 'ranged',
              damage: 2,
              accurateRange: 5,
              maximumRange: 10,
              twoHanded: true,
              ammunition: { kind: 'arrow', count: 6 },
            },
          ],
        }),
        enemy('ned', { defense: 1 }),
      ],
      { mara: [at(0, 0), 'N'], ned: [at(0, -7), 'S'] },
      { order: ['mara', 'ned'] },
    );
    // Distance (0,0)–(0,−7) = 7: beyond 5, within 10: difficulty 4 + 1 = 5.
    // Precision 2 + Ranged Weapons 2 = 4 dice: 5, 5, 4, 1 → 2 > 1: hit.
    // Damage (Ranged Weapon row: Weapon Mastery + base): 1 + 2 = 3 dice at 4: 4, 4, 2 → 2. Ned 10 → 8.
    // The arrow hit: it would drop in Ned’s space, but 1 in 6 breaks: a die of 1 breaks it.
    const shot = await f.send({
      type: 'Attack',
      attackerId: 'mara',
      targetId: 'ned',
      weaponId: 'bow',
      dice: [5, 5, 4, 1, 4, 4, 2],
      followUpFaces: [1],
    });
    expect(find(shot, 'ExchangeResolved')).toMatchObject({
      attackType: 'ranged',
      distance: 7,
      attack: { pool: 4, difficulty: 5, successes: 2 },
      hit: true,
    });
    expect(find(shot, 'WoundsApplied')).toMatchObject({
      damageRoll: { pool: 3, successes: 2 },
      damage: 2,
      hp: 8,
    });
    expect(find(shot, 'AmmunitionSpent')).toMatchObject({ weaponId: 'bow', left: 5 });
    expect(find(shot, 'ProjectileLanded')).toMatchObject({
      ammunition: 'arrow',
      space: at(0, -7),
      broken: true,
      breakRoll: { faces: [1] },
    });
    expect(shot.view.ground).toEqual([]);
    expect(who(shot.view, 'mara').weapons[0]).toMatchObject({ id: 'bow', ammunition: 5 });
  });

  it('archsoul.txt: The Battle Map (arcs) and Hold Firm: given Pell facing N with a Shield Bonus 2 (Defense 1), Quin shooting from Pell’s front arc and Oda from Pell’s own row, when both hit with enough dice for Defense alone, then Quin’s 3 successes are stopped by the shield (resistance 3) and Oda’s 2 hit the back arc; after Pell’s Hold Firm, Oda’s same 2 successes count against the shield and miss', async () => {
    const archer = (id: string) =>
      hero(id, {
        attributes: { precision: 2 },
        skills: { rangedWeapons: 2, weaponMastery: 1 },
        weapons: [
          {
            id: 'bow',
            name: 'Bow',
            type: 'ranged',
            damage: 1,
            accurateRange: 6,
            ammunition: { kind: 'arrow', count: 10 },
          },
        ],
      });
    const f = await newFight(
      t,
      [
        archer('quin'),
        archer('oda'),
        enemy('pell', {
          defense: 1,
          weapons: [{ id: 'sword', name: 'Sword', damage: 1 }],
          shield: { bonus: 2 },
        }),
      ],
      { quin: [at(0, -3), 'S'], oda: [at(3, 0), 'NW'], pell: [at(0, 0), 'N'] },
      { order: ['quin', 'oda', 'pell'], options: { arrowBreakage: false } },
    );
    expect(who(f.opened!.view, 'pell')).toMatchObject({ shieldBonus: 2, hasFrontArc: true });
    // Quin at (0, −3): r < 0, Pell’s front arc. Resistance = Defense 1 + Shield Bonus 2 = 3.
    // 4 dice at 4 (range 3 ≤ 6): 4, 4, 4, 1 → 3, not more than 3: miss.
    const front = await f.send({
      type: 'Attack',
      attackerId: 'quin',
      targetId: 'pell',
      weaponId: 'bow',
      dice: [4, 4, 4, 1],
    });
    expect(find(front, 'ExchangeResolved')).toMatchObject({
      targetArc: 'front',
      shieldBonus: 2,
      resistance: 3,
      attack: { successes: 3 },
      hit: false,
    });
    // Oda at (3, 0): Pell’s own row, which the picture puts in the back arc: no Shield Bonus.
    // 4, 4, 1, 1 → 2 > 1: hit. Damage Weapon Mastery 1 + base 1 = 2 dice: 4, 1 → 1. Pell 10 → 9.
    const back = await f.send({
      type: 'Attack',
      attackerId: 'oda',
      targetId: 'pell',
      weaponId: 'bow',
      dice: [4, 4, 1, 1, 4, 1],
    });
    expect(find(back, 'ExchangeResolved')).toMatchObject({
      targetArc: 'back',
      distance: 3,
      shieldBonus: 0,
      resistance: 1,
      hit: true,
    });
    expect(find(back, 'WoundsApplied')).toMatchObject({ damage: 1, hp: 9 });
    await f.send({ type: 'EndTurn', combatantId: 'quin' });
    await f.send({ type: 'EndTurn', combatantId: 'oda' });
    // Pell’s turn: Hold Firm (2 AP) until its next turn.
    const firm = await f.send({ type: 'HoldFirm', combatantId: 'pell' });
    expect(find(firm, 'ApSpent')).toMatchObject({ action: 'holdFirm', ap: 2, apLeft: 1 });
    expect(who(firm.view, 'pell').conditions).toEqual([
      expect.objectContaining({ condition: 'holdFirm', untilNextTurn: true }),
    ]);
    await f.send({ type: 'EndTurn', combatantId: 'pell' });
    await f.send({ type: 'StartRound' });
    // Round 2, still before Pell’s next turn: Oda’s back-arc shot is treated as a front-arc one, so the
    // Shield Bonus applies: the same 2 successes against 1 + 2 = 3 miss.
    const firmShot = await f.send({
      type: 'Attack',
      attackerId: 'oda',
      targetId: 'pell',
      weaponId: 'bow',
      dice: [4, 4, 1, 1],
    });
    expect(find(firmShot, 'ExchangeResolved')).toMatchObject({
      targetArc: 'front',
      shieldBonus: 2,
      resistance: 3,
      hit: false,
    });
    // A miss drops "at the end of its maximum range": 6 spaces from (3, 0) through (0, 0) is (−3, 0).
    expect(find(firmShot, 'ProjectileLanded')).toMatchObject({ space: at(-3, 0) });
  });

  it('archsoul.txt: Grappling: given Rex (unarmed 4 dice, empty hands) beside Sly (unarmed 1 die, Athletics/Agility 3 dice), when Rex grabs and Sly declines the reactive attack, then Rex’s 2 beat Sly’s 1 and Rex controls the grapple; Sly’s Escape tying 2 to 2 fails (the controller wins ties) and Sly may not attack with a weapon', async () => {
    const f = await newFight(
      t,
      [
        hero('rex', { attributes: { precision: 2, athletics: 1 }, skills: { primitiveAttacks: 2 } }),
        enemy('sly', {
          attributes: { precision: 1, athletics: 2 },
          skills: { agility: 1, meleeWeapons: 2 },
          weapons: [{ id: 'sword', name: 'Sword', damage: 1 }],
        }),
      ],
      { rex: [at(0, 1), 'N'], sly: [at(0, 0), 'S'] },
      { order: ['rex', 'sly'] },
    );
    // "Attempting to start a grapple triggers a reactive attack from the person you are trying to grapple."
    const grab = await f.send({ type: 'Grab', combatantId: 'rex', targetId: 'sly' });
    expect(find(grab, 'ApSpent')).toMatchObject({ action: 'grab', ap: 2, apLeft: 1 });
    expect(find(grab, 'ReactiveAttackTriggered')).toMatchObject({ trigger: 'grab', reactorIds: ['sly'] });
    await f.send({ type: 'DeclineReactiveAttack', combatantId: 'sly' });
    // Rex: unarmed (Precision 2 + Primitive Attacks 2) = 4 dice at 4: 4, 5, 1, 2 → 2.
    // Sly defends with the better grapple roll: Athletics 2 + Agility 1 = 3 dice (unarmed would be 1 + 0):
    // 4, 2, 2 → 1. 2 > 1: grappled, Rex in control.
    const held = await f.send({ type: 'ResumeAction', combatantId: 'rex', dice: [4, 5, 1, 2, 4, 2, 2] });
    expect(find(held, 'GrappleRolled')).toMatchObject({
      actorId: 'rex',
      opponentId: 'sly',
      actor: { pool: 4, difficulty: 4, successes: 2 },
      opponent: { pool: 3, difficulty: 4, successes: 1 },
      success: true,
    });
    expect(find(held, 'GrappleStarted')).toMatchObject({ memberIds: ['rex', 'sly'], controlId: 'rex' });
    expect(held.view.grapples).toEqual([
      expect.objectContaining({ memberIds: ['rex', 'sly'], controlId: 'rex' }),
    ]);
    // "You also do not have a front arc while grappled."
    expect(who(held.view, 'sly')).toMatchObject({ hasFrontArc: false });
    expect(who(held.view, 'rex')).toMatchObject({ hasFrontArc: false });
    await f.send({ type: 'EndTurn', combatantId: 'rex' });

    // Sly: Escape (2 AP), opposed grapple rolls, the actor first: 5, 5, 1 → 2; Rex 4, 4, 1, 1 → 2.
    // A tie: "the person in control wins the tie": Rex. Still grappled, Rex keeps control.
    const escape = await f.send({
      type: 'Escape',
      combatantId: 'sly',
      targetId: 'rex',
      dice: [5, 5, 1, 4, 4, 1, 1],
    });
    expect(find(escape, 'GrappleRolled')).toMatchObject({
      actor: { successes: 2 },
      opponent: { successes: 2 },
      winnerId: 'rex',
      success: false,
    });
    expect(escape.view.grapples).toEqual([expect.objectContaining({ controlId: 'rex' })]);
    expect(who(escape.view, 'sly')).toMatchObject({ ap: 1 });
    // "While grappled, you may not attack with a weapon."
    const refused = await f.send(
      { type: 'Attack', attackerId: 'sly', targetId: 'rex', weaponId: 'sword', dice: [6, 6, 6, 6, 6, 6] },
      422,
    );
    expect(refused).toMatchObject({ code: 'ARCHSOUL_GRAPPLED', field: 'weaponId' });
  });

  it('archsoul.txt: Charge: given Sir and Dame each riding a speed-2 mount with a lance, each passing a foe with a Polearm, when both charge 3 spaces in a straight line, then each Polearm reactive attack rolls 2 + 2 damage dice; Sir’s Endurance/Resolve beats it and his charge rolls 5 + 2 = 7 damage dice, dropping Tor (5 HP) to 0: Down, left out of the enemies’ phase, still a target; Dame’s roll does not, so she is dismounted and knocked down', async () => {
    const rider = (id: string, endurance: number, resolve: number) =>
      hero(id, {
        attributes: { precision: 2, athletics: 2, endurance },
        skills: { meleeWeapons: 2, weaponMastery: 1, resolve },
        weapons: [{ id: 'lance', name: 'Lance', damage: 2, properties: ['lance'] }],
        mount: { speed: 2 },
      });
    const pikeman = (id: string) =>
      enemy(id, {
        attributes: { precision: 2, athletics: 1 },
        skills: { meleeWeapons: 1 },
        weapons: [{ id: 'pike', name: 'Pike', damage: 1, properties: ['polearm'] }],
      });
    const f = await newFight(
      t,
      [
        rider('sir', 2, 2),
        rider('dame', 1, 0),
        enemy('tor', { maxHp: 5, defense: 1 }),
        pikeman('ulf'),
        pikeman('vex'),
        enemy('wen', { defense: 1 }),
      ],
      {
        sir: [at(0, 0), 'NE'],
        dame: [at(0, 3), 'NE'],
        tor: [at(4, 0), 'SW'],
        ulf: [at(1, -1), 'S'],
        vex: [at(1, 2), 'S'],
        wen: [at(4, 3), 'SW'],
      },
      { order: ['sir', 'dame', 'tor', 'ulf', 'vex', 'wen'] },
    );
    // Sir rides (1,0), (2,0), (3,0): three spaces east in a straight line (at least 3, at most 6 × 2 = 12),
    // ending beside Tor at (4, 0). Leaving (0, 0), in reach and in the front arc of Ulf (facing S from
    // (1, −1)), triggers Ulf’s reactive attack before the charge goes on.
    const charge = await f.send({
      type: 'Charge',
      combatantId: 'sir',
      path: [at(1, 0), at(2, 0), at(3, 0)],
      targetId: 'tor',
      weaponId: 'lance',
    });
    expect(find(charge, 'ApSpent')).toMatchObject({ action: 'charge', ap: 3, apLeft: 0 });
    expect(find(charge, 'ReactiveAttackTriggered')).toMatchObject({
      trigger: 'leaveReach',
      reactorIds: ['ulf'],
    });
    // Ulf: Precision 2 + Melee Weapons 1 = 3 dice at 4: 4, 4, 1 → 2 > Defense 0: hit.
    // Damage: Athletics 1 + base 1 + the mount’s base speed 2 (a Polearm "also gains the same boost") = 4
    // dice: 4, 4, 4, 1 → 3. Sir 10 → 7. Sir’s Endurance 2 + Resolve 2 = 4 dice at 3: 3, 3, 3, 3 → 4 > 3.
    const pike = await f.send({
      type: 'ReactiveAttack',
      combatantId: 'ulf',
      weaponId: 'pike',
      dice: [4, 4, 1, 4, 4, 4, 1, 3, 3, 3, 3],
    });
    expect(find(pike, 'WoundsApplied')).toMatchObject({
      combatantId: 'sir',
      damageRoll: { pool: 4, successes: 3 },
      damage: 3,
      hp: 7,
    });
    expect(find(pike, 'PreventionRolled')).toMatchObject({
      test: { pool: 4, successes: 4 },
      prevented: false,
    });
    // The charge’s attack: Precision 2 + Melee Weapons 2 = 4 dice: 4, 4, 4, 1 → 3 > 1: hit.
    // Damage: Athletics 2 + Weapon Mastery 1 + base 2 + the mount’s base speed 2 = 7 dice at 4:
    // 4, 4, 4, 4, 4, 1, 1 → 5. Tor 5 → 0: Down.
    const lance = await f.send({
      type: 'ResumeAction',
      combatantId: 'sir',
      dice: [4, 4, 4, 1, 4, 4, 4, 4, 4, 1, 1],
    });
    expect(find(lance, 'ExchangeResolved')).toMatchObject({ attack: { pool: 4, successes: 3 }, hit: true });
    expect(find(lance, 'WoundsApplied')).toMatchObject({
      damageRoll: { pool: 7, difficulty: 4, successes: 5 },
      damage: 5,
      hp: 0,
      down: true,
    });
    expect(who(lance.view, 'sir')).toMatchObject({ position: at(3, 0), mounted: true, hp: 7 });
    expect(who(lance.view, 'tor')).toMatchObject({ hp: 0, state: 'Down', hasFrontArc: false, inTurn: false });

    // Dame rides (1,3), (2,3), (3,3) toward Wen; leaving (0, 3) triggers Vex (facing S from (1, 2)).
    await f.send({
      type: 'Charge',
      combatantId: 'dame',
      path: [at(1, 3), at(2, 3), at(3, 3)],
      targetId: 'wen',
      weaponId: 'lance',
    });
    // Vex: 4, 4, 1 → hit; 4 damage dice 4, 4, 4, 1 → 3. Dame 10 → 7. Her Endurance 1 + Resolve 0 = 1 die: 2 → 0,
    // not more than 3: "If any reactive attack interrupts your action, you are immediately dismounted and
    // knocked down."
    const stopped = await f.send({
      type: 'ReactiveAttack',
      combatantId: 'vex',
      weaponId: 'pike',
      dice: [4, 4, 1, 4, 4, 4, 1, 2],
    });
    expect(find(stopped, 'PreventionRolled')).toMatchObject({ damage: 3, prevented: true });
    expect(who(stopped.view, 'dame')).toMatchObject({
      position: at(0, 3),
      hp: 7,
      ap: 0,
      mounted: false,
      conditions: [expect.objectContaining({ condition: 'prone' })],
    });
    expect(who(stopped.view, 'wen')).toMatchObject({ hp: 10 });

    await f.send({ type: 'EndTurn', combatantId: 'sir' });
    const enemies = await f.send({ type: 'EndTurn', combatantId: 'dame' });
    expect(find(enemies, 'PhaseStarted')).toMatchObject({
      party: 'enemies',
      combatantIds: ['ulf', 'vex', 'wen'],
    });
    await f.send({ type: 'EndPhase' });
    await f.send({ type: 'StartRound' });
    // Still targetable (S11): Sir’s plain attack at Tor (4, 4, 1, 1 → 2 > 1) is resolved; 5 damage dice
    // 4, 4, 1, 1, 1 → 2, and HP stays at 0.
    const again = await f.send({
      type: 'Attack',
      attackerId: 'sir',
      targetId: 'tor',
      weaponId: 'lance',
      dice: [4, 4, 1, 1, 4, 4, 1, 1, 1],
    });
    expect(find(again, 'ExchangeResolved')).toMatchObject({ hit: true });
    expect(find(again, 'WoundsApplied')).toMatchObject({
      damageRoll: { pool: 5 },
      damage: 2,
      hpBefore: 0,
      hp: 0,
    });
    // Tor faces SW from (4, 0): (3, 0) lies in its front arc, within reach, but a Down combatant makes no
    // reactive attacks (S11): Sir rides out of it untouched.
    const away = await f.send({ type: 'Move', combatantId: 'sir', path: [at(2, 0)] });
    expect(types(away)).toEqual(['ApSpent', 'Moved']);
    expect(who(away.view, 'sir')).toMatchObject({ position: at(2, 0), ap: 0 });
  });

  it('archsoul.txt: Turn Order: given heroes Ann (3 dice), Ben (3 dice, Awareness 2) and Cid (2 dice) against two villains (GM rolls the best enemy pool, 4 dice, once), when Ann and Ben roll 2, Cid 0 and the GM 1, then Ben goes before Ann (higher Awareness), then the villains, then Cid, whose turn joins Ann and Ben at the top of round 2', async () => {
    const f = await newFight(
      t,
      [
        hero('ann', { attributes: { precision: 2 }, skills: { awareness: 1 } }),
        hero('ben', { attributes: { precision: 1 }, skills: { awareness: 2 } }),
        hero('cid', { attributes: { precision: 2 }, skills: { awareness: 0 } }),
        enemy('v1', { attributes: { precision: 2 }, skills: { awareness: 2 } }),
        enemy('v2', { attributes: { precision: 1 }, skills: { awareness: 1 } }),
      ],
      {
        ann: [at(0, 0), 'N'],
        ben: [at(1, 0), 'N'],
        cid: [at(2, 0), 'N'],
        v1: [at(0, -5), 'S'],
        v2: [at(1, -5), 'S'],
      },
      {},
    );
    // Precision/Awareness at 4, heroes in join order, then the GM’s one roll for all enemies:
    // Ann 2 + 1 = 3 dice: 4, 5, 1 → 2. Ben 1 + 2 = 3 dice: 6, 4, 2 → 2. Cid 2 + 0 = 2 dice: 1, 2 → 0.
    // GM: the best enemy pool, v1’s 2 + 2 = 4 dice: 4, 1, 1, 2 → 1.
    // Ann and Ben tie at 2: higher Awareness first: Ben (2) then Ann (1). Then the villains (1), then Cid (0).
    const rolled = await f.send({ type: 'RollInitiative', dice: [4, 5, 1, 6, 4, 2, 1, 2, 4, 1, 1, 2] });
    const init = find(rolled, 'InitiativeRolled');
    expect(init.order).toEqual(['ben', 'ann', 'v1', 'v2', 'cid']);
    expect(init.rolls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ combatantId: 'ann', total: 2 }),
        expect.objectContaining({ combatantId: 'ben', total: 2 }),
        expect.objectContaining({ combatantId: 'cid', total: 0 }),
        expect.objectContaining({ combatantId: 'v1', total: 1, shared: true }),
        expect.objectContaining({ combatantId: 'v2', total: 1, shared: true }),
      ]),
    );
    // Round 1: "heroes A and B would move immediately, followed by the villains."
    const r1 = await f.send({ type: 'StartRound' });
    expect(r1.view.phase).toMatchObject({ round: 1, party: 'heroes', combatantIds: ['ben', 'ann'] });
    expect(who(r1.view, 'cid')).toMatchObject({ inTurn: false });
    // Heroes act together: Ann may end her turn before Ben.
    await f.send({ type: 'EndTurn', combatantId: 'ann' });
    const villains = await f.send({ type: 'EndTurn', combatantId: 'ben' });
    expect(villains.view.phase).toMatchObject({ round: 1, party: 'enemies', combatantIds: ['v1', 'v2'] });
    expect(who(villains.view, 'v1')).toMatchObject({ ap: 3, inTurn: true });
    // "Then hero C moves, but … all three heroes act at the same time": no phase of Cid alone.
    const ended = await f.send({ type: 'EndPhase' });
    expect(types(ended)).toContain('RoundEnded');
    const r2 = await f.send({ type: 'StartRound' });
    expect(r2.view.phase).toMatchObject({ round: 2, party: 'heroes', combatantIds: ['ben', 'ann', 'cid'] });
    expect(who(r2.view, 'cid')).toMatchObject({ ap: 3, inTurn: true });
  });
});
