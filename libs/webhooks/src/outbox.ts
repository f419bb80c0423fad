import { EventStore, StoredEvent } from '@app/event-store';
import { CoalescedRun, FIGHT_STREAM_PREFIX, FightEvent, toFightEvent } from '@app/fights';
import { fightEventPayload, webhookId } from './payload';
import { EndpointRow, NewDelivery, WebhookStore } from './store/types';
import { FightViewFolder } from './view-folder';

const PAGE = 500;

/** An endpoint takes an event of its tenant's fight, of its filters, committed after it was created. */
export function endpointMatches(ep: EndpointRow, e: FightEvent): boolean {
  return ep.enabled && (ep.fightId === null || ep.fightId === e.fightId) && (ep.eventTypes.length === 0 || ep.eventTypes.includes(e.type)) && ep.createdAt <= Date.parse(e.at);
}

/** Who owns a fight, as the log says: FightOwned (access stream), or the tenant on FightStarted's metadata. */
function ownerIn(stored: StoredEvent): [string, string] | undefined {
  const d = stored.data as Record<string, unknown>;
  if (stored.type === 'FightOwned' && stored.stream.startsWith('access-') && typeof d.fightId === 'string' && typeof d.tenantId === 'string') return [d.fightId, d.tenantId];
  if (stored.type === 'FightStarted' && stored.stream.startsWith(FIGHT_STREAM_PREFIX) && typeof stored.metadata.tenantId === 'string') {
    return [String(stored.metadata.fightId), stored.metadata.tenantId];
  }
  return undefined;
}

/**
 * The outbox's feed (a reactor, DESIGN.md "Read side"): a checkpointed consumer of the global log that,
 * for each fight event and each matching endpoint, inserts a delivery in the transaction that moves
 * the checkpoint. A crash between pages repeats nothing and loses nothing.
 */
export class WebhookOutbox {
  private closed = false;
  /** Commits arriving within a few milliseconds share one page and one transaction. */
  private readonly passes = new CoalescedRun(() => this.catchUp(), (e) => this.onError(e), 5);
  private timer?: NodeJS.Timeout;
  private readonly views: FightViewFolder;

  constructor(
    private readonly events: EventStore,
    private readonly store: WebhookStore,
    private readonly onQueued: () => void = () => undefined,
    private readonly onError: (e: unknown) => void = () => undefined,
    private readonly clock: () => number = Date.now,
  ) {
    this.views = new FightViewFolder(events);
  }

  start(pollMs: number): void {
    this.timer = setInterval(() => this.kick(), pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Stops the poll and waits for the page in hand. */
  async stop(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.passes.close();
  }

  kick(): void {
    this.passes.kick();
  }

  /** Queues the deliveries of every event after the checkpoint; returns how many it queued. */
  async catchUp(): Promise<number> {
    let queued = 0;
    while (!this.closed) {
      const checkpoint = await this.store.checkpoint();
      const page = await this.events.readAll({ after: checkpoint, limit: PAGE });
      if (page.length === 0) break;
      const plan = await this.plan(page);
      if (await this.store.commitPage(checkpoint, page[page.length - 1].checkpoint, plan)) {
        queued += plan.deliveries.length;
        if (plan.deliveries.length) this.onQueued();
      }
      if (page.length < PAGE) break;
    }
    return queued;
  }

  private async plan(page: StoredEvent[]): Promise<{ fightTenants: Array<[string, string]>; deliveries: NewDelivery[] }> {
    const owners = new Map<string, string>();
    for (const e of page) {
      const owner = ownerIn(e);
      if (owner && !owners.has(owner[0])) owners.set(owner[0], owner[1]);
    }
    const fightEvents = page.filter((e) => e.stream.startsWith(FIGHT_STREAM_PREFIX)).map(toFightEvent);
    const unknown = [...new Set(fightEvents.map((e) => e.fightId))].filter((id) => !owners.has(id));
    const stored = await this.store.fightTenants(unknown);
    const tenantOf = (fightId: string) => owners.get(fightId) ?? stored.get(fightId);
    const endpoints = new Map<string, EndpointRow[]>();
    const deliveries: NewDelivery[] = [];
    for (const e of fightEvents) {
      const tenantId = tenantOf(e.fightId);
      if (!tenantId) continue;
      if (!endpoints.has(tenantId)) endpoints.set(tenantId, await this.store.listEndpoints(tenantId));
      const forFight = endpoints.get(tenantId)!.filter((ep) => ep.enabled && (ep.fightId === null || ep.fightId === e.fightId));
      if (forFight.length === 0) continue;
      // Folded for every event of a watched fight, so the view cache moves forward one event at a time.
      const view = await this.views.viewAfter(e);
      const matching = forFight.filter((ep) => endpointMatches(ep, e));
      if (matching.length === 0) continue;
      const payload = fightEventPayload(e, view);
      const now = this.clock();
      for (const ep of matching) deliveries.push({ id: webhookId(ep.id, e.fightId, e.seq), endpointId: ep.id, tenantId, fightId: e.fightId, seq: e.seq, eventType: e.type, payload, createdAt: now });
    }
    return { fightTenants: [...owners], deliveries };
  }
}
