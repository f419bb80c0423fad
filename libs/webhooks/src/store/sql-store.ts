import { ENDPOINT_CONCURRENCY, TENANT_CONCURRENCY } from '../config';
import { SqlDriver, SqlExec } from './driver';
import {
  AttemptOutcome,
  AttemptRow,
  DeliveryQuery,
  DeliveryRow,
  EndpointEffect,
  EndpointPatch,
  EndpointRow,
  NewDelivery,
  PreviousSecret,
  WebhookStore,
} from './types';

type Row = Record<string, unknown>;
const num = (v: unknown): number => Number(v);
const optNum = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** A nullable text column (a number only where a driver gives a numeric text back as one). */
const optStr = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : null;

/**
 * An endpoint's event types; a stored value that is no list (a `null` an older API let through) is the
 * default, all types (docs/webhooks.md: empty = all), so one malformed row cannot stop the outbox.
 */
function eventTypesOf(v: unknown): string[] {
  try {
    const types: unknown = JSON.parse(String(v));
    return Array.isArray(types) ? types.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * An endpoint's previous secrets: the `previous_secrets` list, or (a row no rotation of this version wrote) the one
 * `previous_secret`; entries that are not a secret with its end are left out, so one malformed row cannot stop the sender.
 */
function previousSecretsOf(r: Row): PreviousSecret[] {
  if (typeof r.previous_secrets !== 'string') {
    const secret = optStr(r.previous_secret);
    const until = optNum(r.previous_secret_until);
    return secret === null || until === null ? [] : [{ secret, until }];
  }
  try {
    const list: unknown = JSON.parse(r.previous_secrets);
    return Array.isArray(list)
      ? list.filter(
          (p: Partial<PreviousSecret> | null): p is PreviousSecret =>
            typeof p?.secret === 'string' && typeof p.until === 'number',
        )
      : [];
  } catch {
    return [];
  }
}

const toEndpoint = (r: Row): EndpointRow => ({
  id: String(r.id),
  tenantId: String(r.tenant_id),
  url: String(r.url),
  description: String(r.description),
  eventTypes: eventTypesOf(r.event_types),
  fightId: optStr(r.fight_id),
  enabled: num(r.enabled) === 1,
  secret: String(r.secret),
  previousSecrets: previousSecretsOf(r),
  disabledReason: optStr(r.disabled_reason),
  failingSince: optNum(r.failing_since),
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
});

const toDelivery = (r: Row): DeliveryRow => ({
  id: String(r.id),
  endpointId: String(r.endpoint_id),
  tenantId: String(r.tenant_id),
  fightId: optStr(r.fight_id),
  seq: num(r.seq),
  eventType: String(r.event_type),
  payload: String(r.payload),
  createdAt: num(r.created_at),
  status: String(r.status) as DeliveryRow['status'],
  attempts: num(r.attempts),
  roundAttempts: num(r.round_attempts),
  nextAttemptAt: num(r.next_attempt_at),
  lastStatus: optNum(r.last_status),
  lastError: optStr(r.last_error),
  deliveredAt: optNum(r.delivered_at),
});

const toAttempt = (r: Row): AttemptRow => ({
  deliveryId: String(r.delivery_id),
  endpointId: String(r.endpoint_id),
  attemptNo: num(r.attempt_no),
  attemptedAt: num(r.attempted_at),
  status: optNum(r.status),
  latencyMs: num(r.latency_ms),
  responseExcerpt: String(r.response_excerpt),
  error: optStr(r.error),
});

const ENDPOINT_COLUMNS: Record<keyof EndpointPatch, [string, (v: never) => unknown]> = {
  url: ['url', (v: string) => v],
  description: ['description', (v: string) => v],
  eventTypes: ['event_types', (v: string[]) => JSON.stringify(v)],
  fightId: ['fight_id', (v: string | null) => v],
  enabled: ['enabled', (v: boolean) => (v ? 1 : 0)],
  disabledReason: ['disabled_reason', (v: string | null) => v],
  failingSince: ['failing_since', (v: number | null) => v],
  updatedAt: ['updated_at', (v: number) => v],
};

const CHECKPOINT = 'webhook-outbox';

/** Whether any head is due (webhook_deliveries_heads_due): the whole claim when nothing is. Exported for the plan tests. */
export const ANY_DUE_SQL = `SELECT 1 AS due FROM webhook_deliveries WHERE status = 'pending' AND head = 1 AND next_attempt_at <= $1 LIMIT 1`;

/** A head that may be leased at `$1`: pending, due, and not leased (or its lease ran out: a crashed instance's). */
const CLAIMABLE = `d.status = 'pending' AND d.head = 1 AND d.next_attempt_at <= $1 AND (d.locked_until IS NULL OR d.locked_until < $1)`;

/**
 * The endpoints with a pending head, by a skip scan of webhook_deliveries_heads_endpoint from '' (before every id):
 * one search per endpoint, however many heads wait on it (a hanging receiver's backlog is never walked).
 */
const PENDING_ENDPOINTS = `WITH RECURSIVE p (endpoint_id) AS (
    SELECT CAST('' AS TEXT)
    UNION ALL
    SELECT (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' AND head = 1 AND endpoint_id > p.endpoint_id ORDER BY endpoint_id LIMIT 1)
    FROM p WHERE p.endpoint_id IS NOT NULL)`;

/** An endpoint's attempts in flight at `$1`, on any instance: its leases that have not run out (webhook_deliveries_leased). */
const inFlight = (endpoint: string) =>
  `SELECT count(*) AS n FROM webhook_deliveries l WHERE l.endpoint_id = ${endpoint} AND l.locked_until >= $1`;

/** A tenant's attempts in flight at `$1`, on any instance, over all its endpoints (webhook_deliveries_leased_tenant). */
const tenantInFlight = (tenant: string) =>
  `SELECT count(*) AS n FROM webhook_deliveries l WHERE l.tenant_id = ${tenant} AND l.locked_until >= $1`;

/** An endpoint's claimable heads in send order (webhook_deliveries_heads_endpoint), the first `limit`. */
const dueHeads = (endpoint: string, limit: string) =>
  `SELECT d.* FROM webhook_deliveries d WHERE d.endpoint_id = ${endpoint} AND ${CLAIMABLE} ORDER BY d.next_attempt_at, d.seq LIMIT ${limit}`;

/**
 * The claim's first step: each enabled endpoint with a pending head, its tenant and its attempts in flight (CROSS JOIN:
 * SQLite keeps the skip scan outside, one search of the endpoints per row). Exported for the plan tests.
 */
export const CLAIM_ENDPOINTS_SQL = `${PENDING_ENDPOINTS}
  SELECT e.id, e.tenant_id, (${inFlight('e.id')}) AS busy FROM p CROSS JOIN webhook_endpoints e WHERE e.id = p.endpoint_id AND e.enabled = 1`;

/** Then, for each endpoint with room, its first claimable heads ($2 the endpoint, $3 its room). */
export const ENDPOINT_DUE_SQL = dueHeads('$2', '$3');

/** And, once per tenant of such an endpoint, the tenant's attempts in flight ($2 the tenant). Exported for the plan tests. */
export const TENANT_IN_FLIGHT_SQL = tenantInFlight('$2');

/**
 * The claim's send order, the same on both engines: oldest due first, then seq; ties (one time and seq on several
 * endpoints or fights) by endpoint and delivery id in byte order. Candidates are merged, and each tenant's room
 * taken, in this order.
 */
const SEND_ORDER = `next_attempt_at, seq, endpoint_id COLLATE "C", id COLLATE "C"`;
const sendOrder = (a: Row, b: Row): number =>
  num(a.next_attempt_at) - num(b.next_attempt_at) ||
  num(a.seq) - num(b.seq) ||
  byteOrder(String(a.endpoint_id), String(b.endpoint_id)) ||
  byteOrder(String(a.id), String(b.id));
/** Ids are ASCII (base64url and the like): UTF-16 order is byte order. */
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * PostgreSQL: the steps in one round trip, merged in send order; at most $2 in all, $3 in flight per endpoint and $4
 * per tenant. Each endpoint's first heads are the candidates (c); each tenant with one is counted once (t), and keeps
 * its first `$4 - in flight` candidates in send order (a window per tenant). Exported for the plan tests.
 */
export const CLAIM_MANY_SQL = `${PENDING_ENDPOINTS},
  c AS (SELECT d.*, e.tenant_id AS claim_tenant FROM p JOIN webhook_endpoints e ON e.id = p.endpoint_id
    CROSS JOIN LATERAL (${inFlight('e.id')}) busy
    CROSS JOIN LATERAL (${dueHeads('e.id', 'GREATEST(LEAST($3 - busy.n, $2, $4), 0)')}) d
    WHERE e.enabled = 1),
  t AS (SELECT u.claim_tenant, (${tenantInFlight('u.claim_tenant')}) AS busy FROM (SELECT DISTINCT claim_tenant FROM c) u),
  r AS (SELECT c.*, row_number() OVER (PARTITION BY c.claim_tenant ORDER BY ${SEND_ORDER}) AS tenant_rank FROM c)
  SELECT r.* FROM r JOIN t ON t.claim_tenant = r.claim_tenant WHERE r.tenant_rank <= $4 - t.busy
  ORDER BY ${SEND_ORDER} LIMIT $2`;

/** The advisory lock class of claims ('WHK2'): one claim at a time per schema, so no two count the same free room. */
const CLAIM_LOCK_CLASS = 0x57484b32;

const DELIVERY_COLUMNS = 9;
const INSERT_CHUNK = 100;

/** Inserts pending deliveries, many to a statement, ignoring ids already stored; a ping (no fight) is its own head, the rest are marked by markHeads. */
async function insertDeliveries(q: SqlExec, ds: NewDelivery[]): Promise<void> {
  for (let at = 0; at < ds.length; at += INSERT_CHUNK) {
    const chunk = ds.slice(at, at + INSERT_CHUNK);
    const values = chunk.map((_, i) => {
      const p = (n: number) => `$${i * DELIVERY_COLUMNS + n}`;
      return `(${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, 'pending', 0, 0, ${p(8)}, ${p(9)})`;
    });
    await q.run(
      `INSERT INTO webhook_deliveries (id, endpoint_id, tenant_id, fight_id, seq, event_type, payload, created_at, status, attempts, round_attempts, next_attempt_at, head)
       VALUES ${values.join(', ')} ON CONFLICT (id) DO NOTHING`,
      chunk.flatMap((d) => [
        d.id,
        d.endpointId,
        d.tenantId,
        d.fightId,
        d.seq,
        d.eventType,
        d.payload,
        d.createdAt,
        d.fightId === null ? 1 : 0,
      ]),
    );
  }
}

/** An (endpoint, fight): the unit of ordering. */
type Group = readonly [endpointId: string, fightId: string];

function groupsOf(ds: Array<{ endpointId: string; fightId: string | null }>): Group[] {
  const seen = new Map<string, Group>();
  for (const d of ds)
    if (d.fightId !== null) seen.set(`${d.endpointId}\u0000${d.fightId}`, [d.endpointId, d.fightId]);
  return [...seen.values()];
}

/** A group's lowest pending delivery, through webhook_deliveries_order (one entry read). Exported for the plan tests. */
export const LOWEST_PENDING_SQL = `SELECT id, head FROM webhook_deliveries WHERE endpoint_id = $1 AND fight_id = $2 AND status = 'pending' ORDER BY seq LIMIT 1`;

/** PostgreSQL: the same for many groups in one round trip (one search of the order index per group). */
export const LOWEST_PENDING_MANY_SQL = `SELECT g.i, l.id, l.head FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS g(endpoint_id, fight_id, i)
  CROSS JOIN LATERAL (SELECT id, head FROM webhook_deliveries w WHERE w.endpoint_id = g.endpoint_id AND w.fight_id = g.fight_id AND w.status = 'pending' ORDER BY w.seq LIMIT 1) l`;

type Lowest = { id: string; head: number } | undefined;

/** Each group's lowest pending delivery: the one that may be sent. */
async function lowestPending(q: SqlExec, groups: Group[], postgres: boolean): Promise<Lowest[]> {
  if (groups.length === 0) return [];
  if (!postgres) {
    const out: Lowest[] = [];
    for (const g of groups) {
      const [r] = await q.query<{ id: string; head: number }>(LOWEST_PENDING_SQL, [...g]);
      out.push(r && { id: r.id, head: Number(r.head) });
    }
    return out;
  }
  const rows = await q.query<{ i: string; id: string; head: number }>(LOWEST_PENDING_MANY_SQL, [
    groups.map((g) => g[0]),
    groups.map((g) => g[1]),
  ]);
  const out: Lowest[] = groups.map(() => undefined);
  for (const r of rows) out[Number(r.i) - 1] = { id: r.id, head: Number(r.head) };
  return out;
}

async function setHead(q: SqlExec, ids: string[], head: 0 | 1): Promise<void> {
  for (let at = 0; at < ids.length; at += 500) {
    const chunk = ids.slice(at, at + 500);
    await q.run(
      `UPDATE webhook_deliveries SET head = ${head} WHERE id IN (${chunk.map((_, i) => `$${i + 1}`).join(', ')})`,
      chunk,
    );
  }
}

/**
 * Moves each group's head mark to its lowest pending delivery, given the head each had before the change (`before`,
 * read in the same transaction): an index read per group and a write only where the head moved.
 */
async function markHeads(q: SqlExec, groups: Group[], before: Lowest[], postgres: boolean): Promise<void> {
  const lows = await lowestPending(q, groups, postgres);
  const clear: string[] = [];
  const set: string[] = [];
  lows.forEach((low, i) => {
    const was = before[i]?.id;
    if (was !== undefined && was !== low?.id) clear.push(was);
    if (low && low.head !== 1) set.push(low.id);
  });
  await setHead(q, clear, 0);
  await setHead(q, set, 1);
}

/**
 * SQLite (in process, so a statement per endpoint costs no round trip): the claim's candidates, merged in send order;
 * each tenant's room (`perTenant` less its attempts in flight, counted once) is taken in that order, as PostgreSQL's
 * window does. An endpoint of a full tenant reads none of its heads.
 */
async function candidatesSqlite(
  q: SqlExec,
  now: number,
  limit: number,
  perEndpoint: number,
  perTenant: number,
): Promise<Row[]> {
  const tenantRoom = new Map<string, number>();
  const heads: Array<{ row: Row; tenant: string }> = [];
  for (const e of await q.query<{ id: string; tenant_id: string; busy: number }>(CLAIM_ENDPOINTS_SQL, [
    now,
  ])) {
    const room = Math.min(perEndpoint - Number(e.busy), limit);
    if (room <= 0) continue;
    const tenant = String(e.tenant_id);
    let left = tenantRoom.get(tenant);
    if (left === undefined) {
      const [t] = await q.query<{ n: number }>(TENANT_IN_FLIGHT_SQL, [now, tenant]);
      left = perTenant - Number(t?.n ?? 0);
      tenantRoom.set(tenant, left);
    }
    const take = Math.min(room, left);
    if (take > 0)
      for (const row of await q.query(ENDPOINT_DUE_SQL, [now, e.id, take])) heads.push({ row, tenant });
  }
  heads.sort((a, b) => sendOrder(a.row, b.row));
  const out: Row[] = [];
  for (const { row, tenant } of heads) {
    if (out.length === limit) break;
    const left = tenantRoom.get(tenant)!;
    if (left <= 0) continue;
    tenantRoom.set(tenant, left - 1);
    out.push(row);
  }
  return out;
}

/** 32-bit FNV-1a of a group: its advisory lock key on PostgreSQL. */
function groupKey([endpointId, fightId]: Group): number {
  let h = 0x811c9dc5;
  for (const ch of `${endpointId}\u0000${fightId}`) h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193);
  return h | 0;
}

/** The advisory lock class of head marks ('WHK1'), apart from the single-key lock of the schema. */
const HEAD_LOCK_CLASS = 0x57484b31;
/** The advisory lock class under which one tenant's endpoint creations take turns (PostgreSQL). */
const TENANT_LOCK_CLASS = 0x57484b33;

/** The webhook store over SQLite or PostgreSQL: the same SQL, the driver supplies the dialect. */
export class SqlWebhookStore implements WebhookStore {
  constructor(private readonly db: SqlDriver) {}

  get engine(): string {
    return this.db.engine;
  }

  /** The SQLite file of the store, when it is one (not `:memory:`). */
  get file(): string | undefined {
    return this.db.engine === 'sqlite' ? this.db.file : undefined;
  }

  /**
   * PostgreSQL: takes the groups' head locks (transaction advisory locks, in key order so two transactions never wait
   * on each other) before anything reads or moves their heads; concurrent instances then never leave a group with
   * two heads or none. SQLite's single writer needs none.
   */
  private async lockGroups(q: SqlExec, groups: Group[]): Promise<void> {
    if (this.db.engine !== 'postgres' || groups.length === 0) return;
    const keys = [...new Set(groups.map(groupKey))].sort((a, b) => a - b);
    await q.query(`SELECT pg_advisory_xact_lock(${HEAD_LOCK_CLASS}, k) FROM unnest($1::int[]) AS k`, [keys]);
  }

  /** Inserts deliveries and moves their groups' heads, in the caller's transaction. */
  private async queue(q: SqlExec, ds: NewDelivery[]): Promise<void> {
    const groups = groupsOf(ds);
    await this.lockGroups(q, groups);
    const postgres = this.db.engine === 'postgres';
    const before = await lowestPending(q, groups, postgres);
    await insertDeliveries(q, ds);
    await markHeads(q, groups, before, postgres);
  }

  async insertEndpoint(e: EndpointRow, limit = Infinity): Promise<boolean> {
    if (limit === Infinity) {
      await this.insertEndpointRow(this.db, e);
      return true;
    }
    return this.db.tx(async (q) => {
      // PostgreSQL: creations for one tenant take turns (SQLite's transaction has the database to itself).
      if (this.db.engine === 'postgres')
        await q.query(`SELECT pg_advisory_xact_lock(${TENANT_LOCK_CLASS}, hashtext($1))`, [e.tenantId]);
      const [{ n }] = await q.query<{ n: number | string }>(
        'SELECT count(*) AS n FROM webhook_endpoints WHERE tenant_id = $1',
        [e.tenantId],
      );
      if (Number(n) >= limit) return false;
      await this.insertEndpointRow(q, e);
      return true;
    });
  }

  private async insertEndpointRow(q: SqlExec, e: EndpointRow): Promise<void> {
    await q.run(
      `INSERT INTO webhook_endpoints (id, tenant_id, url, description, event_types, fight_id, enabled, secret, previous_secret, previous_secret_until, disabled_reason, failing_since, created_at, updated_at, previous_secrets)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        e.id,
        e.tenantId,
        e.url,
        e.description,
        JSON.stringify(e.eventTypes),
        e.fightId,
        e.enabled ? 1 : 0,
        e.secret,
        e.previousSecrets[0]?.secret ?? null,
        e.previousSecrets[0]?.until ?? null,
        e.disabledReason,
        e.failingSince,
        e.createdAt,
        e.updatedAt,
        JSON.stringify(e.previousSecrets),
      ],
    );
  }

  async updateEndpoint(
    id: string,
    patch: EndpointPatch,
    guard?: (row: EndpointRow) => void,
  ): Promise<boolean> {
    const sets: string[] = [];
    const args: unknown[] = [id];
    for (const [key, value] of Object.entries(patch) as Array<[keyof EndpointPatch, never]>) {
      if (value === undefined) continue;
      const [column, encode] = ENDPOINT_COLUMNS[key];
      sets.push(`${column} = $${args.push(encode(value))}`);
    }
    const update = (q: SqlExec) =>
      sets.length ? q.run(`UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE id = $1`, args) : 1;
    if (!guard) return (await update(this.db)) === 1;
    return this.db.tx(async (q) => (await this.guarded(q, id, guard)) && (await update(q)) === 1);
  }

  /**
   * Reads the endpoint's row for `guard`, locked until the transaction ends (PostgreSQL `FOR UPDATE`; a SQLite
   * transaction already has the database to itself): no other change comes between the check and the change.
   */
  private async guarded(q: SqlExec, id: string, guard: (row: EndpointRow) => void): Promise<boolean> {
    const lock = this.db.engine === 'postgres' ? 'FOR UPDATE' : '';
    const [r] = await q.query(`SELECT * FROM webhook_endpoints WHERE id = $1 ${lock}`, [id]);
    if (!r) return false;
    guard(toEndpoint(r));
    return true;
  }

  async replaceSecret(
    id: string,
    expected: string,
    next: Pick<EndpointRow, 'secret' | 'previousSecrets' | 'updatedAt'>,
  ): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE webhook_endpoints SET secret = $3, previous_secrets = $4, previous_secret = $5, previous_secret_until = $6, updated_at = $7
       WHERE id = $1 AND secret = $2`,
      [
        id,
        expected,
        next.secret,
        JSON.stringify(next.previousSecrets),
        next.previousSecrets[0]?.secret ?? null,
        next.previousSecrets[0]?.until ?? null,
        next.updatedAt,
      ],
    );
    return changed === 1;
  }

  async getEndpoint(id: string) {
    const [r] = await this.db.query(`SELECT * FROM webhook_endpoints WHERE id = $1`, [id]);
    return r && toEndpoint(r);
  }

  async listEndpoints(tenantId: string) {
    return (
      await this.db.query(`SELECT * FROM webhook_endpoints WHERE tenant_id = $1 ORDER BY created_at, id`, [
        tenantId,
      ])
    ).map(toEndpoint);
  }

  async hasEndpoints(): Promise<boolean> {
    return (await this.db.query(`SELECT 1 AS one FROM webhook_endpoints LIMIT 1`, [])).length > 0;
  }

  async deleteEndpoint(id: string, guard?: (row: EndpointRow) => void): Promise<boolean> {
    return this.db.tx(async (q) => {
      if (guard && !(await this.guarded(q, id, guard))) return false;
      await q.run(`DELETE FROM webhook_attempts WHERE endpoint_id = $1`, [id]);
      await q.run(`DELETE FROM webhook_deliveries WHERE endpoint_id = $1`, [id]);
      return (await q.run(`DELETE FROM webhook_endpoints WHERE id = $1`, [id])) === 1;
    });
  }

  async checkpoint() {
    const [r] = await this.db.query<{ checkpoint: string }>(
      `SELECT checkpoint FROM webhook_checkpoint WHERE name = $1`,
      [CHECKPOINT],
    );
    return r?.checkpoint || undefined;
  }

  async fightTenants(fightIds: string[]) {
    const out = new Map<string, string>();
    for (const id of fightIds) {
      const [r] = await this.db.query<{ tenant_id: string }>(
        `SELECT tenant_id FROM webhook_fight_tenants WHERE fight_id = $1`,
        [id],
      );
      if (r) out.set(id, r.tenant_id);
    }
    return out;
  }

  commitPage(
    expected: string | undefined,
    next: string,
    page: { fightTenants: Array<[string, string]>; deliveries: NewDelivery[] },
  ): Promise<boolean> {
    return this.db.tx(async (q) => {
      await q.run(
        `INSERT INTO webhook_checkpoint (name, checkpoint) VALUES ($1, '') ON CONFLICT DO NOTHING`,
        [CHECKPOINT],
      );
      // The row lock (PostgreSQL) or the write lock (SQLite) makes the compare-and-set safe between consumers.
      const [current] = await q.query<{ checkpoint: string }>(
        `SELECT checkpoint FROM webhook_checkpoint WHERE name = $1 ${this.db.engine === 'postgres' ? 'FOR UPDATE' : ''}`,
        [CHECKPOINT],
      );
      if ((current.checkpoint || undefined) !== expected) return false;
      for (const [fightId, tenantId] of page.fightTenants) {
        await q.run(
          `INSERT INTO webhook_fight_tenants (fight_id, tenant_id) VALUES ($1, $2) ON CONFLICT (fight_id) DO NOTHING`,
          [fightId, tenantId],
        );
      }
      await this.queue(q, page.deliveries);
      await q.run(`UPDATE webhook_checkpoint SET checkpoint = $2 WHERE name = $1`, [CHECKPOINT, next]);
      return true;
    });
  }

  async insertDelivery(d: NewDelivery): Promise<void> {
    if (d.fightId === null) return insertDeliveries(this.db, [d]);
    await this.db.tx((q) => this.queue(q, [d]));
  }

  /**
   * Leases the due heads in send order, at most `perEndpoint` in flight per endpoint and `perTenant` per tenant (its
   * endpoints together) over every instance: it reads each endpoint with a pending head once (a skip scan), each
   * tenant's leases once, and then only the heads it may lease, never an endpoint's whole backlog. Nothing due: one index probe and no transaction (the dispatcher's poll of an idle outbox).
   */
  async claimDue(
    now: number,
    limit: number,
    owner: string,
    leaseUntil: number,
    perEndpoint = ENDPOINT_CONCURRENCY,
    perTenant = TENANT_CONCURRENCY,
  ): Promise<DeliveryRow[]> {
    const [due] = await this.db.query(ANY_DUE_SQL, [now]);
    if (!due) return [];
    return this.db.tx(async (q) => {
      const candidates =
        this.db.engine === 'postgres'
          ? await this.candidatesPostgres(q, now, limit, perEndpoint, perTenant)
          : await candidatesSqlite(q, now, limit, perEndpoint, perTenant);
      if (candidates.length === 0) return [];
      const ids = candidates.map((r) => String(r.id));
      // A candidate another transaction took or moved meanwhile fails CLAIMABLE here and is left out.
      const leased = await q.query(
        `UPDATE webhook_deliveries SET locked_until = $2, locked_by = $3 WHERE id IN (
           SELECT d.id FROM webhook_deliveries d WHERE d.id IN (${ids.map((_, i) => `$${i + 4}`).join(', ')}) AND ${CLAIMABLE} ${this.db.lockClause}
         ) RETURNING *`,
        [now, leaseUntil, owner, ...ids],
      );
      const rank = new Map(ids.map((id, i) => [id, i]));
      return leased.map(toDelivery).sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
    });
  }

  /**
   * PostgreSQL: claims take turns per schema (a transaction advisory lock), so each counts the leases of the claims
   * before it and instances claiming at once never lease more than `perEndpoint` of one endpoint, nor `perTenant` of
   * one tenant, between them.
   */
  private async candidatesPostgres(
    q: SqlExec,
    now: number,
    limit: number,
    perEndpoint: number,
    perTenant: number,
  ): Promise<Row[]> {
    await q.query(`SELECT pg_advisory_xact_lock(${CLAIM_LOCK_CLASS}, hashtext(current_schema()))`);
    return q.query(CLAIM_MANY_SQL, [now, limit, perEndpoint, perTenant]);
  }

  recordAttempt(owner: string, a: AttemptRow, o: AttemptOutcome, effect: EndpointEffect): Promise<boolean> {
    const finished = o.status !== 'pending';
    return this.db.tx(async (q) => {
      // A finished delivery hands its group's head on: the group is locked before the delivery changes.
      const [row] = finished
        ? await q.query<{ fight_id: string | null }>(
            `SELECT fight_id FROM webhook_deliveries WHERE id = $1`,
            [a.deliveryId],
          )
        : [];
      const group: Group | undefined =
        row && row.fight_id !== null ? [a.endpointId, row.fight_id] : undefined;
      if (group) await this.lockGroups(q, [group]);
      const changed = await q.run(
        `UPDATE webhook_deliveries SET status = $3, attempts = attempts + 1, round_attempts = round_attempts + 1, next_attempt_at = $4, last_status = $5, last_error = $6, delivered_at = $7, locked_until = NULL, locked_by = NULL,
           head = CASE WHEN $8 = 1 THEN 0 ELSE head END
         WHERE id = $1 AND locked_by = $2`,
        [
          a.deliveryId,
          owner,
          o.status,
          o.nextAttemptAt,
          o.lastStatus,
          o.lastError,
          o.deliveredAt,
          finished ? 1 : 0,
        ],
      );
      // The lease ran out and another instance took the delivery over: its attempt is the one that counts.
      if (changed === 0) return false;
      if (group) await markHeads(q, [group], [undefined], this.db.engine === 'postgres');
      await q.run(`INSERT INTO webhook_attempts VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
        a.deliveryId,
        a.attemptNo,
        a.endpointId,
        a.attemptedAt,
        a.status,
        a.latencyMs,
        a.responseExcerpt,
        a.error,
      ]);
      if (effect.kind === 'success')
        await q.run(
          `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL`,
          [a.endpointId],
        );
      else if (effect.kind === 'disable')
        await q.run(
          `UPDATE webhook_endpoints SET enabled = 0, disabled_reason = $2, updated_at = $3 WHERE id = $1`,
          [a.endpointId, effect.reason, a.attemptedAt],
        );
      else {
        await q.run(
          `UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1 AND failing_since IS NULL`,
          [a.endpointId, effect.now],
        );
        await q.run(
          `UPDATE webhook_endpoints SET enabled = 0, disabled_reason = $2, updated_at = $4 WHERE id = $1 AND enabled = 1 AND failing_since <= $3`,
          [a.endpointId, effect.reason, effect.disableIfFailingSince, effect.now],
        );
      }
      return true;
    });
  }

  async releaseLeases(owner: string, ids?: string[]): Promise<void> {
    if (!ids)
      return void (await this.db.run(
        `UPDATE webhook_deliveries SET locked_until = NULL, locked_by = NULL WHERE locked_by = $1`,
        [owner],
      ));
    for (const id of ids)
      await this.db.run(
        `UPDATE webhook_deliveries SET locked_until = NULL, locked_by = NULL WHERE id = $1 AND locked_by = $2`,
        [id, owner],
      );
  }

  async stats() {
    const byStatus = await this.db.query<{ status: string; n: number | string }>(
      'SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status',
    );
    const failed = await this.db.query<{ n: number | string }>(
      'SELECT count(*) AS n FROM webhook_attempts WHERE error IS NOT NULL OR status IS NULL OR status < 200 OR status >= 300',
    );
    return {
      deliveries: Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)])),
      failedAttempts: Number(failed[0]?.n ?? 0),
    };
  }

  async getDelivery(id: string) {
    const [r] = await this.db.query(`SELECT * FROM webhook_deliveries WHERE id = $1`, [id]);
    return r && toDelivery(r);
  }

  async listDeliveries(endpointId: string, q: DeliveryQuery) {
    const where = ['endpoint_id = $1'];
    const args: unknown[] = [endpointId];
    if (q.status) where.push(`status = $${args.push(q.status)}`);
    if (q.fightId) where.push(`fight_id = $${args.push(q.fightId)}`);
    if (q.before !== undefined) where.push(`created_at < $${args.push(q.before)}`);
    // Ids in byte order on both engines: PostgreSQL's own collation may order base64url ids otherwise.
    const id = this.db.engine === 'postgres' ? 'id COLLATE "C"' : 'id';
    if (q.after)
      where.push(
        `(created_at, seq, ${id}) < ($${args.push(q.after.createdAt)}, $${args.push(q.after.seq)}, $${args.push(q.after.id)})`,
      );
    const rows = await this.db.query(
      `SELECT * FROM webhook_deliveries WHERE ${where.join(' AND ')} ORDER BY created_at DESC, seq DESC, ${id} DESC LIMIT $${args.push(q.limit)}`,
      args,
    );
    return rows.map(toDelivery);
  }

  async listAttempts(deliveryId: string) {
    return (
      await this.db.query(`SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_no`, [
        deliveryId,
      ])
    ).map(toAttempt);
  }

  requeue(
    endpointId: string,
    filter: { deliveryId: string } | { since: number },
    now: number,
  ): Promise<number> {
    const [clause, arg] =
      'deliveryId' in filter ? ['id = $3', filter.deliveryId] : ['created_at >= $3', filter.since];
    return this.db.tx(async (q) => {
      // A finished delivery comes back unmarked (a ping: as its own head); a pending one keeps its mark.
      const rows = await q.query<{ fight_id: string | null }>(
        `UPDATE webhook_deliveries SET status = 'pending', round_attempts = 0, next_attempt_at = $2, delivered_at = NULL,
           head = CASE WHEN status = 'pending' THEN head WHEN fight_id IS NULL THEN 1 ELSE 0 END
         WHERE endpoint_id = $1 AND ${clause} AND (status <> 'pending' OR next_attempt_at > $2) RETURNING fight_id`,
        [endpointId, now, arg],
      );
      // An earlier event back in the queue is its fight's head again: each group touched gets its mark on its lowest
      // pending seq, and off every other (a requeue may touch many deliveries: it reads each group's pending ones).
      const groups = groupsOf(rows.map((r) => ({ endpointId, fightId: r.fight_id })));
      await this.lockGroups(q, groups);
      const lows = await lowestPending(q, groups, this.db.engine === 'postgres');
      for (const [i, group] of groups.entries()) {
        const low = lows[i];
        await q.run(
          `UPDATE webhook_deliveries SET head = CASE WHEN id = $3 THEN 1 ELSE 0 END WHERE endpoint_id = $1 AND fight_id = $2 AND status = 'pending' AND (head = 1 OR id = $3)`,
          [...group, low?.id ?? null],
        );
      }
      return rows.length;
    });
  }

  pruneFinished(before: number, limit: number): Promise<number> {
    return this.db.tx(async (q) => {
      // The rows stay locked (PostgreSQL) or the database write-locked (SQLite) until the deletes: a concurrent requeue cannot slip in.
      const rows = await q.query<{ id: string }>(
        `SELECT d.id FROM webhook_deliveries d WHERE d.status <> 'pending' AND d.next_attempt_at < $1 ORDER BY d.next_attempt_at LIMIT $2 ${this.db.lockClause}`,
        [before, limit],
      );
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => r.id);
      const list = ids.map((_, i) => `$${i + 1}`).join(', ');
      await q.run(`DELETE FROM webhook_attempts WHERE delivery_id IN (${list})`, ids);
      return q.run(`DELETE FROM webhook_deliveries WHERE id IN (${list}) AND status <> 'pending'`, ids);
    });
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
