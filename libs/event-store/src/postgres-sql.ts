/** SQL of the PostgreSQL adapter for one schema-qualified table (EVENT-STORE.md: xid8 + global_position). */
export interface PgSql {
  table: string;
  channel: string;
  createSchema: string;
  createTable: string;
  byIds: string;
  revision: string;
  insert: string;
  insertAfter: string;
  notify: string;
  readStream: string;
  readAll: string;
}

/** Channel names are limited to 63 bytes; two 30-character identifiers and a dot fit. */
const IDENT = /^[a-z_][a-z0-9_]{0,29}$/;

const COLUMNS = `transaction_id::text AS tx, global_position::text AS gp, stream_id, stream_revision::text AS rev,
  event_id::text AS id, type, data, metadata, stored_at`;

export function pgSql(schema: string, table: string): PgSql {
  for (const name of [schema, table]) {
    if (!IDENT.test(name)) throw new RangeError(`invalid PostgreSQL identifier "${name}" (lowercase, at most 30)`);
  }
  const t = `"${schema}"."${table}"`;
  return {
    table: t,
    channel: `${schema}.${table}`,
    createSchema: `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
    createTable: `
      CREATE TABLE IF NOT EXISTS ${t} (
        global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        stream_id text NOT NULL,
        stream_revision bigint NOT NULL,
        event_id uuid NOT NULL UNIQUE,
        type text NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        stored_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (stream_id, stream_revision));
      CREATE INDEX IF NOT EXISTS "${table}_tx_gp" ON ${t} (transaction_id, global_position)`,
    byIds: `SELECT ${COLUMNS} FROM ${t} WHERE event_id = ANY($1::uuid[])`,
    revision: `SELECT max(stream_revision)::text AS rev FROM ${t} WHERE stream_id = $1`,
    // The sorted subquery is not flattened, so identity values follow the revisions.
    insert: `
      WITH added AS (
        INSERT INTO ${t} (stream_id, stream_revision, event_id, type, data, metadata)
        SELECT $1, $2::bigint + e.ord - 1, e.id, e.type, e.data::jsonb, e.metadata::jsonb
        FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS e(id, type, data, metadata, ord)
        ORDER BY e.ord
        RETURNING transaction_id, global_position, stream_revision)
      SELECT transaction_id::text AS tx, global_position::text AS gp FROM added ORDER BY stream_revision`,
    // One-statement append for an exact expected revision ($7; -1 = no stream): inserts nothing
    // unless revision $8 exists, and the unique (stream, revision) refuses a revision taken since.
    insertAfter: `
      WITH added AS (
        INSERT INTO ${t} (stream_id, stream_revision, event_id, type, data, metadata)
        SELECT $1, $2::bigint + e.ord - 1, e.id, e.type, e.data::jsonb, e.metadata::jsonb
        FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS e(id, type, data, metadata, ord)
        WHERE $7::bigint < 0 OR EXISTS (SELECT 1 FROM ${t} WHERE stream_id = $1 AND stream_revision = $7::bigint)
        ORDER BY e.ord
        RETURNING transaction_id, global_position, stream_revision)
      SELECT transaction_id::text AS tx, global_position::text AS gp FROM added ORDER BY stream_revision`,
    notify: `SELECT pg_notify($1, '')`,
    readStream: `SELECT ${COLUMNS} FROM ${t} WHERE stream_id = $1 AND stream_revision >= $2 ORDER BY stream_revision`,
    /*
     * Only transactions below the snapshot's xmin are finished: anything committing later sorts
     * after. One row at least, whose `held` says committed events wait behind an open transaction.
     */
    readAll: `
      WITH horizon AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
      SELECT h.held, e.* FROM (
        SELECT xmin, EXISTS (
          SELECT 1 FROM ${t}
          WHERE transaction_id >= horizon.xmin AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
        ) AS held FROM horizon) h
      LEFT JOIN LATERAL (
        SELECT ${COLUMNS}, transaction_id AS sort_tx, global_position AS sort_gp FROM ${t}
        WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint) AND transaction_id < h.xmin
        ORDER BY transaction_id, global_position
        LIMIT $3) e ON true
      ORDER BY e.sort_tx, e.sort_gp`,
  };
}
