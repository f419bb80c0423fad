import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { verifyFightLog } from '@app/audit';
import { InMemoryEventStore } from '@app/event-store';
import { AppError, CommandInput, CreateFightInput, FightService } from '@app/fights';
import { RuleViolation } from '@app/rules';
import { pack, packRound } from './support/arcana-beast-sheets';
import { skirmish, skirmishExchanges, skirmishOpening } from './support/archsoul-sheets';
import { duel, duelRound, opening, respond, swing } from './support/narateer-sheets';

/**
 * Recorded fights as regression fixtures (STYLE.md rule 8): exported logs of every system and dice
 * mode, committed under test/fixtures/logs. Each is verified with today's rules: the chain, the seed,
 * every die and every command decided again. A change that rewrites history fails here at the first
 * diverging seq. A rule change that legitimately alters outcomes re-records the fixtures in the same
 * commit (`RECORD_FIXTURES=1 npx jest test/regression-fixtures`), with an upcaster if old logs must
 * still verify.
 */

const DIR = join(__dirname, 'fixtures', 'logs');

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
    fight: duel({ mode: 'manual' }),
    commands: [
      { type: 'RollInitiative', dice: [6, 4, 2, 3, 1] },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      swing('mira', 2),
      respond,
      { type: 'EndActivation' },
      { type: 'EndFight', reason: 'Orin yields' },
    ],
    holds: ['InitiativeRolled', 'ExchangeDeclared', 'ExchangeResolved', 'WoundsApplied', 'FightEnded'],
  },
  'narateer-manual-dice-request-and-undo': {
    fight: duel({ mode: 'manual' }),
    commands: [
      ...opening,
      swing('mira', 0),
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
    fight: duel(seeded('regression-narateer')),
    commands: [
      ...duelRound,
      { type: 'StartActivation' },
      swing('orin', 1, 'none'),
      { type: 'EndActivation' },
      { type: 'EndFight' },
    ],
    holds: ['InitiativeRolled', 'ExchangeResolved', 'FightEnded'],
  },
  'narateer-fair': {
    fight: duel({ mode: 'fair' }),
    commands: [
      { type: 'RollInitiative' },
      { type: 'StartRound' },
      { type: 'StartActivation' },
      swing('mira', 1, 'none'),
      swing('orin', 1, 'none'),
      { type: 'EndActivation' },
      { type: 'EndFight' },
    ],
    holds: ['InitiativeRolled', 'ExchangeResolved', 'FightEnded'],
  },
  'arcana-beast-manual': {
    fight: pack({ mode: 'manual' }),
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
    fight: pack(seeded('regression-arcana')),
    commands: [...packRound, { type: 'EndFight' }],
    holds: ['AttackResolved', 'FightEnded'],
  },
  'arcana-beast-fair': {
    fight: pack({ mode: 'fair' }),
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
    fight: skirmish({ mode: 'manual' }),
    commands: [
      ...skirmishOpening,
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
    fight: skirmish(seeded('regression-archsoul')),
    commands: [
      ...skirmishOpening,
      ...skirmishExchanges,
      { type: 'EndTurn', combatantId: 'scout' },
      { type: 'EndFight' },
    ],
    holds: ['ExchangeResolved', 'FightEnded'],
  },
  'archsoul-fair': {
    fight: skirmish({ mode: 'fair' }),
    commands: [
      ...skirmishOpening,
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
      // Recorded under this build's view version: the view is compared, not skipped as an older log's is.
      expect(report.proven).toContain('viewMatches');
      const types = new Set((log.entries as Array<{ type: string }>).map((e) => e.type));
      for (const type of scenario.holds) expect([name, type, types.has(type)]).toEqual([name, type, true]);
    },
  );
});
