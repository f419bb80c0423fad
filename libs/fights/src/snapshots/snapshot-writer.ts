import { setImmediate as nextTurn } from 'node:timers/promises';
import { CoalescedRun } from '../coalesced-run';
import type { LoadedFight } from '../fight-cache';
import { encodeSnapshot } from './fight-snapshot';
import { SnapshotStore } from './snapshot-store';

/**
 * Saves fight snapshots off the command path: a request only marks the fight, and one pass at a time (after
 * the command's turn of the event loop) encodes and saves each marked fight as the cache then holds it, so a
 * burst of commands on a fight costs one save. A failed save is reported and forgotten (snapshots are a cache).
 */
export class SnapshotWriter {
  private readonly pending = new Set<string>();
  private readonly run: CoalescedRun;

  constructor(
    private readonly store: SnapshotStore,
    /** The fight as the cache holds it now (its command index is only current for that one). */
    private readonly current: (fightId: string) => LoadedFight | undefined,
    onError: (e: unknown) => void,
  ) {
    this.run = new CoalescedRun(() => this.pass(), onError);
  }

  request(fightId: string): void {
    this.pending.add(fightId);
    this.run.kick();
  }

  /** Resolves once every fight requested so far has been saved (or failed to). */
  async flush(): Promise<void> {
    while (this.pending.size > 0 || this.run.busy) {
      this.run.kick();
      await nextTurn();
    }
  }

  close(): Promise<void> {
    this.pending.clear();
    return this.run.close();
  }

  private async pass(): Promise<void> {
    while (this.pending.size > 0) {
      // Yield first: the command that asked has finished its turn, and others get theirs between saves.
      await nextTurn();
      const fightId = this.pending.values().next().value!;
      this.pending.delete(fightId);
      const fight = this.current(fightId);
      if (!fight || fight.seq <= (fight.snapshotSeq ?? 0)) continue;
      const snapshot = encodeSnapshot(fight);
      await this.store.save(snapshot);
      fight.snapshotSeq = snapshot.seq;
      // Measured again now and then for the cache's size bound (fight-cache.ts approxBytes).
      fight.stateBytes = JSON.stringify(fight.state).length;
      const now = this.current(fightId);
      if (now && now.seq >= snapshot.seq) now.snapshotSeq = Math.max(now.snapshotSeq ?? 0, snapshot.seq);
    }
  }
}
