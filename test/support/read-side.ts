import { ProjectionRunner } from '@app/fights';
import type { TestApp } from './app';

/**
 * Waits until the read models themselves hold the fight at `seq` or later: the fight-views row, and the
 * combatants that fold and commit with it. `?minSeq=` is no such barrier: when the projections are late it
 * answers from the log, and a read without it (the list, the combatants) may still find them behind.
 */
export async function projected(t: TestApp, fightId: string, seq: number, timeoutMs = 60_000): Promise<void> {
  const read = t.app.get(ProjectionRunner).read;
  const started = Date.now();
  while (((await read.getFight(fightId))?.seq ?? 0) < seq) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`the read models did not reach seq ${seq} of fight ${fightId} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
