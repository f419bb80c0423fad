import { setImmediate as nextTurn } from 'node:timers/promises';
import { EventStore, StoredEvent } from '@app/event-store';
import {
  CoalescedRun,
  compiledBeside,
  FIGHT_STREAM_PREFIX,
  FightEvent,
  RemoteTask,
  TailPage,
  TaskStep,
  TailReader,
  toFightEvent,
  whileUp,
} from '@app/fights';
import { WebhookActivity } from './activity';
import { fightEventPayload, webhookId } from './payload';
import { EndpointRow, NewDelivery, WebhookStore } from './store/types';
import { FightViewFolder } from './view-folder';

/** Events read from the log at a time. */
const PAGE = 200;
/**
 * One transaction queues at most this many deliveries, or this many payload bytes (payloads carry the fight
 * view): a burst goes in short transactions, with a turn of the event loop between them, so commands and the
 * dispatcher get in (on SQLite every statement runs on the one JavaScript thread).
 */
export const OUTBOX_BATCH = { deliveries: 100, bytes: 512 * 1024 };
/** Events folded between two turns of the event loop while a page is planned. */
const FOLDS_PER_TURN = 50;

interface Batch {
  /** The checkpoint of the batch's last event: where the outbox stands once it is committed. */
  next: string;
  fightTenants: Array<[string, string]>;
  deliveries: NewDelivery[];
}

/**
 * An endpoint takes an event of its tenant's fight, of its filters, committed after it was created. No list
 * of event types is the default, all of them: a malformed endpoint must not throw here, which stopped the
 * outbox for every tenant.
 */
export function endpointMatches(ep: EndpointRow, e: FightEvent): boolean {
  const types: unknown = ep.eventTypes;
  return (
    ep.enabled &&
    (ep.fightId === null || ep.fightId === e.fightId) &&
    (!Array.isArray(types) || types.length === 0 || types.includes(e.type)) &&
    ep.createdAt <= Date.parse(e.at)
  );
}

/** Who owns a fight, as the log says: FightOwned (access stream), or the tenant on FightStarted's metadata. */
function ownerIn(stored: StoredEvent): [string, string] | undefined {
  const d = stored.data as Record<string, unknown>;
  if (
    stored.type === 'FightOwned' &&
    stored.stream.startsWith('access-') &&
    typeof d.fightId === 'string' &&
    typeof d.tenantId === 'string'
  )
    return [d.fightId, d.tenantId];
  if (
    stored.type === 'FightStarted' &&
    stored.stream.startsWith(FIGHT_STREAM_PREFIX) &&
    typeof stored.metadata.tenantId === 'string'
  ) {
    return [String(stored.metadata.fightId), stored.metadata.tenantId];
  }
  return undefined;
}

export interface OutboxOptions {
  /** The pages the log follower read: planned from there instead of read again (libs/fights log-tail.ts). */
  tail?: TailReader;
  /** Runs only while this says (owner of the read side, some endpoint exists); by default always. */
  activity?: WebhookActivity;
  /**
   * Its catch-ups made on the projections' worker thread while that is up (outbox-thread.ts; SQLite): this
   * outbox still decides when. They are made here again if the worker is lost.
   */
  remote?: RemoteTask;
}

/** The compiled outbox-thread module beside this file (FoldWorker.task), or none when running from the TypeScript sources. */
export function compiledOutboxThread(): string | undefined {
  return compiledBeside(__filename, 'outbox-thread');
}

/**
 * The outbox's feed (a reactor, DESIGN.md "Read side"): a checkpointed consumer of the global log that,
 * for each fight event and each matching endpoint, inserts a delivery in the transaction that moves
 * the checkpoint. A crash between pages repeats nothing and loses nothing. With an `activity` it runs
 * only while that is active, and idles otherwise: no reads, no timer, its checkpoint where it stopped.
 */
export class WebhookOutbox {
  private closed = false;
  private running = false;
  private pollMs = 0;
  private readonly tail?: TailReader;
  private readonly activity?: WebhookActivity;
  private readonly remote?: RemoteTask;
  private readonly onActivity = (active: boolean) => this.follow(active);
  /** Commits arriving within a few milliseconds share one page and one transaction. */
  private readonly passes = new CoalescedRun(
    () => this.catchUp(),
    (e) => this.onError(e),
    5,
  );
  private timer?: NodeJS.Timeout;
  private readonly views: FightViewFolder;

  constructor(
    private readonly events: EventStore,
    private readonly store: WebhookStore,
    private readonly onQueued: () => void = () => undefined,
    private readonly onError: (e: unknown) => void = () => undefined,
    private readonly clock: () => number = Date.now,
    options: OutboxOptions = {},
  ) {
    this.views = new FightViewFolder(events);
    this.tail = options.tail;
    this.activity = options.activity;
    this.remote = options.remote;
  }

  /** Polls every `pollMs` and catches up, now or (with an activity) once it is active. */
  start(pollMs: number): void {
    this.pollMs = pollMs;
    if (!this.activity) return this.follow(true);
    this.activity.onChange.add(this.onActivity);
    this.follow(this.activity.active);
  }

  /** Whether it follows the log now (not idle). */
  get following(): boolean {
    return this.running;
  }

  /** Whether its catch-ups are made on another thread now (a worker that is up). */
  get queuingElsewhere(): boolean {
    return this.remote?.up === true;
  }

  private follow(active: boolean): void {
    if (this.closed || active === this.running) return;
    this.running = active;
    clearInterval(this.timer);
    this.timer = undefined;
    this.tail?.clear();
    if (!active) return;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Stops the poll and waits for the page in hand. */
  async stop(): Promise<void> {
    this.closed = true;
    this.running = false;
    this.activity?.onChange.delete(this.onActivity);
    clearInterval(this.timer);
    this.tail?.clear();
    await this.passes.close();
  }

  /** A page the log follower read: kept for the next pass, which it starts; nothing while idle. */
  offer(page: TailPage): void {
    this.activity?.heard();
    if (!this.running) return;
    // The worker reads the log itself.
    if (!this.remote?.up) this.tail?.offer(page);
    this.kick();
  }

  /** A pass, unless idle (a kick before `start` runs one, as a test may ask). */
  kick(): void {
    if (this.activity && !this.running) return;
    this.passes.kick();
  }

  /** Queues the deliveries of every event after the checkpoint, page by page; returns how many it queued. */
  async catchUp(): Promise<number> {
    let queued = 0;
    while (!this.closed) {
      const step = await this.step();
      queued += step.done;
      if (!step.more) break;
    }
    return queued;
  }

  /**
   * Queues the deliveries of one page of the log after the checkpoint, batch by batch (`done`: how many;
   * `more`: the log may go on). On the worker while it is up, which notes each batch it queues (for
   * `onQueued`); a stop waits for one page at most.
   */
  async step(): Promise<TaskStep> {
    // Lost meanwhile: made here. A failure of the page itself is this one's failure.
    const remotely = await whileUp(this.remote, (remote) => remote.run());
    if (remotely) return remotely;
    const checkpoint = await this.store.checkpoint();
    const page = this.tail
      ? await this.tail.readAll(checkpoint, PAGE)
      : await this.events.readAll({ after: checkpoint, limit: PAGE });
    let queued = 0;
    let at = checkpoint;
    for (const batch of page.length ? await this.plan(page) : []) {
      // False: another consumer moved the checkpoint first; read on from where it stands.
      if (!(await this.store.commitPage(at, batch.next, batch))) break;
      at = batch.next;
      queued += batch.deliveries.length;
      if (batch.deliveries.length) this.onQueued();
      await nextTurn();
    }
    return { done: queued, more: page.length === PAGE };
  }

  /** The page's deliveries, cut after the event that fills a batch (OUTBOX_BATCH); the owners go with the first batch. */
  private async plan(page: StoredEvent[]): Promise<Batch[]> {
    const owners = new Map<string, string>();
    for (const e of page) {
      const owner = ownerIn(e);
      if (owner && !owners.has(owner[0])) owners.set(owner[0], owner[1]);
    }
    const fightIds = page
      .filter((e) => e.stream.startsWith(FIGHT_STREAM_PREFIX))
      .map((e) => toFightEvent(e).fightId);
    const unknown = [...new Set(fightIds)].filter((id) => !owners.has(id));
    const stored = await this.store.fightTenants(unknown);
    const tenantOf = (fightId: string) => owners.get(fightId) ?? stored.get(fightId);
    const endpoints = new Map<string, EndpointRow[]>();
    const batches: Batch[] = [];
    let current: Batch = { next: '', fightTenants: [...owners], deliveries: [] };
    let bytes = 0;
    let folds = 0;
    for (const [i, raw] of page.entries()) {
      current.next = raw.checkpoint;
      const e = raw.stream.startsWith(FIGHT_STREAM_PREFIX) ? toFightEvent(raw) : undefined;
      const tenantId = e && tenantOf(e.fightId);
      if (e && tenantId) {
        if (!endpoints.has(tenantId)) endpoints.set(tenantId, await this.store.listEndpoints(tenantId));
        const forFight = endpoints
          .get(tenantId)!
          .filter((ep) => ep.enabled && (ep.fightId === null || ep.fightId === e.fightId));
        if (forFight.length > 0) {
          // Folded for every event of a watched fight, so the view cache moves forward one event at a time.
          const view = await this.views.viewAfter(e);
          if (++folds % FOLDS_PER_TURN === 0) await nextTurn();
          const matching = forFight.filter((ep) => endpointMatches(ep, e));
          if (matching.length > 0) {
            const payload = fightEventPayload(e, view);
            const now = this.clock();
            for (const ep of matching) {
              current.deliveries.push({
                id: webhookId(ep.id, e.fightId, e.seq),
                endpointId: ep.id,
                tenantId,
                fightId: e.fightId,
                seq: e.seq,
                eventType: e.type,
                payload,
                createdAt: now,
              });
              bytes += payload.length;
            }
          }
        }
      }
      const full = current.deliveries.length >= OUTBOX_BATCH.deliveries || bytes >= OUTBOX_BATCH.bytes;
      if (full || i === page.length - 1) {
        batches.push(current);
        current = { next: '', fightTenants: [], deliveries: [] };
        bytes = 0;
      }
    }
    return batches;
  }
}
