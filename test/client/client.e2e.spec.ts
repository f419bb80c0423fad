import {
  CombatApiError,
  createCombatClient,
  type CombatClient,
  type CommandResult,
} from '../../clients/typescript/src';
import { removeDir, startApp, type TestApp } from '../support/app';

/**
 * The repository's own typed client, generated from /openapi.json, plays a fight of every system
 * against the real app over HTTP. This file is type-checked under --strict by `npm run typecheck`.
 */
describe('the typed TypeScript client', () => {
  let t: TestApp;
  let client: CombatClient;

  beforeAll(async () => {
    t = await startApp({ listen: true });
    client = createCombatClient({ baseUrl: t.url!, apiKey: t.apiKey });
  });
  afterAll(async () => {
    await t?.close();
    if (t) removeDir(t.dataDir);
  });

  const types = (r: CommandResult) => r.events.map((e) => e.type);

  it('Narateer: the worked example "One Melee Exchange", then the end of the fight', async () => {
    const sword = {
      id: 'sword',
      name: 'Arming sword',
      kind: 'melee',
      weight: 'light',
      baseAttackCost: 1,
      weaponDamage: 2,
      damageVitalCap: 3,
      harm: 'Physical (Slashing)',
    } as const;
    const mace = {
      id: 'mace',
      name: 'Mace',
      kind: 'melee',
      weight: 'heavy',
      baseAttackCost: 1,
      weaponDamage: 2,
      damageVitalCap: 3,
      harm: 'Physical (Impact)',
    } as const;
    const created = await client.createFight({
      system: 'narateer',
      name: 'Duel at the ford',
      dice: { mode: 'manual' },
      combatants: [
        {
          id: 'mira',
          name: 'Mira',
          side: 'ford',
          sheet: {
            vitals: { strength: 2, agility: 3, resilience: 2 },
            skills: { melee: 3, ranged: 0, acrobatics: 1 },
            maxVitality: 8,
            maxAD: 5,
            maxMD: 0,
            armour: { soak: 1 },
            weapons: [sword],
          },
        },
        {
          id: 'orin',
          name: 'Orin',
          side: 'bandits',
          sheet: {
            vitals: { strength: 3, agility: 2, resilience: 2 },
            skills: { melee: 1, ranged: 0, acrobatics: 1 },
            maxVitality: 8,
            maxAD: 5,
            maxMD: 0,
            armour: { soak: 1 },
            weapons: [mace],
          },
        },
      ],
    });
    const id = created.fightId;
    await client.command('narateer', id, { type: 'RollInitiative', dice: [6, 4, 2, 3, 1] });
    await client.command('narateer', id, { type: 'StartRound' });
    await client.command('narateer', id, { type: 'StartActivation' });
    await client.command('narateer', id, {
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'orin',
      kind: 'melee',
      weaponId: 'sword',
      boost: 2,
    });
    const answered = await client.command('narateer', id, {
      type: 'RespondToExchange',
      combatantId: 'orin',
      response: 'clash',
      boost: 1,
      weaponId: 'mace',
      dice: [6, 4, 3, 4, 3],
    });
    expect(types(answered)).toEqual(expect.arrayContaining(['ExchangeResolved', 'WoundsApplied']));
    const wounds = answered.events.find((e) => e.type === 'WoundsApplied');
    expect(wounds && wounds.type === 'WoundsApplied' && wounds.data).toMatchObject({
      combatantId: 'orin',
      wounds: 3,
    });
    const ended = await client.command('narateer', id, { type: 'EndFight', reason: 'Orin yields' });
    expect(types(ended)).toEqual(['FightEnded']);
    const { data, response } = await client.api.GET('/fights/{id}/log', { params: { path: { id } } });
    expect(response.status).toBe(200);
    expect(data).toBeDefined();
  });

  it('Arcana Beast: a Binder Directs, the beast attacks, the fight ends', async () => {
    const stats = (brawn: number, agility: number) => ({
      brawn,
      agility,
      endurance: 2,
      spirit: 3,
      technique: 2,
    });
    const { fightId: id } = await client.createFight({
      system: 'arcana-beast',
      dice: { mode: 'manual' },
      combatants: [
        {
          id: 'pip',
          name: 'Pip',
          side: 'heroes',
          sheet: {
            kind: 'beast',
            stats: stats(2, 3),
            hp: 9,
            stamina: 2,
            stage: 1,
            stages: [{ stage: 1 }],
            attacks: [{ id: 'peck', name: 'Peck', range: 'melee', ranks: 1 }],
          },
        },
        {
          id: 'bo',
          name: 'Bo',
          side: 'heroes',
          sheet: { kind: 'binder', beastId: 'pip', stats: stats(1, 2), hp: 10, stamina: 3, inventory: [] },
        },
        {
          id: 'wolf',
          name: 'Wolf',
          side: 'wild',
          sheet: {
            kind: 'beast',
            stats: stats(2, 2),
            hp: 8,
            stamina: 1,
            stage: 1,
            stages: [{ stage: 1 }],
            attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
          },
        },
      ],
    });
    await client.command('arcana-beast', id, { type: 'SetInitiative', order: ['pip', 'bo', 'wolf'] });
    await client.command('arcana-beast', id, { type: 'SetBand', aId: 'pip', bId: 'wolf', band: 'close' });
    await client.command('arcana-beast', id, { type: 'StartRound' });
    await client.command('arcana-beast', id, { type: 'StartActivation' });
    await client.command('arcana-beast', id, { type: 'Direct', combatantId: 'bo' });
    const peck = await client.command('arcana-beast', id, {
      type: 'Attack',
      attackerId: 'pip',
      targetId: 'wolf',
      dice: [6, 5, 4, 1, 4, 1],
    });
    expect(types(peck)).toEqual(expect.arrayContaining(['AttackResolved', 'DamageDealt']));
    await client.command('arcana-beast', id, { type: 'EndActivation' });
    expect(
      types(await client.command('arcana-beast', id, { type: 'EndFight', winnerSide: 'heroes' })),
    ).toEqual(['FightEnded']);
  });

  it('Archsoul: a move that provokes a reactive attack, the resumed move, the end of the fight', async () => {
    const sword = { id: 'sword', name: 'Sword', type: 'melee', damage: 2 } as const;
    const base = {
      attributes: { precision: 2, athletics: 2, endurance: 2, soulpower: 1, intellect: 1 },
      skills: { awareness: 1, meleeWeapons: 2, rangedWeapons: 2, weaponMastery: 1, resolve: 1 },
      maxHp: 10,
      defense: 1,
      weapons: [sword],
    };
    const { fightId: id } = await client.createFight({
      system: 'archsoul',
      dice: { mode: 'manual' },
      combatants: [
        { id: 'kael', name: 'Kael', side: 'heroes', sheet: base },
        { id: 'brute', name: 'Brute', side: 'enemies', sheet: base },
      ],
    });
    await client.command('archsoul', id, { type: 'SetMap', grid: 'hex' });
    await client.command('archsoul', id, {
      type: 'PlaceCombatant',
      combatantId: 'kael',
      position: { x: 0, y: 0 },
      facing: 'N',
    });
    await client.command('archsoul', id, {
      type: 'PlaceCombatant',
      combatantId: 'brute',
      position: { x: 0, y: -1 },
      facing: 'S',
    });
    await client.command('archsoul', id, { type: 'SetInitiative', order: ['kael', 'brute'] });
    await client.command('archsoul', id, { type: 'StartRound' });
    const moved = await client.command('archsoul', id, {
      type: 'Move',
      combatantId: 'kael',
      path: [
        { x: 1, y: -1 },
        { x: 1, y: -2 },
      ],
    });
    expect(types(moved)).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    const reacted = await client.command('archsoul', id, {
      type: 'ReactiveAttack',
      combatantId: 'brute',
      weaponId: 'sword',
      dice: [6, 6, 1, 1, 4, 1, 1, 1, 1, 3, 3, 1],
    });
    expect(types(reacted)).toContain('PreventionRolled');
    await client.command('archsoul', id, { type: 'ResumeAction', combatantId: 'kael' });
    expect(types(await client.command('archsoul', id, { type: 'EndFight' }))).toEqual(['FightEnded']);
  });

  it('a refusal is a CombatApiError with the stable code and the field', async () => {
    const { fightId: id } = await client.createFight({
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants: [],
    });
    const refused = await client
      .command('narateer', id, { type: 'AddNote', text: 'about nobody', combatantId: 'nobody' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CombatApiError);
    expect(refused).toMatchObject({ status: 422, code: 'COMBATANT_NOT_FOUND', field: 'combatantId' });
  });
});
