import type { Database, Statement } from 'better-sqlite3';

/*
 * global_position is the rowid: SQLite has one writer at a time, so positions become visible
 * in order and a reader checkpointing on them never skips a late commit. Rows are never
 * deleted, so AUTOINCREMENT is not needed to keep positions unique.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  global_position INTEGER PRIMARY KEY,
  stream_id TEXT NOT NULL,
  stream_revision INTEGER NOT NULL,
  event_id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  stored_at TEXT NOT NULL,
  UNIQUE (stream_id, stream_revision)
) STRICT`;

export interface SqliteStatements {
  byIds: Statement<[string]>;
  revision: Statement<[string]>;
  insert: Statement<[string, number, string, string, string, string, string]>;
  readStream: Statement<[string, bigint, number]>;
  readAll: Statement<[number, number]>;
  head: Statement<[]>;
  /** One prefix's streams between two positions, unordered: [from, below, after, head]; `below` bounds the index range. */
  prefixed: Statement<[string, string, number, number]>;
  /** The same for a prefix with no string above its streams (it ends in U+10FFFF). */
  prefixedOpen: Statement<[string, number, number]>;
}

export function createSchema(db: Database): SqliteStatements {
  db.exec(SCHEMA);
  return {
    byIds: db.prepare('SELECT * FROM events WHERE event_id IN (SELECT value FROM json_each(?))'),
    revision: db.prepare('SELECT max(stream_revision) AS rev FROM events WHERE stream_id = ?'),
    insert: db.prepare(
      `INSERT INTO events (stream_id, stream_revision, event_id, type, data, metadata, stored_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    readStream: db.prepare(
      'SELECT * FROM events WHERE stream_id = ? AND stream_revision >= ? ORDER BY stream_revision LIMIT ?',
    ),
    readAll: db.prepare('SELECT * FROM events WHERE global_position > ? ORDER BY global_position LIMIT ?'),
    head: db.prepare('SELECT max(global_position) AS head FROM events'),
    // Ranges of the (stream_id, stream_revision) index: BINARY collation orders names by code point.
    // In index order: the caller sorts by position (a temporary B-tree here costs twice the read).
    // The position bounds are judged on the index entries (they hold the rowid): rows outside are not fetched.
    prefixed: db.prepare(
      'SELECT * FROM events WHERE stream_id >= ? AND stream_id < ? AND global_position > ? AND global_position <= ?',
    ),
    prefixedOpen: db.prepare(
      'SELECT * FROM events WHERE stream_id >= ? AND global_position > ? AND global_position <= ?',
    ),
  };
}
