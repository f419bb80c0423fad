import Database from 'better-sqlite3';
import { SnapshotStore, StoredSnapshot } from './snapshot-store';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS fight_snapshots (
  fight_id TEXT PRIMARY KEY,
  version TEXT NOT NULL,
  seq INTEGER NOT NULL,
  payload TEXT NOT NULL,
  saved_at TEXT NOT NULL
) STRICT`;

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
 * Snapshots in a table of the event store's SQLite file, on a connection of their own. better-sqlite3 is
 * synchronous, so a save in this process never holds the write lock across an append of the event store's;
 * another process's lock is waited for briefly (a miss is only a snapshot not saved).
 */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly db: Database.Database;
  private readonly byId: Database.Statement<[string]>;
  private readonly upsert: Database.Statement<[string, string, number, string, string]>;

  constructor(file: string) {
    this.db = new Database(file, { timeout: 200 });
    this.db.pragma('journal_mode = WAL');
    this.db.exec(SCHEMA);
    this.byId = this.db.prepare(
      'SELECT fight_id, version, seq, payload FROM fight_snapshots WHERE fight_id = ?',
    );
    this.upsert = this.db.prepare(UPSERT);
  }

  load(fightId: string): Promise<StoredSnapshot | undefined> {
    if (!this.db.open) return Promise.resolve(undefined);
    const row = this.byId.get(fightId) as Row | undefined;
    return Promise.resolve(
      row && { fightId: row.fight_id, version: row.version, seq: row.seq, payload: row.payload },
    );
  }

  save(s: StoredSnapshot): Promise<void> {
    if (!this.db.open) return Promise.resolve();
    this.upsert.run(s.fightId, s.version, s.seq, s.payload, new Date().toISOString());
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.db.open) this.db.close();
    return Promise.resolve();
  }
}
