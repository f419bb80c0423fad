/**
 * Where fight snapshots are kept (docs/event-store.md "Snapshots"): one row per fight, and the parts of its
 * command index, in the engine's own database. A cache: losing it loses nothing, so every adapter may forget,
 * and callers ignore its errors.
 */
export interface StoredSnapshot {
  fightId: string;
  /** What made it (fight-snapshot.ts snapshotVersion): a reader ignores another version's snapshot. */
  version: string;
  seq: number;
  /** Opaque to the store (fight-snapshot.ts). */
  payload: string;
  /**
   * Saved: the part since the snapshot the saver last saved or loaded. Loaded: every part of the fight that
   * starts before `seq`, by `fromSeq`.
   */
  parts: StoredPart[];
}

/**
 * The command index's entries for the fight's events after `fromSeq` up to `toSeq`, opaque to the store
 * (fight-snapshot.ts). The log never changes, so a part, once saved, is true for good, whichever snapshot
 * it was saved with: parts are never rewritten, only a longer one from the same seq kept.
 */
export interface StoredPart {
  fromSeq: number;
  toSeq: number;
  entries: string;
}

export interface SnapshotStore {
  /** The fight's snapshot, of whatever version, with its parts; undefined when there is none. */
  load(fightId: string): Promise<StoredSnapshot | undefined>;
  /**
   * Keeps each part unless one from the same seq reaching as far is kept, then `snapshot` unless the one
   * stored is of the same version and at a later or the same seq.
   */
  save(snapshot: StoredSnapshot): Promise<void>;
  close(): Promise<void>;
}

/** Keeps `part` in `parts` (fromSeq → part) unless one from its seq reaches as far. */
export function keepPart(parts: Map<number, StoredPart>, part: StoredPart): void {
  const kept = parts.get(part.fromSeq);
  if (!kept || kept.toSeq < part.toSeq) parts.set(part.fromSeq, { ...part });
}

/** The memory engine's: a map, gone with the process like the log itself. */
export class MemorySnapshotStore implements SnapshotStore {
  private readonly rows = new Map<string, Omit<StoredSnapshot, 'parts'>>();
  private readonly parts = new Map<string, Map<number, StoredPart>>();

  load(fightId: string): Promise<StoredSnapshot | undefined> {
    const row = this.rows.get(fightId);
    if (!row) return Promise.resolve(undefined);
    const parts = [...(this.parts.get(fightId)?.values() ?? [])]
      .filter((p) => p.fromSeq < row.seq)
      .sort((a, b) => a.fromSeq - b.fromSeq);
    return Promise.resolve({ ...row, parts });
  }

  save({ parts, ...snapshot }: StoredSnapshot): Promise<void> {
    let kept = this.parts.get(snapshot.fightId);
    if (!kept) this.parts.set(snapshot.fightId, (kept = new Map<number, StoredPart>()));
    for (const part of parts) keepPart(kept, part);
    const row = this.rows.get(snapshot.fightId);
    if (!row || row.version !== snapshot.version || row.seq < snapshot.seq)
      this.rows.set(snapshot.fightId, snapshot);
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
