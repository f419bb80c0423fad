import { randomUUID } from 'node:crypto';
import { AppError } from '@app/fights';
import { WebhookConfig } from './config';
import { WebhookActivity } from './activity';
import { WebhookDispatcher } from './dispatcher';
import { pingPayload } from './payload';
import { newSigningSecret } from './signing';
import { DeliveryQuery, DeliveryRow, EndpointRow, WebhookStore } from './store/types';
import { assertSafeUrl } from './url-guard';
import { assertEventTypes } from './event-types';

export interface EndpointInput {
  url: string;
  eventTypes?: string[];
  fightId?: string | null;
  description?: string;
  enabled?: boolean;
}

/** An endpoint as the API shows it: never its secret. */
export interface EndpointView {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  fightId: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  /** Until then a previous secret still signs beside the current one: the end of the last overlap. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryView {
  id: string;
  endpointId: string;
  fightId: string | null;
  seq: number;
  eventType: string;
  status: DeliveryRow['status'];
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** At most this many previous secrets sign at once (with the current one, ten signatures a delivery). */
export const MAX_PREVIOUS_SECRETS = 9;

export const endpointNotFound = (id: string) =>
  new AppError(404, 'WEBHOOK_ENDPOINT_NOT_FOUND', `no webhook endpoint ${id}`, 'endpointId');

const tooManySecrets = (id: string, kept: EndpointRow['previousSecrets']) =>
  new AppError(
    409,
    'WEBHOOK_SECRET_LIMIT',
    `endpoint ${id} already has ${kept.length} previous secrets signing (the first stops at ${iso(
      Math.min(...kept.map((p) => p.until)),
    )}); wait until then, or rotate with overlapSeconds 0`,
    'overlapSeconds',
  );

export function toEndpointView(e: EndpointRow, now: number): EndpointView {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    fightId: e.fightId,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    failingSince: iso(e.failingSince),
    previousSecretExpiresAt: iso(
      e.previousSecrets.reduce<number | null>(
        (last, p) => (p.until > now ? Math.max(last ?? 0, p.until) : last),
        null,
      ),
    ),
    createdAt: iso(e.createdAt)!,
    updatedAt: iso(e.updatedAt)!,
  };
}

export function toDeliveryView(d: DeliveryRow): DeliveryView {
  return {
    id: d.id,
    endpointId: d.endpointId,
    fightId: d.fightId,
    seq: d.seq,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    createdAt: iso(d.createdAt)!,
    deliveredAt: iso(d.deliveredAt),
  };
}

/** Webhook endpoints of one tenant: managed here, fed by the outbox, sent by the dispatcher. */
export class WebhookService {
  constructor(
    private readonly store: WebhookStore,
    private readonly dispatcher: WebhookDispatcher,
    private readonly config: WebhookConfig,
    private readonly clock: () => number = Date.now,
    /** Told when endpoints come and go, so the outbox wakes for the first one and idles after the last. */
    private readonly activity?: WebhookActivity,
  ) {}

  private async owned(tenantId: string, id: string): Promise<EndpointRow> {
    const e = await this.store.getEndpoint(id);
    if (!e || e.tenantId !== tenantId) throw endpointNotFound(id);
    return e;
  }

  /** The secret is in this answer only. */
  async create(tenantId: string, input: EndpointInput): Promise<{ endpoint: EndpointView; secret: string }> {
    const url = await assertSafeUrl(input.url, this.config.allowPrivate);
    assertEventTypes(input.eventTypes);
    const now = this.clock();
    const row: EndpointRow = {
      id: `ep_${randomUUID().replace(/-/g, '')}`,
      tenantId,
      url: url.toString(),
      description: input.description ?? '',
      eventTypes: [...new Set(input.eventTypes ?? [])],
      fightId: input.fightId ?? null,
      enabled: input.enabled ?? true,
      secret: newSigningSecret(),
      previousSecrets: [],
      disabledReason: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.store.insertEndpoint(row, this.config.endpointsPerTenant)))
      throw new AppError(
        409,
        'WEBHOOK_ENDPOINT_LIMIT',
        `this tenant already has ${this.config.endpointsPerTenant} webhook endpoints, as many as it may have; delete one first (an endpoint may take several event types, or every fight's)`,
      );
    await this.activity?.refresh();
    return { endpoint: toEndpointView(row, now), secret: row.secret };
  }

  async list(tenantId: string): Promise<EndpointView[]> {
    const now = this.clock();
    return (await this.store.listEndpoints(tenantId)).map((e) => toEndpointView(e, now));
  }

  async get(tenantId: string, id: string): Promise<EndpointView> {
    return toEndpointView(await this.owned(tenantId, id), this.clock());
  }

  /**
   * Enabling an endpoint clears why it was disabled and restarts its failure clock; its waiting deliveries resume.
   * `precondition` (a conditional request's If-Match) judges the endpoint as GET would show it, in the transaction
   * that changes it: when it throws nothing changes, and no other change can come between the two.
   */
  async update(
    tenantId: string,
    id: string,
    patch: Partial<EndpointInput>,
    precondition?: (current: EndpointView) => void,
  ): Promise<EndpointView> {
    const current = await this.owned(tenantId, id);
    const url =
      patch.url === undefined
        ? undefined
        : (await assertSafeUrl(patch.url, this.config.allowPrivate)).toString();
    assertEventTypes(patch.eventTypes);
    const enabling = patch.enabled === true && !current.enabled;
    const changed = await this.store.updateEndpoint(
      id,
      {
        url,
        description: patch.description,
        eventTypes: patch.eventTypes && [...new Set(patch.eventTypes)],
        fightId: patch.fightId,
        enabled: patch.enabled,
        ...(enabling ? { disabledReason: null, failingSince: null } : {}),
        ...(patch.enabled === false ? { disabledReason: 'disabled by the tenant' } : {}),
        updatedAt: this.clock(),
      },
      precondition && ((row) => precondition(toEndpointView(row, this.clock()))),
    );
    if (!changed) throw endpointNotFound(id);
    if (enabling) this.dispatcher.kick();
    return this.get(tenantId, id);
  }

  /** `precondition` as for update: judged in the transaction that deletes. */
  async remove(tenantId: string, id: string, precondition?: (current: EndpointView) => void): Promise<void> {
    await this.owned(tenantId, id);
    const deleted = await this.store.deleteEndpoint(
      id,
      precondition && ((row) => precondition(toEndpointView(row, this.clock()))),
    );
    await this.activity?.refresh();
    if (!deleted) throw endpointNotFound(id);
  }

  /**
   * A new secret; the one it replaces keeps signing (every signing secret's signature is sent) for `overlapMs`, and
   * each secret an earlier rotation replaced keeps signing until its own overlap ends. Rotations at the same time
   * each build on the one before (compare and set on the secret), so every secret returned signs.
   */
  async rotateSecret(
    tenantId: string,
    id: string,
    overlapMs: number,
  ): Promise<{ endpoint: EndpointView; secret: string }> {
    const secret = newSigningSecret();
    for (;;) {
      const current = await this.owned(tenantId, id);
      const now = this.clock();
      const kept = current.previousSecrets.filter((p) => p.until > now);
      if (overlapMs > 0 && kept.length >= MAX_PREVIOUS_SECRETS) throw tooManySecrets(id, kept);
      const previousSecrets =
        overlapMs > 0 ? [{ secret: current.secret, until: now + overlapMs }, ...kept] : kept;
      if (await this.store.replaceSecret(id, current.secret, { secret, previousSecrets, updatedAt: now }))
        break;
    }
    return { endpoint: await this.get(tenantId, id), secret };
  }

  /** A `webhook.ping` through the outbox like any delivery; waits (up to the timeout and a margin) for its first attempt. */
  async ping(tenantId: string, id: string) {
    const ep = await this.owned(tenantId, id);
    if (!ep.enabled)
      throw new AppError(
        409,
        'WEBHOOK_ENDPOINT_DISABLED',
        `endpoint ${id} is disabled${ep.disabledReason ? `: ${ep.disabledReason}` : ''}; enable it first`,
        'endpointId',
      );
    const now = this.clock();
    const deliveryId = `msg_ping_${randomUUID().replace(/-/g, '')}`;
    const attempted = this.dispatcher.waitForAttempt(deliveryId, this.config.timeoutMs + 2000);
    await this.store.insertDelivery({
      id: deliveryId,
      endpointId: id,
      tenantId,
      fightId: null,
      seq: 0,
      eventType: 'webhook.ping',
      payload: pingPayload(id, new Date(now)),
      createdAt: now,
    });
    this.dispatcher.kick();
    await attempted;
    return this.delivery(tenantId, id, deliveryId);
  }

  async deliveries(tenantId: string, id: string, q: DeliveryQuery): Promise<DeliveryView[]> {
    await this.owned(tenantId, id);
    return (await this.store.listDeliveries(id, q)).map(toDeliveryView);
  }

  private async attempts(deliveryId: string) {
    return (await this.store.listAttempts(deliveryId)).map((a) => ({
      attemptNo: a.attemptNo,
      attemptedAt: iso(a.attemptedAt)!,
      status: a.status,
      latencyMs: a.latencyMs,
      responseExcerpt: a.responseExcerpt,
      error: a.error,
    }));
  }

  /** One delivery with its attempts and the exact body that is sent. */
  async delivery(tenantId: string, id: string, deliveryId: string) {
    await this.owned(tenantId, id);
    const d = await this.store.getDelivery(deliveryId);
    if (!d || d.endpointId !== id)
      throw new AppError(
        404,
        'WEBHOOK_DELIVERY_NOT_FOUND',
        `no delivery ${deliveryId} for endpoint ${id}`,
        'deliveryId',
      );
    return { delivery: toDeliveryView(d), payload: d.payload, attempts: await this.attempts(deliveryId) };
  }

  /** Sends one delivery again (same webhook-id, same body), now, with a fresh retry schedule. */
  async redeliver(tenantId: string, id: string, deliveryId: string): Promise<{ requeued: number }> {
    await this.delivery(tenantId, id, deliveryId);
    const requeued = await this.store.requeue(id, { deliveryId }, this.clock());
    this.dispatcher.kick();
    return { requeued };
  }

  /** Sends again every delivery created since `since` that retention has kept. */
  async redeliverSince(tenantId: string, id: string, since: Date): Promise<{ requeued: number }> {
    await this.owned(tenantId, id);
    const requeued = await this.store.requeue(id, { since: since.getTime() }, this.clock());
    this.dispatcher.kick();
    return { requeued };
  }
}
