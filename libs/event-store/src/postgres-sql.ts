/**
 * SQL of the PostgreSQL adapter for one schema-qualified table (docs/event-store.md: xid8 + global_position).
 * Data and metadata are `json`, which keeps the text as given: members come back in the order they were
 * written, as on every other engine (jsonb would sort them by length, then bytes).
 */
export interface PgSql {
  table: string;
  channel: string;
  createSchema: string;
  createTable: string;
  /** The table's data and metadata columns still of type jsonb (an earlier version's table); $1 the table. */
  jsonbColumns: string;
  /** Converts the named columns to json (those jsonbColumns found). */
  toJson(columns: readonly string[]): string;
  byIds: string;
  revision: string;
  appendOne: string;
  appendBatch: string;
  readStream: string;
  readAll: string;
  readSelected: string;
  readPrefixed: string;
  /** The last committed event's checkpoint (no row: an empty log), past the horizon readers stop at. */
  head: string;
}

/** Channel names are limited to 63 bytes; two 30-character identifiers and a dot fit. */
const IDENT = /^[a-z_][a-z0-9_]{0,29}$/;

const COLUMNS = `transaction_id::text AS tx, global_position::text AS gp, stream_id, stream_revision::text AS rev,
  event_id::text AS id, type, data, metadata, stored_at`;

/**
 * What a commit's NOTIFY says: each stream it wrote and the revision of its last event, as a JSON object,
 * so that a follower that needs none of them can sleep on (docs/event-store.md "Selective follow").
 * NOTIFY payloads must stay under 8,000 bytes; past that it says nothing (''), and every follower reads.
 * An uncorrelated subquery: run once per statement. `json` is the object's text.
 */
const NOTIFY_MAX = 7900;
const sayable = (json: string) =>
  `(SELECT CASE WHEN octet_length(j) < ${NOTIFY_MAX} THEN j ELSE '' END FROM (SELECT ${json} AS j) n)`;
/** Any appends: their streams' last revisions, aggregated from what the statement added. */
const notifyPayload = sayable(`(SELECT coalesce(json_object_agg(s, r)::text, '')
            FROM (SELECT stream_id AS s, max(stream_revision) AS r FROM added GROUP BY stream_id) w)`);
/**
 * One append ($1 stream, after revision $2, $3 its event ids): its last revision is known from the
 * parameters, with no pass over what was added. With the aggregate the single writer made 0.54–0.66
 * of raw inserts' events/s, without it 0.65–0.80 (`npm run bench -- --only pg-append`, alternated).
 * Sent only when rows were added.
 */
const notifyOnePayload = sayable(`json_build_object($1::text, $2::bigint + cardinality($3::uuid[]))::text`);

export function pgSql(schema: string, table: string): PgSql {
  for (const name of [schema, table]) {
    if (!IDENT.test(name))
      throw new RangeError(`invalid PostgreSQL identifier "${name}" (lowercase, at most 30)`);
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
        data json NOT NULL,
        metadata json NOT NULL,
        stored_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (stream_id, stream_revision));
      CREATE INDEX IF NOT EXISTS "${table}_tx_gp" ON ${t} (transaction_id, global_position)`,
    jsonbColumns: JSONB_COLUMNS,
    toJson: (columns) => toJsonSql(t, columns),
    byIds: `SELECT ${COLUMNS} FROM ${t} WHERE event_id = ANY($1::uuid[])`,
    revision: `SELECT max(stream_revision)::text AS rev FROM ${t} WHERE stream_id = $1`,
    /*
     * One append after revision $2 (-1 = no stream): inserts nothing unless revision $2 exists,
     * and the unique (stream, revision) refuses a revision taken since. Data and metadata come
     * as one JSON array each ($5, $6), parsed once; json, not jsonb, keeps each event's text as
     * written (members in their order, docs/event-store.md). The sorted subquery is not flattened, so
     * identity values follow the revisions. NOTIFY ($7) goes out with the commit, naming the
     * stream and its last revision (notifyOnePayload).
     */
    appendOne: `
      WITH added AS (
        INSERT INTO ${t} (stream_id, stream_revision, event_id, type, data, metadata)
        SELECT $1, $2::bigint + e.ord, e.id, e.type, e.data, e.metadata
        FROM ROWS FROM (unnest($3::uuid[]), unnest($4::text[]), json_array_elements($5::json), json_array_elements($6::json))
          WITH ORDINALITY AS e(id, type, data, metadata, ord)
        WHERE $2::bigint < 0 OR EXISTS (SELECT 1 FROM ${t} WHERE stream_id = $1 AND stream_revision = $2::bigint)
        ORDER BY e.ord
        RETURNING transaction_id, global_position, stream_id, stream_revision)
      SELECT stream_id AS stream, stream_revision::text AS rev, transaction_id::text AS tx,
        global_position::text AS gp, pg_notify($7, ${notifyOnePayload})::text AS notified
      FROM added ORDER BY global_position`,
    /*
     * Group commit: several appends, at most one per stream and each event id once, in one
     * statement. $1 streams, $2 expected revisions (-1 no stream, NULL any); per event $3 its
     * append (1-based), $4 its place in that append (1-based), then id, type, data, metadata.
     * An append whose expected revision is not its stream's last, or whose ids are stored,
     * inserts nothing and returns no row (the caller then finds out why); the others go in.
     * Only a race with another open transaction can still fail the statement, on a unique key.
     * Every row calls pg_notify with the same payload (notifyPayload, computed once); PostgreSQL
     * sends identical notifications of a transaction once.
     */
    appendBatch: `
      WITH a AS (
        SELECT * FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS a(stream, expected, n)),
      e AS (
        SELECT * FROM ROWS FROM (unnest($3::int[]), unnest($4::int[]), unnest($5::uuid[]), unnest($6::text[]),
          json_array_elements($7::json), json_array_elements($8::json)) WITH ORDINALITY AS e(n, i, id, type, data, metadata, ord)),
      ok AS (
        SELECT a.n, a.stream, coalesce(cur.rev, -1) AS base FROM a
        CROSS JOIN LATERAL (SELECT max(stream_revision) AS rev FROM ${t} WHERE stream_id = a.stream) cur
        WHERE (a.expected IS NULL OR a.expected = coalesce(cur.rev, -1))
          AND NOT EXISTS (SELECT 1 FROM e JOIN ${t} s ON s.event_id = e.id WHERE e.n = a.n)),
      added AS (
        INSERT INTO ${t} (stream_id, stream_revision, event_id, type, data, metadata)
        SELECT ok.stream, ok.base + e.i, e.id, e.type, e.data, e.metadata
        FROM ok JOIN e ON e.n = ok.n
        ORDER BY e.ord
        RETURNING transaction_id, global_position, stream_id, stream_revision)
      SELECT stream_id AS stream, stream_revision::text AS rev, transaction_id::text AS tx,
        global_position::text AS gp, pg_notify($9, ${notifyPayload})::text AS notified
      FROM added ORDER BY global_position`,
    readStream: `SELECT ${COLUMNS} FROM ${t} WHERE stream_id = $1 AND stream_revision >= $2 ORDER BY stream_revision LIMIT $3`,
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
    readSelected: readSelectedSql(t),
    readPrefixed: readPrefixedSql(t),
    // A backward scan of the (transaction_id, global_position) index: the rows of open transactions are not visible.
    head: `SELECT transaction_id::text || ':' || global_position::text AS head FROM ${t}
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
  };
}

/** An earlier version made data and metadata jsonb, which sorts members (by length, then bytes). */
const JSONB_COLUMNS = `
      SELECT attname::text AS name FROM pg_attribute
      WHERE attrelid = to_regclass($1) AND attname IN ('data', 'metadata') AND NOT attisdropped
        AND atttypid = 'jsonb'::regtype
      ORDER BY attnum`;

/** Rewrites the table once; rows keep the text jsonb gives them (its order), new ones their own. */
function toJsonSql(t: string, columns: readonly string[]): string {
  const changes = columns
    .filter((c) => c === 'data' || c === 'metadata')
    .map((c) => `ALTER COLUMN ${c} TYPE json USING ${c}::json`);
  return `ALTER TABLE ${t} ${changes.join(', ')}`;
}

/**
 * The snapshot's xmin (`horizon`) and the last event of a finished transaction below it (`head`):
 * following the log from that head misses none that commits later.
 */
function horizonAndHead(t: string): string {
  return `WITH horizon AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
      head AS (
        SELECT transaction_id AS head_tx, global_position AS head_gp FROM ${t}, horizon
        WHERE transaction_id < horizon.xmin
        ORDER BY transaction_id DESC, global_position DESC LIMIT 1)`;
}

/**
 * The global log after a checkpoint ($1, $2) as readAll reads it, but only the events of streams not
 * named with the prefix $4 and of the streams $5: at most $3. `head` is the last event of a finished
 * transaction (below xmin) when it lies after the checkpoint: a read that returns fewer than $3 events
 * has passed over everything up to it, so the next one starts there. `held` counts selected events only.
 * `passed` names each stream with the prefix that the read passed over, with the revision of the last
 * event of it passed over (as text), as a JSON object: between the checkpoint and the last event
 * returned when the page is full, or the head when it is not. A follower need not learn of a commit by
 * its NOTIFY before a read passes over it (docs/event-store.md "Selective follow").
 */
function readSelectedSql(t: string): string {
  const selected = `(NOT starts_with(stream_id, $4) OR stream_id = ANY($5::text[]))`;
  return `
      ${horizonAndHead(t)},
      page AS (
        SELECT ${COLUMNS}, transaction_id AS sort_tx, global_position AS sort_gp FROM ${t}, horizon
        WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint) AND transaction_id < horizon.xmin
          AND ${selected}
        ORDER BY transaction_id, global_position
        LIMIT $3),
      bound AS (
        (SELECT sort_tx AS b_tx, sort_gp AS b_gp FROM page
          WHERE (SELECT count(*) FROM page) >= $3 ORDER BY sort_tx DESC, sort_gp DESC LIMIT 1)
        UNION ALL
        SELECT head_tx, head_gp FROM head WHERE (SELECT count(*) FROM page) < $3),
      passed AS (
        SELECT coalesce(json_object_agg(s, r::text)::text, '{}') AS passed FROM (
          SELECT stream_id AS s, max(stream_revision) AS r FROM ${t}, bound
          WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
            AND (transaction_id, global_position) <= (bound.b_tx, bound.b_gp)
            AND starts_with(stream_id, $4) AND NOT stream_id = ANY($5::text[])
          GROUP BY stream_id) p)
      SELECT h.held,
        (SELECT head_tx::text || ':' || head_gp::text FROM head
          WHERE (head_tx, head_gp) > ($1::xid8, $2::bigint)) AS head,
        passed.passed,
        e.* FROM (
        SELECT EXISTS (
          SELECT 1 FROM ${t}
          WHERE transaction_id >= horizon.xmin AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
            AND ${selected}
        ) AS held FROM horizon) h
      CROSS JOIN passed
      LEFT JOIN page e ON true
      ORDER BY e.sort_tx, e.sort_gp`;
}

/**
 * The streams named by prefix ($1) after a checkpoint ($2, $3) and the head, in one statement (one snapshot): the head is
 * the last event of a finished transaction (below xmin), so following from it misses none that
 * commits later; the rows are those at or before it. starts_with, not a range on the index:
 * a range under the database's collation need not hold every name that starts with the prefix.
 */
function readPrefixedSql(t: string): string {
  return `
      ${horizonAndHead(t)}
      SELECT (SELECT head_tx::text || ':' || head_gp::text FROM head) AS head, e.*
      FROM (SELECT 1) one
      LEFT JOIN LATERAL (
        SELECT ${COLUMNS}, transaction_id AS sort_tx, global_position AS sort_gp FROM ${t}, head
        WHERE (transaction_id, global_position) <= (head.head_tx, head.head_gp)
          AND (transaction_id, global_position) > ($2::xid8, $3::bigint)
          AND EXISTS (SELECT 1 FROM unnest($1::text[]) AS p(prefix) WHERE starts_with(stream_id, p.prefix))) e ON true
      ORDER BY e.sort_tx, e.sort_gp`;
}
