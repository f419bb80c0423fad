/** The webhook side's storage: endpoints, the outbox (deliveries) with its checkpoint, and the attempt log. */

/** A secret a rotation replaced: it still signs, beside the current one, until `until` (ms), the end of that rotation's overlap. */
export interface PreviousSecret {
  secret: string;
  until: number;
}

export interface EndpointRow {
  id: string;
  tenantId: string;
  url: string;
  description: string;
  /** Empty: every event type. */
  eventTypes: string[];
  /** Null: every fight of the tenant. */
  fightId: string | null;
  enabled: boolean;
  secret: string;
  /** The secrets earlier rotations replaced, newest first: each signs beside `secret` until its own overlap ends. */
  previousSecrets: PreviousSecret[];
  disabledReason: string | null;
  /** First failure since the last success (ms); the endpoint is disabled when it is old enough. */
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface NewDelivery {
  /** The `webhook-id`: the same on every attempt. */
  id: string;
  endpointId: string;
  tenantId: string;
  /** Null for a test ping: it is ordered after nothing. */
  fightId: string | null;
  seq: number;
  eventType: string;
  /** The exact bytes sent on every attempt. */
  payload: string;
  createdAt: number;
}

export interface DeliveryRow extends NewDelivery {
  status: DeliveryStatus;
  /** Every attempt ever made (the log). */
  attempts: number;
  /** Attempts since the delivery was last (re)queued: the position in the retry schedule. */
  roundAttempts: number;
  /** Pending: when the next attempt is due. Delivered or failed: when the last attempt finished (retention counts from it). */
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: number | null;
}

export interface AttemptRow {
  deliveryId: string;
  endpointId: string;
  attemptNo: number;
  attemptedAt: number;
  status: number | null;
  latencyMs: number;
  responseExcerpt: string;
  error: string | null;
}

export interface AttemptOutcome {
  status: DeliveryStatus;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: number | null;
}

/** What an attempt does to its endpoint: reset the failure clock, start it, or disable the endpoint. */
export type EndpointEffect =
  | { kind: 'success' }
  | { kind: 'failure'; now: number; disableIfFailingSince: number; reason: string }
  | { kind: 'disable'; reason: string };

export interface DeliveryQuery {
  status?: DeliveryStatus;
  fightId?: string;
  limit: number;
  /** Only deliveries created before this (ms): the older paging. */
  before?: number;
  /**
   * A keyset position: only deliveries after this one in the log's order (newest first: created at,
   * then seq, then id, all descending; ids compared byte by byte on every engine).
   */
  after?: { createdAt: number; seq: number; id: string };
}

export type EndpointPatch = Partial<
  Pick<
    EndpointRow,
    | 'url'
    | 'description'
    | 'eventTypes'
    | 'fightId'
    | 'enabled'
    | 'disabledReason'
    | 'failingSince'
    | 'updatedAt'
  >
>;

export interface WebhookStore {
  readonly engine: string;
  /**
   * Inserts the endpoint unless its tenant already has `limit` (counted and inserted in one transaction, so
   * creations at once on every instance never pass it between them); false when it had.
   */
  insertEndpoint(row: EndpointRow, limit?: number): Promise<boolean>;
  /**
   * Applies `patch`. With `guard`, in one transaction with the row locked: `guard` sees the row as it is and may
   * throw, and then nothing changes (a conditional request's check and its change, with no change between).
   * False when the row is gone.
   */
  updateEndpoint(id: string, patch: EndpointPatch, guard?: (row: EndpointRow) => void): Promise<boolean>;
  /**
   * A rotation: the new secret and previous secrets, if the secret is still `expected` (compare and set, so of
   * rotations at the same time each builds on the one before it); false, changing nothing, if another came first.
   */
  replaceSecret(
    id: string,
    expected: string,
    next: Pick<EndpointRow, 'secret' | 'previousSecrets' | 'updatedAt'>,
  ): Promise<boolean>;
  getEndpoint(id: string): Promise<EndpointRow | undefined>;
  listEndpoints(tenantId: string): Promise<EndpointRow[]>;
  /** Deletes the endpoint with its deliveries and attempts; `guard` as for updateEndpoint. False when it was gone. */
  deleteEndpoint(id: string, guard?: (row: EndpointRow) => void): Promise<boolean>;
  /** Whether any endpoint exists, of any tenant, enabled or not (the outbox idles without one). */
  hasEndpoints(): Promise<boolean>;

  /** The outbox consumer's position in the global log. */
  checkpoint(): Promise<string | undefined>;
  fightTenants(fightIds: string[]): Promise<Map<string, string>>;
  /**
   * Records fight owners, inserts deliveries (ignoring ids already stored) and moves the checkpoint
   * from `expected` to `next`, in one transaction; false, changing nothing, if another consumer moved it first.
   */
  commitPage(
    expected: string | undefined,
    next: string,
    page: { fightTenants: Array<[string, string]>; deliveries: NewDelivery[] },
  ): Promise<boolean>;
  insertDelivery(d: NewDelivery): Promise<void>;

  /**
   * Leases up to `limit` due deliveries to `owner` until `leaseUntil`, in send order: only each (endpoint, fight)'s
   * lowest pending seq, only of enabled endpoints, and no more than `perEndpoint` (default ENDPOINT_CONCURRENCY)
   * leased at once per endpoint and no more than `perTenant` (default TENANT_CONCURRENCY) per tenant, over all its
   * endpoints, counting every owner's leases that have not run out. PostgreSQL: FOR UPDATE SKIP LOCKED, and one claim at
   * a time per schema.
   */
  claimDue(
    now: number,
    limit: number,
    owner: string,
    leaseUntil: number,
    perEndpoint?: number,
    perTenant?: number,
  ): Promise<DeliveryRow[]>;
  /** Logs the attempt, updates the delivery (if `owner` still holds its lease) and the endpoint, in one transaction. */
  recordAttempt(
    owner: string,
    attempt: AttemptRow,
    outcome: AttemptOutcome,
    effect: EndpointEffect,
  ): Promise<boolean>;
  /** Gives back the leases `owner` holds (a clean stop). */
  releaseLeases(owner: string, ids?: string[]): Promise<void>;

  /** Deliveries by status and failed attempts, for /metrics. */
  stats(): Promise<{ deliveries: Record<string, number>; failedAttempts: number }>;
  getDelivery(id: string): Promise<DeliveryRow | undefined>;
  listDeliveries(endpointId: string, q: DeliveryQuery): Promise<DeliveryRow[]>;
  listAttempts(deliveryId: string): Promise<AttemptRow[]>;
  /**
   * Retention: deletes up to `limit` finished (delivered or failed) deliveries that finished before `before`,
   * oldest first, with their attempts, in one transaction; returns how many. Pending deliveries are never
   * touched, so nothing the per-fight ordering waits on goes. PostgreSQL: SKIP LOCKED, so concurrent
   * passes on several instances take different rows.
   */
  pruneFinished(before: number, limit: number): Promise<number>;
  /** Queues deliveries again, due at `now`, with a fresh retry schedule; returns how many. */
  requeue(
    endpointId: string,
    filter: { deliveryId: string } | { since: number },
    now: number,
  ): Promise<number>;
  close(): Promise<void>;
}
