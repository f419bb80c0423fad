import Database from 'better-sqlite3';
import { SnapshotStore, StoredPart, StoredSnapshot } from './snapshot-store';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS fight_snapshots (
  fight_id TEXT PRIMARY KEY,
  version TEXT NOT NULL,
  seq INTEGER NOT NULL,
  payload TEXT NOT NULL,
  saved_at TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS fight_snapshot_parts (
  fight_id TEXT NOT NULL,
  from_seq INTEGER NOT NULL,
  to_seq INTEGER NOT NULL,
  entries TEXT NOT NULL,
  PRIMARY KEY (fight_id, from_seq)
) STRICT, WITHOUT ROWID`;

const KEEP_PART = `
INSERT INTO fight_snapshot_parts (fight_id, from_seq, to_seq, entries) VALUES (?, ?, ?, ?)
ON CONFLICT (fight_id, from_seq) DO UPDATE SET to_seq = excluded.to_seq, entries = excluded.entries
WHERE fight_snapshot_parts.to_seq < excluded.to_seq`;

const UPSERT = `
INSERT INTO fight_snapshots (fight_id, version, seq, payload, saved_at) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (fight_id) DO UPDATE SET
  version = excluded.version, seq = excluded.seq, payload = excluded.payload, saved_at = excluded.saved_at
WHERE fight_snapshots.version <> excluded.version OR fight_snapshots.seq < excluded.seq`;

interface Row {
  fight_id: string;
  version: string;
  seq: number;
  payload: string;
}

/**
 * Snapshots in a table of the event store's SQLite file, their command index parts in another, on a
 * connection of their own; a save is one transaction. better-sqlite3 is
 * synchronous, so a save in this process never holds the write lock across an append of the event store's;
 * another process's lock is waited for briefly (a miss is only a snapshot not saved).
 */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly db: Database.Database;
  private readonly byId: Database.Statement<[string]>;
  private readonly upsert: Database.Statement<[string, string, number, string, string]>;
  private readonly partsOf: Database.Statement<[string, number]>;
  private readonly keepPart: Database.Statement<[string, number, number, string]>;
  private readonly saveAll: (s: StoredSnapshot) => void;

  constructor(file: string) {
    this.db = new Database(file, { timeout: 200 });
    this.db.pragma('journal_mode = WAL');
    this.db.exec(SCHEMA);
    this.byId = this.db.prepare(
      'SELECT fight_id, version, seq, payload FROM fight_snapshots WHERE fight_id = ?',
    );
    this.upsert = this.db.prepare(UPSERT);
    this.partsOf = this.db.prepare(
      `SELECT from_seq AS fromSeq, to_seq AS toSeq, entries FROM fight_snapshot_parts
       WHERE fight_id = ? AND from_seq < ? ORDER BY from_seq`,
    );
    this.keepPart = this.db.prepare(KEEP_PART);
    this.saveAll = this.db.transaction((s: StoredSnapshot) => {
      for (const p of s.parts) this.keepPart.run(s.fightId, p.fromSeq, p.toSeq, p.entries);
      this.upsert.run(s.fightId, s.version, s.seq, s.payload, new Date().toISOString());
    });
  }

  load(fightId: string): Promise<StoredSnapshot | undefined> {
    if (!this.db.open) return Promise.resolve(undefined);
    const row = this.byId.get(fightId) as Row | undefined;
    if (!row) return Promise.resolve(undefined);
    const parts = this.partsOf.all(fightId, row.seq) as StoredPart[];
    return Promise.resolve({
      fightId: row.fight_id,
      version: row.version,
      seq: row.seq,
      payload: row.payload,
      parts,
    });
  }

  save(s: StoredSnapshot): Promise<void> {
    if (!this.db.open) return Promise.resolve();
    this.saveAll(s);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.db.open) this.db.close();
    return Promise.resolve();
  }
}
