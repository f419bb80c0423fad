import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { verifyFightLog } from '@app/audit';
import { InMemoryEventStore } from '@app/event-store';
import { AppError, CommandInput, CreateFightInput, FightService } from '@app/fights';
import { RuleViolation } from '@app/rules';
import { binder, ember, pip, wolf } from './support/arcana-beast-sheets';

/**
 * Recorded fights as regression fixtures (STYLE.md rule 8): exported logs of every system and dice
 * mode, committed under test/fixtures/logs. Each is verified with today's rules: the chain, the seed,
 * every die and every command decided again. A change that rewrites history fails here at the first
 * diverging seq. A rule change that legitimately alters outcomes re-records the fixtures in the same
 * commit (`RECORD_FIXTURES=1 npx jest test/regression-fixtures`), with an upcaster if old logs must
 * still verify.
 */

const DIR = join(__dirname, 'fixtures', 'logs');

const sword = {
  id: 'sword',
  name: 'Arming sword',
  kind: 'melee',
  weight: 'light',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  harm: 'Physical (Slashing)',
};
const mace = {
  id: 'mace',
  name: 'Mace',
  kind: 'melee',
  weight: 'heavy',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  harm: 'Physical (Impact)',
};
const nBase = { maxVitality: 8, maxAD: 5, maxMD: 0, armour: { soak: 1 } };
const mira = {
  ...nBase,
  vitals: { strength: 2, agility: 3, resilience: 2 },
  skills: { melee: 3, ranged: 0, acrobatics: 1 },
  weapons: [sword],
};
const orin = {
  ...nBase,
  vitals: { strength: 3, agility: 2, resilience: 2 },
  skills: { melee: 1, ranged: 0, acrobatics: 1 },
  weapons: [mace],
};
const narateer = (dice: CreateFightInput['dice']): CreateFightInput => ({
  system: 'narateer',
  name: 'Duel at the ford',
  dice,
  combatants: [
    { id: 'mira', name: 'Mira', side: 'ford', sheet: mira },
    { id: 'orin', name: 'Orin', side: 'bandits', sheet: orin },
  ],
});

const arcana = (dice: CreateFightInput['dice']): CreateFightInput => ({
  system: 'arcana-beast',
  name: 'Two Binders against the wolf pack',
  dice,
  combatants: [
    { id: 'ember', name: 'Ember', side: 'heroes', sheet: ember },
    { id: 'ash', name: 'Ash', side: 'heroes', sheet: binder('ember') },
    { id: 'pip', name: 'Pip', side: 'heroes', sheet: pip },
    { id: 'bo', name: 'Bo', side: 'heroes', sheet: binder('pip') },
    { id: 'wolf', name: 'Wolf', side: 'wild', sheet: wolf },
    { id: 'wolf2', name: 'Grey Wolf', side: 'wild', sheet: wolf },
  ],
});

const aSword = { id: 'sword', name: 'Sword', type: 'melee', damage: 2 };
const bow = {
  id: 'bow',
  name: 'Longbow',
  type: 'ranged',
  damage: 2,
  accurateRange: 5,
  maximumRange: 10,
  ammunition: { kind: 'arrow', count: 5 },
};
const aBase = {
  attributes: { precision: 2, athletics: 2, endurance: 2, soulpower: 1, intellect: 1 },
  skills: { awareness: 1, meleeWeapons: 2, rangedWeapons: 2, weaponMastery: 1, resolve: 1 },
  maxHp: 10,
  defense: 1,
};
const archsoul = (dice: CreateFightInput['dice']): CreateFightInput => ({
  system: 'archsoul',
  name: 'Skirmish at the ford',
  dice,
  options: { arrowBreakage: false },
  combatants: [
    { id: 'kael', name: 'Kael', side: 'heroes', sheet: { ...aBase, weapons: [aSword] } },
    { id: 'ilsa', name: 'Ilsa', side: 'heroes', sheet: { ...aBase, weapons: [bow] } },
    { id: 'brute', name: 'Brute', side: 'enemies', sheet: { ...aBase, weapons: [aSword] } },
    { id: 'scout', name: 'Scout', side: 'enemies', sheet: { ...aBase, defense: 0, weapons: [aSword] } },
  ],
});
const archsoulOpening: CommandInput[] = [
  {
    type: 'SetMap',
    grid: 'hex',
    walls: [
      [
        { x: 3, y: -4 },
        { x: 3, y: -5 },
      ],
    ],
  },
  { type: 'PlaceCombatant', combatantId: 'kael', position: { x: 0, y: 0 }, facing: 'N' },
  { type: 'PlaceCombatant', combatantId: 'ilsa', position: { x: -2, y: 1 }, facing: 'N' },
  { type: 'PlaceCombatant', combatantId: 'brute', position: { x: 0, y: -1 }, facing: 'S' },
  { type: 'PlaceCombatant', combatantId: 'scout', position: { x: -1, y: -7 }, facing: 'S' },
  { type: 'SetInitiative', order: ['kael', 'ilsa', 'brute', 'scout'] },
  { type: 'StartRound' },
];

interface Scenario {
  fight: CreateFightInput;
  commands: CommandInput[];
  /** Event types the recorded log must hold, so a fixture cannot silently lose what it is there for. */
  holds: string[];
}

const seeded = (seed: string) => ({ mode: 'seeded' as const, seed });

/** What each fixture plays. Refused commands are left out; a decision the script does not answer is cancelled by the GM. */
const SCENARIOS: Record<string, Scenario> = {
  'narateer-manual-walkthrough': {
    fight: narateer({ mode: 'manual' }),
    commands: [
      { type: 'RollInitiative', dice: [6, 4, 2, 3, 1] },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      {
        type: 'DeclareExchange',
        attackerId: 'mira',
        targetId: 'orin',
        kind: 'melee',
        weaponId: 'sword',
        boost: 2,
      },
      {
        type: 'RespondToExchange',
        combatantId: 'orin',
        response: 'clash',
        boost: 1,
        weaponId: 'mace',
        dice: [6, 4, 3, 4, 3],
      },
      { type: 'EndActivation' },
      { type: 'EndFight', reason: 'Orin yields' },
    ],
    holds: ['InitiativeRolled', 'ExchangeDeclared', 'ExchangeResolved', 'WoundsApplied', 'FightEnded'],
  },
  'narateer-manual-dice-request-and-undo': {
    fight: narateer({ mode: 'manual' }),
    commands: [
      { type: 'SetInitiative', order: ['mira', 'orin'] },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      {
        type: 'DeclareExchange',
        attackerId: 'mira',
        targetId: 'orin',
        kind: 'melee',
        weaponId: 'sword',
        boost: 0,
      },
      // Full Guard rerolls one die: its face is not given, so the command is held and the die asked for.
      { type: 'RespondToExchange', combatantId: 'orin', response: 'fullGuard', boost: 0, dice: [1, 6] },
      { type: 'ProvideDice', rerollFaces: [6] },
      { type: 'UndoCommands', count: 1 },
      { type: 'ProvideDice', rerollFaces: [5] },
      { type: 'AddNote', text: 'Orin takes it on the shield arm.', combatantId: 'orin' },
      { type: 'EndFight', unfinished: true },
    ],
    holds: ['DiceRequested', 'ExchangeResolved', 'ActionsUndone', 'GmNoteAdded', 'FightEnded'],
  },
  'narateer-seeded': {
    fight: narateer(seeded('regression-narateer')),
    commands: [
      { type: 'RollInitiative' },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      {
        type: 'DeclareExchange',
        attackerId: 'mira',
        targetId: 'orin',
        kind: 'melee',
        weaponId: 'sword',
        boost: 2,
        response: { response: 'clash', boost: 1, weaponId: 'mace' },
      },
      {
        type: 'DeclareExchange',
        attackerId: 'orin',
        targetId: 'mira',
        kind: 'melee',
        weaponId: 'mace',
        boost: 1,
        response: 'none',
      },
      { type: 'EndActivation' },
      { type: 'StartActivation' },
      {
        type: 'DeclareExchange',
        attackerId: 'orin',
        targetId: 'mira',
        kind: 'melee',
        weaponId: 'mace',
        boost: 1,
        response: 'none',
      },
      { type: 'EndActivation' },
      { type: 'EndFight' },
    ],
    holds: ['InitiativeRolled', 'ExchangeResolved', 'FightEnded'],
  },
  'narateer-fair': {
    fight: narateer({ mode: 'fair' }),
    commands: [
      { type: 'RollInitiative' },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      {
        type: 'DeclareExchange',
        attackerId: 'mira',
        targetId: 'orin',
        kind: 'melee',
        weaponId: 'sword',
        boost: 1,
        response: 'none',
      },
      {
        type: 'DeclareExchange',
        attackerId: 'orin',
        targetId: 'mira',
        kind: 'melee',
        weaponId: 'mace',
        boost: 1,
        response: 'none',
      },
      { type: 'EndActivation' },
      { type: 'EndFight' },
    ],
    holds: ['InitiativeRolled', 'ExchangeResolved', 'FightEnded'],
  },
  'arcana-beast-manual': {
    fight: arcana({ mode: 'manual' }),
    commands: [
      { type: 'RollInitiative', dice: [4, 5, 6, 6, 6, 1, 1, 4, 1] },
      { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'close' },
      { type: 'SetBand', aId: 'pip', bId: 'wolf', band: 'close' },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      { type: 'Direct', combatantId: 'bo' },
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf', dice: [6, 5, 4, 1, 4, 1] },
      { type: 'EndActivation' },
      { type: 'StartActivation' },
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', dice: [8, 5, 4, 1, 1, 1, 1, 1] },
      { type: 'EndActivation' },
      { type: 'EndFight', winnerSide: 'heroes' },
    ],
    holds: ['InitiativeRolled', 'AttackResolved', 'DamageDealt', 'KnockedOut', 'FightEnded'],
  },
  'arcana-beast-seeded': {
    fight: arcana(seeded('regression-arcana')),
    commands: [
      { type: 'SetInitiative', order: ['pip', 'bo', 'ember', 'ash', 'wolf2', 'wolf'] },
      { type: 'SetBand', aId: 'pip', bId: 'wolf', band: 'close' },
      { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'close' },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf' },
      { type: 'EndActivation' },
      { type: 'StartActivation' },
      { type: 'EndActivation' },
      { type: 'StartActivation' },
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf' },
      { type: 'EndActivation' },
      { type: 'EndFight' },
    ],
    holds: ['AttackResolved', 'FightEnded'],
  },
  'arcana-beast-fair': {
    fight: arcana({ mode: 'fair' }),
    commands: [
      { type: 'RollInitiative' },
      { type: 'SetInitiative', order: ['pip', 'bo', 'ember', 'ash', 'wolf2', 'wolf'] },
      { type: 'SetBand', aId: 'pip', bId: 'wolf', band: 'close' },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      { type: 'Attack', attackerId: 'pip', targetId: 'wolf' },
      { type: 'EndActivation' },
      { type: 'EndFight' },
    ],
    holds: ['AttackResolved', 'FightEnded'],
  },
  'archsoul-manual': {
    fight: archsoul({ mode: 'manual' }),
    commands: [
      ...archsoulOpening,
      {
        type: 'Move',
        combatantId: 'kael',
        path: [
          { x: 1, y: -1 },
          { x: 1, y: -2 },
        ],
      },
      {
        type: 'ReactiveAttack',
        combatantId: 'brute',
        weaponId: 'sword',
        dice: [6, 6, 1, 1, 4, 1, 1, 1, 1, 3, 3, 1],
      },
      { type: 'ResumeAction', combatantId: 'kael' },
      { type: 'Attack', attackerId: 'ilsa', targetId: 'scout', weaponId: 'bow', dice: [5, 6, 2, 2, 4, 4, 1] },
      {
        type: 'Attack',
        attackerId: 'kael',
        targetId: 'brute',
        weaponId: 'sword',
        dice: [1, 1, 1, 2],
        followUpFaces: [3],
      },
      { type: 'EndTurn', combatantId: 'kael' },
      { type: 'EndTurn', combatantId: 'ilsa' },
      { type: 'EndFight' },
    ],
    holds: [
      'ReactiveAttackOffered',
      'PreventionRolled',
      'ExchangeResolved',
      'CriticalFailureRolled',
      'FightEnded',
    ],
  },
  'archsoul-seeded': {
    fight: archsoul(seeded('regression-archsoul')),
    commands: [
      ...archsoulOpening,
      { type: 'Attack', attackerId: 'kael', targetId: 'brute', weaponId: 'sword' },
      { type: 'Attack', attackerId: 'ilsa', targetId: 'scout', weaponId: 'bow' },
      { type: 'EndTurn', combatantId: 'kael' },
      { type: 'EndTurn', combatantId: 'ilsa' },
      { type: 'Attack', attackerId: 'brute', targetId: 'kael', weaponId: 'sword' },
      { type: 'EndTurn', combatantId: 'brute' },
      { type: 'EndTurn', combatantId: 'scout' },
      { type: 'EndFight' },
    ],
    holds: ['ExchangeResolved', 'FightEnded'],
  },
  'archsoul-fair': {
    fight: archsoul({ mode: 'fair' }),
    commands: [
      ...archsoulOpening,
      { type: 'Attack', attackerId: 'kael', targetId: 'brute', weaponId: 'sword' },
      { type: 'EndTurn', combatantId: 'kael' },
      { type: 'EndFight' },
    ],
    holds: ['ExchangeResolved', 'FightEnded'],
  },
};

async function record(name: string, scenario: Scenario): Promise<void> {
  const service = new FightService(new InMemoryEventStore(), () => new Date('2026-12-01T12:00:00.000Z'));
  const { fightId } = await service.create(scenario.fight);
  for (const [i, command] of scenario.commands.entries()) {
    const send = () => service.execute(fightId, { ...command, commandId: `${name}-${i}` });
    try {
      await send().catch(async (e: unknown) => {
        // A decision the script does not answer (the dice made it) is cancelled by the GM, then the command is sent again.
        if (!(e instanceof RuleViolation && e.code === 'PENDING_DECISION')) throw e;
        await service.execute(fightId, { type: 'CancelPending', commandId: `${name}-${i}-cancel` });
        return send();
      });
    } catch (e) {
      if (!(e instanceof RuleViolation || e instanceof AppError)) throw e;
    }
  }
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, `${name}.json`), JSON.stringify(await service.exportLog(fightId), null, 1) + '\n');
}

const recording = process.env.RECORD_FIXTURES === '1';

if (recording) {
  describe('recording the regression fixtures (RECORD_FIXTURES=1)', () => {
    it.each(Object.entries(SCENARIOS))('records %s', async (name, scenario) => {
      await record(name, scenario);
    });
  });
}

describe('recorded fights: today’s rules decide every one of them the same way', () => {
  it('there is a fixture for every scenario, every system and every dice mode', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual(Object.keys(SCENARIOS).sort());
    const logs = files.map(
      (f) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { system: string; dice: { mode: string } },
    );
    const covered = new Set(logs.map((l) => `${l.system}/${l.dice.mode}`));
    for (const system of ['narateer', 'arcana-beast', 'archsoul'])
      for (const mode of ['manual', 'seeded', 'fair']) expect(covered).toContain(`${system}/${mode}`);
  });

  it.each(Object.entries(SCENARIOS))(
    '%s verifies: chain, seed, every die, every decision, the view; and holds what it is there for',
    (name, scenario) => {
      const log = JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8'));
      const report = verifyFightLog(log);
      // The first diverging seq, named, when today's rules decide a recorded command differently.
      expect(report.firstDivergence).toBeUndefined();
      expect(report.ok).toBe(true);
      expect(report.complete).toBe(true);
      const types = new Set((log.entries as Array<{ type: string }>).map((e) => e.type));
      for (const type of scenario.holds) expect([name, type, types.has(type)]).toEqual([name, type, true]);
    },
  );
});
