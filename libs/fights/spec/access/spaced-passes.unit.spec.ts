import { setTimeout as sleep } from 'node:timers/promises';
import { SpacedPasses } from '../../src/access/spaced-passes';

/**
 * A SpacedPasses whose work records each pass: when it started and what its callers named. "When" is the
 * last reading of the clock SpacedPasses itself reads, the one it took as the pass started: a fresh reading
 * inside the work would add the time between the two, which differs from pass to pass (a pass 20 ms after
 * the one before could then look 19.98 ms after it).
 */
function recorded(spacingMs: number, workMs: number, fail?: (pass: number) => boolean) {
  const passes: Array<{ at: number; named: string[] }> = [];
  let lastReading = 0;
  const clock = () => (lastReading = performance.now());
  const passing = new SpacedPasses(
    async (named) => {
      passes.push({ at: lastReading, named: [...named].sort() });
      if (workMs > 0) await sleep(workMs);
      if (fail?.(passes.length)) throw new Error(`pass ${passes.length} failed`);
    },
    spacingMs,
    clock,
  );
  return { passing, passes };
}

/** `n` callers asking in one burst, each asking again as soon as its pass is over, `times` times in all. */
async function callers(passing: SpacedPasses, n: number, times: number): Promise<void> {
  await Promise.all(
    Array.from({ length: n }, async () => {
      for (let i = 0; i < times; i++) await passing.next();
    }),
  );
}

describe('SpacedPasses: however many ask, the work runs once per pass, passes spaced apart', () => {
  it('given a burst of callers in one turn, then one pass serves them all', async () => {
    const { passing, passes } = recorded(5, 0);
    await callers(passing, 100, 1);
    expect(passes).toHaveLength(1);
  });

  it('given passes slower than the spacing, when every caller asks again as soon as it is answered, then each pass still serves them all', async () => {
    // A pass that outlasts the spacing used to start the next one at once, with only those who had asked
    // meanwhile: the first caller and the rest then took turns, two passes for each round of asks.
    const { passing, passes } = recorded(5, 15);
    await callers(passing, 100, 4);
    expect(passes).toHaveLength(4);
  });

  it('given passes faster than the spacing, then each starts at least the spacing after the one before', async () => {
    const { passing, passes } = recorded(20, 0);
    await callers(passing, 10, 3);
    expect(passes).toHaveLength(3);
    for (let i = 1; i < passes.length; i++)
      expect(passes[i].at - passes[i - 1].at).toBeGreaterThanOrEqual(20);
  });

  it('given callers naming things, then the pass they share gets each name once', async () => {
    const { passing, passes } = recorded(5, 0);
    await Promise.all([passing.next('b'), passing.next('a'), passing.next('b'), passing.next()]);
    expect(passes).toEqual([expect.objectContaining({ named: ['a', 'b'] })]);
    await passing.next();
    expect(passes[1].named).toEqual([]);
  });

  it('given a pass that fails, then its callers get the error and the next pass runs for those who ask again', async () => {
    const { passing, passes } = recorded(5, 0, (pass) => pass === 1);
    const first = await Promise.allSettled([passing.next(), passing.next()]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(passing.next()).resolves.toBeUndefined();
    expect(passes).toHaveLength(2);
  });
});
