import { join } from 'node:path';
import { RuleViolation } from '@app/rules';
import {
  ARCANA_BEAST_STRATEGIES,
  ARCHSOUL_STRATEGIES,
  arcanaBeastLab,
  archsoulLab,
  FightOutcome,
  LabSystem,
  planLab,
  runLab,
  toJson,
} from '../src';

/** Plays `n` fights of every ordered pair of a system's strategies; returns each strategy's refused proposals and turns. */
function everyPair(system: LabSystem, n: number): FightOutcome[] {
  const plan = planLab({ system: system.id, fights: n, seed: 'legality' });
  const match = system.prepare(plan.sheets, plan.seed, plan.roundCap);
  const out: FightOutcome[] = [];
  for (const row of system.strategies)
    for (const col of system.strategies)
      for (let i = 0; i < n; i++) out.push(system.play(match, row.id, col.id, i));
  return out;
}

describe.each([
  ['arcana-beast', arcanaBeastLab, ARCANA_BEAST_STRATEGIES.length],
  ['archsoul', archsoulLab, ARCHSOUL_STRATEGIES.length],
] as const)('Combat Lab for %s', (id, system, count) => {
  const input = { system: id, fights: 4, seed: '42' };

  it('the same seed and sheets give the same JSON, byte for byte; another seed gives another', async () => {
    const few = { ...input, strategies: system.strategies.slice(0, 3).map((s) => s.id) };
    const a = toJson(await runLab(few, { workers: 0 }));
    expect(toJson(await runLab(few, { workers: 0 }))).toBe(a);
    expect(toJson(await runLab({ ...few, seed: '43' }, { workers: 0 }))).not.toBe(a);
  });

  it('offers at least five strategies, each with a one-line description, in a full matrix', async () => {
    expect(count).toBeGreaterThanOrEqual(5);
    for (const s of system.strategies) expect(s.description).toMatch(/^[^\n]{10,200}$/);
    const r = await runLab({ ...input, fights: 2 }, { workers: 0 });
    expect(r.cells.flat()).toHaveLength(count * count);
    for (const c of r.cells.flat()) {
      expect(c.rowWins + c.colWins + c.draws).toBe(2);
      expect(c.endings.roundCap + c.endings.stalemate).toBe(c.draws);
    }
  });

  it('every strategy’s proposals are almost all legal: in every pairing the decider refuses fewer than one per three fights', () => {
    const n = 3;
    const outcomes = everyPair(system, n);
    // A refusal ends the turn it was proposed in, so fewer refusals than fights means legal proposals in most turns.
    for (let cell = 0; cell < count * count; cell++)
      expect(outcomes.slice(cell * n, cell * n + n).reduce((t, o) => t + o.illegal, 0)).toBeLessThan(
        1 + n / 3,
      );
    expect(outcomes.reduce((t, o) => t + o.illegal, 0) / outcomes.length).toBeLessThan(0.05);
    // The fights are decided (not all draws): the strategies fight.
    expect(outcomes.filter((o) => o.winner !== undefined).length).toBeGreaterThan(outcomes.length / 2);
  });

  it('sheets are validated by the system’s decider, naming the sheet entry', async () => {
    const [first, second] = system.defaultSheets;
    const broken =
      id === 'archsoul'
        ? { ...first, maxHp: 0 }
        : { ...first, beast: { ...(first.beast as object), hp: -1 } };
    const error = await runLab({ ...input, sheets: [broken, { ...second }] }, { workers: 0 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RuleViolation);
    expect((error as RuleViolation).field).toMatch(
      id === 'archsoul' ? /^sheets\[0\]\.maxHp/ : /^sheets\[0\]\.beast\.hp/,
    );
  });

  it('worker threads and the in-process path give identical results', async () => {
    const viaWorkers = await runLab(
      { ...input, fights: 4, strategies: system.strategies.slice(0, 2).map((s) => s.id) },
      {
        workers: 2,
        workerFile: join(__dirname, '../src/worker.ts'),
        execArgv: ['--require', join(__dirname, '../../../test/support/ts-require.js')],
      },
    );
    expect(toJson(viaWorkers)).toBe(
      toJson(
        await runLab(
          { ...input, fights: 4, strategies: system.strategies.slice(0, 2).map((s) => s.id) },
          { workers: 0 },
        ),
      ),
    );
  });
});

describe('Archsoul on its map', () => {
  it('"starting positions and facing from the sheets file": the knights stand where the sheets put them', () => {
    const plan = planLab({ system: 'archsoul', fights: 1, seed: 'map' });
    const match = archsoulLab.prepare(plan.sheets, plan.seed, plan.roundCap) as {
      setup: { combatants: Record<string, { position: unknown; facing: string }> };
    };
    expect(match.setup.combatants.row).toMatchObject({
      position: plan.sheets[0].position,
      facing: plan.sheets[0].facing,
    });
    expect(match.setup.combatants.col).toMatchObject({
      position: plan.sheets[1].position,
      facing: plan.sheets[1].facing,
    });
  });

  it('a position the map forbids is refused by the decider, naming the sheet entry', () => {
    const [a, b] = archsoulLab.defaultSheets;
    expect(() => archsoulLab.prepare([{ ...a }, { ...b, position: a.position }], 's', 30)).toThrow(
      expect.objectContaining({ code: 'ARCHSOUL_SPACE_OCCUPIED', field: 'sheets[1].position' }),
    );
    expect(() =>
      archsoulLab.prepare(
        [
          { ...a, map: { grid: 'square' } },
          { ...b, map: { grid: 'hex' } },
        ],
        's',
        30,
      ),
    ).toThrow(expect.objectContaining({ code: 'LAB_SHEETS_INVALID', field: 'sheets[1].map' }));
  });

  it('a round cap of 1 ends every fight that nobody won in round 1 as a round-cap draw', async () => {
    const r = await runLab({ system: 'archsoul', fights: 3, seed: 'cap', roundCap: 1 }, { workers: 0 });
    for (const c of r.cells.flat()) expect(c.endings.roundCap).toBe(c.draws);
    expect(r.cells.flat().some((c) => c.draws > 0)).toBe(true);
  });
});
