import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { CoalescedRun } from '@app/fights';
import { WebhookActivity } from './activity';
import { nextAttemptAt, parseRetryAfter } from './backoff';
import { WebhookConfig } from './config';
import type { Foreground } from './foreground';
import { SendResult, Sender, httpSender, storableText } from './sender';
import { webhookHeaders } from './signing';
import { AttemptOutcome, DeliveryRow, EndpointEffect, EndpointRow, WebhookStore } from './store/types';

/**
 * While an endpoint or a tenant is at its cap, deliveries newly queued are claimed at most this often (queued()):
 * what another endpoint's new delivery may wait, where a claim per page queued cost every command a transaction.
 */
export const CAPPED_CLAIM_MS = 20;

/** The secrets that sign now: the current one, then each previous one (newest first) until its rotation's overlap ends. */
export const signingSecrets = (ep: EndpointRow, now: number): string[] => [
  ep.secret,
  ...ep.previousSecrets.filter((p) => p.until > now).map((p) => p.secret),
];

/** What one attempt's result does to the delivery and its endpoint (retries with backoff, config.ts). */
export function judge(
  result: SendResult,
  d: DeliveryRow,
  config: WebhookConfig,
  now: number,
): { outcome: AttemptOutcome; effect: EndpointEffect } {
  const status = result.status ?? null;
  if (status !== null && status >= 200 && status < 300) {
    return {
      outcome: {
        status: 'delivered',
        nextAttemptAt: now,
        lastStatus: status,
        lastError: null,
        deliveredAt: now,
      },
      effect: { kind: 'success' },
    };
  }
  const lastError =
    result.error ??
    (status !== null && status >= 300 && status < 400
      ? `redirect to ${result.location ?? '?'} not followed`
      : `HTTP ${status}`);
  if (status === 410) {
    // The receiver says it is gone: stop sending; the delivery waits, pending, for the endpoint to be enabled again.
    return {
      outcome: { status: 'pending', nextAttemptAt: now, lastStatus: status, lastError, deliveredAt: null },
      effect: { kind: 'disable', reason: 'the receiver answered 410 Gone' },
    };
  }
  const next = nextAttemptAt(
    config.retryScheduleMs,
    d.roundAttempts + 1,
    now,
    parseRetryAfter(result.retryAfter, now),
  );
  const days = Math.round((config.disableAfterMs / 86_400_000) * 10) / 10;
  return {
    outcome: {
      status: next === undefined ? 'failed' : 'pending',
      nextAttemptAt: next ?? now,
      lastStatus: status,
      lastError,
      deliveredAt: null,
    },
    effect: {
      kind: 'failure',
      now,
      disableIfFailingSince: now - config.disableAfterMs,
      reason: `every delivery failed for ${days} days (last: ${lastError})`,
    },
  };
}

/**
 * Sends due deliveries: claims (leases) them from the store, signs, sends, records the attempt.
 * Per endpoint and fight only the lowest pending seq is ever due, so a failing delivery holds back
 * that fight's later events and no other fight's; per endpoint at most `endpointConcurrency` attempts
 * are in flight, and per tenant (its endpoints together) at most `tenantConcurrency`, so a receiver that hangs holds
 * that many slots, a tenant whose receivers all hang holds half of them, and the rest keep sending to others.
 * Any number of instances may run one each.
 */
export class WebhookDispatcher {
  readonly instanceId = randomUUID();
  /** How often deliveries newly queued are claimed while an endpoint or tenant of this instance is at its cap (queued()). */
  cappedClaimMs = CAPPED_CLAIM_MS;
  /** Emits the delivery id after each recorded attempt. */
  readonly attempts = new EventEmitter().setMaxListeners(0);
  /** Attempts in flight: the delivery id → its endpoint, its tenant and the attempt. */
  private readonly inflight = new Map<string, { endpointId: string; tenantId: string; run: Promise<void> }>();
  /** The last claim came back short while an endpoint or a tenant of this instance was at its cap. */
  private capped = false;
  private deferred?: NodeJS.Timeout;
  private readonly stopping = new AbortController();
  private timer?: NodeJS.Timeout;
  private activity?: WebhookActivity;
  private readonly onActivity = (active: boolean) => this.poll(active);
  /** One claim at a time; a kick during a claim runs one more after it. */
  private readonly claims = new CoalescedRun(
    () => this.claim(),
    (e) => this.onError(e),
  );

  constructor(
    private readonly store: WebhookStore,
    private readonly config: WebhookConfig,
    private readonly send: Sender = httpSender,
    private readonly clock: () => number = Date.now,
    private readonly onError: (e: unknown) => void = () => undefined,
    /** While it is busy, at most `busyConcurrency` attempts are in flight (foreground.ts). */
    private readonly foreground?: Foreground,
  ) {}

  /** Attempts in flight while the foreground is busy: a sixteenth of the concurrency, at least one. */
  get busyConcurrency(): number {
    return Math.max(1, Math.floor(this.config.concurrency / 16));
  }

  /**
   * Polls for due deliveries; with an `activity`, only while it is active (no endpoint: no claims). A kick
   * claims whatever the poll does (a ping, a redelivery, a new endpoint's first deliveries).
   */
  start(activity?: WebhookActivity): void {
    if (!activity) return this.poll(true);
    this.activity = activity;
    activity.onChange.add(this.onActivity);
    this.poll(activity.active);
  }

  private poll(active: boolean): void {
    clearInterval(this.timer);
    this.timer = undefined;
    if (!active || this.stopping.signal.aborted) return;
    this.timer = setInterval(() => this.kick(), this.config.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Aborts the attempts in flight (they do not count) and gives their leases back. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.activity?.onChange.delete(this.onActivity);
    clearInterval(this.timer);
    clearTimeout(this.deferred);
    await this.claims.close();
    await Promise.all([...this.inflight.values()].map((a) => a.run));
    await this.store.releaseLeases(this.instanceId).catch(this.onError);
  }

  kick(): void {
    if (!this.stopping.signal.aborted) this.claims.kick();
  }

  /**
   * New deliveries were queued (the outbox). Claimed at once, unless the last claim came back short while an
   * endpoint (or a tenant) of this instance was at its cap: its deliveries are claimed as its attempts end, and a
   * claim per page queued would find them held back again, a transaction each (a busy endpoint's commands paid
   * for it). Then at most one claim every `cappedClaimMs`, so another endpoint's new delivery waits no longer.
   */
  queued(): void {
    if (!this.capped) return this.kick();
    this.deferred ??= setTimeout(() => {
      this.deferred = undefined;
      this.kick();
    }, this.cappedClaimMs);
    this.deferred.unref();
  }

  private async claim(): Promise<void> {
    const limit = this.foreground?.busy() ? this.busyConcurrency : this.config.concurrency;
    const room = limit - this.inflight.size;
    if (room <= 0 || this.stopping.signal.aborted) return;
    const now = this.clock();
    // The lease outlives the attempt's timeout: a crashed instance's deliveries come back after it.
    const claimed = await this.store.claimDue(
      now,
      room,
      this.instanceId,
      now + this.config.timeoutMs + 30_000,
      this.config.endpointConcurrency,
      this.config.tenantConcurrency,
    );
    for (const d of claimed) this.launch(d);
    this.capped = claimed.length < room && this.atCap();
    if (claimed.length === room) this.claims.kick();
  }

  private launch(d: DeliveryRow): void {
    const run = this.deliver(d)
      .catch((e) => this.onError(e))
      .finally(() => {
        this.inflight.delete(d.id);
        this.kick();
      });
    this.inflight.set(d.id, { endpointId: d.endpointId, tenantId: d.tenantId, run });
  }

  /** An endpoint or a tenant of this instance has its cap's attempts in flight (the claim holds back its deliveries). */
  private atCap(): boolean {
    // No more than the dispatcher's concurrency in flight, counted only when a claim comes back short.
    const endpoints = new Map<string, number>();
    const tenants = new Map<string, number>();
    for (const { endpointId, tenantId } of this.inflight.values()) {
      const n = (endpoints.get(endpointId) ?? 0) + 1;
      const t = (tenants.get(tenantId) ?? 0) + 1;
      if (n >= this.config.endpointConcurrency || t >= this.config.tenantConcurrency) return true;
      endpoints.set(endpointId, n);
      tenants.set(tenantId, t);
    }
    return false;
  }

  private async deliver(d: DeliveryRow): Promise<void> {
    const endpoint = await this.store.getEndpoint(d.endpointId);
    if (!endpoint?.enabled) return this.store.releaseLeases(this.instanceId, [d.id]);
    const now = this.clock();
    const headers = webhookHeaders(signingSecrets(endpoint, now), d.id, Math.floor(now / 1000), d.payload);
    const sent = await this.send(endpoint.url, headers, d.payload, {
      timeoutMs: this.config.timeoutMs,
      allowPrivate: this.config.allowPrivate,
      signal: this.stopping.signal,
    });
    // What the receiver said is recorded as text every engine stores (no U+0000 on PostgreSQL): an attempt that
    // cannot be recorded would be sent again each time its lease ran out, for ever.
    const result: SendResult = {
      ...sent,
      excerpt: storableText(sent.excerpt),
      ...(sent.error === undefined ? {} : { error: storableText(sent.error) }),
      ...(sent.location === undefined ? {} : { location: storableText(sent.location) }),
    };
    if (result.aborted) return this.store.releaseLeases(this.instanceId, [d.id]);
    const done = this.clock();
    const { outcome, effect } = judge(result, d, this.config, done);
    await this.store.recordAttempt(
      this.instanceId,
      {
        deliveryId: d.id,
        endpointId: d.endpointId,
        attemptNo: d.attempts + 1,
        attemptedAt: now,
        status: result.status ?? null,
        latencyMs: result.latencyMs,
        responseExcerpt: result.excerpt,
        error: outcome.lastError && outcome.status !== 'delivered' ? outcome.lastError : null,
      },
      outcome,
      effect,
    );
    this.attempts.emit(d.id);
  }

  /** Resolves after the next recorded attempt of `deliveryId`, or false after `timeoutMs`. */
  waitForAttempt(deliveryId: string, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.attempts.off(deliveryId, onAttempt);
        resolve(ok);
      };
      const onAttempt = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.attempts.on(deliveryId, onAttempt);
      this.kick();
    });
  }
}
