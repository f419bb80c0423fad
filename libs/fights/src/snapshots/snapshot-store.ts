/**
 * Where fight snapshots are kept (docs/event-store.md "Snapshots"): one row per fight, in the engine's own
 * database. A cache: losing it loses nothing, so every adapter may forget, and callers ignore its errors.
 */
export interface StoredSnapshot {
  fightId: string;
  /** What made it (fight-snapshot.ts snapshotVersion): a reader ignores another version's snapshot. */
  version: string;
  seq: number;
  /** Opaque to the store (fight-snapshot.ts). */
  payload: string;
}

export interface SnapshotStore {
  /** The fight's snapshot, of whatever version; undefined when there is none. */
  load(fightId: string): Promise<StoredSnapshot | undefined>;
  /** Keeps `snapshot` unless the one stored is of the same version and at a later or the same seq. */
  save(snapshot: StoredSnapshot): Promise<void>;
  close(): Promise<void>;
}

/** The memory engine's: a map, gone with the process like the log itself. */
export class MemorySnapshotStore implements SnapshotStore {
  private readonly rows = new Map<string, StoredSnapshot>();

  load(fightId: string): Promise<StoredSnapshot | undefined> {
    return Promise.resolve(this.rows.get(fightId));
  }

  save(snapshot: StoredSnapshot): Promise<void> {
    const kept = this.rows.get(snapshot.fightId);
    if (!kept || kept.version !== snapshot.version || kept.seq < snapshot.seq)
      this.rows.set(snapshot.fightId, { ...snapshot });
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
