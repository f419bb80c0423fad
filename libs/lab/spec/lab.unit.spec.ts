import { join } from 'node:path';
import {
  LabInputError,
  narateerLab,
  planChunks,
  planLab,
  playChunk,
  runLab,
  toJson,
  addTally,
  emptyTally,
  LabInput,
} from '../src';
import { RuleViolation } from '@app/rules';

const input: LabInput = { system: 'narateer', fights: 40, seed: '42' };
const inProcess = (i: LabInput) => runLab(i, { workers: 0 });

describe('Combat Lab runs', () => {
  it('the same seed and sheets give the same JSON, byte for byte; another seed gives another', async () => {
    const a = toJson(await inProcess(input));
    expect(toJson(await inProcess(input))).toBe(a);
    expect(toJson(await inProcess({ ...input, seed: '43' }))).not.toBe(a);
  });

  it('is a row × column matrix of every N14 strategy, both sides of each pair, every fight counted once', async () => {
    const r = await inProcess(input);
    const names = ['heavy', 'doubleTap', 'flurry', 'guard', 'clash'];
    expect(r.strategies).toEqual(names);
    expect(r.cells.map((row) => row.map((c) => `${c.row}/${c.col}`))).toEqual(
      names.map((a) => names.map((b) => `${a}/${b}`)),
    );
    for (const c of r.cells.flat()) {
      expect(c.rowWins + c.colWins + c.draws).toBe(40);
      expect(Object.values(c.endings).reduce((t, n) => t + n, 0)).toBe(40);
      expect(c.endings.roundCap + c.endings.stalemate).toBe(c.draws);
      expect(c.rowWin.low).toBeLessThanOrEqual(c.rowWin.rate);
      expect(c.rowWin.high).toBeGreaterThanOrEqual(c.rowWin.rate);
      expect(c.illegalProposals).toBe(0);
    }
  });

  it('with a mirror pair of sheets, cell [a][b] seen from the row matches cell [b][a] seen from the column', async () => {
    const mirror = narateerLab.defaultSheets[0];
    const r = await inProcess({ ...input, fights: 400, sheets: [{ ...mirror }, { ...mirror }] });
    for (let a = 0; a < 5; a++)
      for (let b = 0; b < 5; b++) {
        const ab = r.cells[a][b].rowWin;
        const ba = r.cells[b][a].colWin;
        // Both estimate the same probability: their 95% intervals overlap.
        expect(ab.low).toBeLessThanOrEqual(ba.high);
        expect(ba.low).toBeLessThanOrEqual(ab.high);
      }
  });

  it('a cell does not depend on the other cells or on how its fights are split', async () => {
    const full = await inProcess(input);
    const pair = await inProcess({ ...input, strategies: ['guard', 'flurry'] });
    expect(pair.cells[0][1]).toEqual(full.cells[3][2]);
    const plan = planLab(input);
    const match = narateerLab.prepare(plan.sheets, plan.seed, plan.roundCap);
    const whole = playChunk(narateerLab, match, {
      id: 0,
      cell: 0,
      row: 'heavy',
      col: 'clash',
      start: 0,
      end: 40,
    });
    const split = emptyTally();
    for (const [start, end] of [
      [25, 40],
      [0, 7],
      [7, 25],
    ])
      addTally(
        split,
        playChunk(narateerLab, match, { id: 0, cell: 0, row: 'heavy', col: 'clash', start, end }),
      );
    expect(split).toEqual(whole);
  });

  it('worker threads and the in-process path give identical results', async () => {
    const progress: number[] = [];
    const viaWorkers = await runLab(
      { ...input, fights: 300 },
      {
        workers: 2,
        workerFile: join(__dirname, '../src/worker.ts'),
        execArgv: ['--require', join(__dirname, '../../../test/support/ts-require.js')],
        onProgress: (p) => progress.push(p.done),
      },
    );
    expect(toJson(viaWorkers)).toBe(toJson(await inProcess({ ...input, fights: 300 })));
    expect(progress).toHaveLength(planChunks(planLab({ ...input, fights: 300 })).length);
    expect(progress[progress.length - 1]).toBe(300 * 25);
  });

  it('reports progress as fights done of the total', async () => {
    const seen: string[] = [];
    await runLab(
      { ...input, fights: 300, strategies: ['heavy'] },
      { workers: 0, onProgress: ({ done, total }) => seen.push(`${done}/${total}`) },
    );
    expect(seen).toEqual(['250/300', '300/300']);
  });
});

describe('Combat Lab input', () => {
  it.each([
    [{ fights: 100_001 }, 'LAB_FIGHTS_OUT_OF_RANGE', 'fights'],
    [{ fights: 0 }, 'LAB_FIGHTS_OUT_OF_RANGE', 'fights'],
    [{ system: 'chess' }, 'LAB_UNKNOWN_SYSTEM', 'system'],
    [{ strategies: ['heavy', 'berserk'] }, 'LAB_UNKNOWN_STRATEGY', 'strategies[1]'],
    [{ strategies: ['heavy', 'heavy'] }, 'LAB_DUPLICATE_STRATEGY', 'strategies'],
    [{ sheets: [{}] }, 'LAB_SHEETS_INVALID', 'sheets'],
  ])('%j is refused with %s on %s', (change, code, field) => {
    expect(() => planLab({ ...input, ...change })).toThrow(expect.objectContaining({ code, field }));
    expect(() => planLab({ ...input, ...change })).toThrow(LabInputError);
  });

  it('sheets are validated by the Narateer decider, naming the sheet field', async () => {
    const bad = { ...narateerLab.defaultSheets[0], maxAD: 99 };
    const error = await inProcess({ ...input, sheets: [bad, narateerLab.defaultSheets[1]] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RuleViolation);
    expect(error).toMatchObject({ field: 'sheets[0].maxAD' });
  });
});
