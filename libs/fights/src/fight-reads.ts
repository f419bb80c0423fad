import { setImmediate as nextTurn } from 'node:timers/promises';
import { EventStore } from '@app/event-store';
import { FightEvent, FightFolder, fightStream, toFightEvent, toLogEntry } from '@app/fight-log';
import { buildFightLog, FightLog } from '@app/audit';
import { findSystem, RuleSystem } from '@app/rules';
import { AppError, fightNotFound } from './errors';
import { FightCache, FightViewResult, viewOf, viewResult } from './fight-cache';
import { TravelStops } from './travel-stops';

/** What a fight shows: its view now or at any seq, its events, its exported log. */
export class FightReads {
  constructor(
    private readonly store: EventStore,
    private readonly cache: FightCache,
    private readonly stops = new TravelStops(),
  ) {}

  /** The current view, caught up with the store (another instance may have written). */
  async view(fightId: string): Promise<FightViewResult> {
    return viewResult(await this.cache.refresh(fightId));
  }

  /**
   * The view right after event `at` (time travel): the log up to it (and no further) folded
   * (foldFight) a few hundred events per turn of the event loop, so that a long fight's early state
   * does not hold others up. A fold keeps its state every TRAVEL_EVERY events (TravelStops), and a
   * later one of the same fight starts from the last of those at or before `at`: stepping through a
   * long fight costs each step at most TRAVEL_EVERY events, not `at`. An undo that takes back an event
   * at or before that stop folds from the first event instead.
   */
  async viewAt(fightId: string, at: number): Promise<FightViewResult> {
    if (!Number.isSafeInteger(at) || at < 1) {
      const revision = await this.store.streamRevision(fightStream(fightId));
      if (revision === undefined) throw fightNotFound(fightId);
      throw outOfRange(Number(revision) + 1);
    }
    const stop = this.stops.before(fightId, at);
    if (stop) {
      // From the stop's own event: its hash is the view's when `at` is the stop.
      const events = await this.eventsUpTo(fightId, stop.seq - 1, at);
      const folder = new FightFolder(stop.system, fightId, stop);
      const view = await this.foldTo(folder, stop.system, fightId, events.slice(1), events);
      if (view) return view;
    }
    const events = await this.eventsUpTo(fightId, 0, at);
    const system = findSystem(String(events[0].data.system));
    if (!system) throw new Error(`fight ${fightId} uses an unknown system`);
    const view = await this.foldTo(new FightFolder(system, fightId), system, fightId, events, events);
    if (!view) throw new Error(`fight ${fightId}: its fold from the first event reached before it`);
    return view;
  }

  /** The fight's events from revision `from` to seq `at`; 404 without any, 422 when the stream ends before `at`. */
  private async eventsUpTo(fightId: string, from: number, at: number): Promise<FightEvent[]> {
    const stored = await this.store.readStream(fightStream(fightId), {
      from: BigInt(from),
      limit: at - from,
    });
    if (stored.length === 0) throw fightNotFound(fightId);
    if (from + stored.length < at) throw outOfRange(from + stored.length);
    return mapInTurns(stored, toFightEvent);
  }

  /**
   * `events` applied to `folder`, its state kept at every stop on the way; the view after the last of
   * `read` (the events read, ending at the seq asked for). Undefined when an undo reaches before where
   * the folder started.
   */
  private async foldTo(
    folder: FightFolder,
    system: RuleSystem,
    fightId: string,
    events: readonly FightEvent[],
    read: readonly FightEvent[],
  ): Promise<FightViewResult | undefined> {
    await inTurns(events, (e) => {
      if (folder.reachedBase) return;
      folder.apply(e);
      if (!folder.reachedBase && e.seq % this.stops.every === 0)
        this.stops.keep(fightId, { system, seq: e.seq, state: folder.state });
    });
    if (folder.reachedBase) return undefined;
    const head = read[read.length - 1];
    return {
      fightId,
      seq: head.seq,
      view: { ...system.view(folder.state), seq: head.seq, headHash: head.hash },
    };
  }

  /** The events after seq `after`, at most `limit` (a page costs its own length, not the rest of the fight's). */
  async events(fightId: string, after = 0, limit?: number): Promise<FightEvent[]> {
    const stored = await this.store.readStream(fightStream(fightId), { from: BigInt(after), limit });
    if (stored.length === 0 && after === 0) throw fightNotFound(fightId);
    return stored.map(toFightEvent);
  }

  /**
   * Every stored event with the metadata an auditor needs (the audit export). A long fight's entries
   * are made a few hundred at a time, and its head view comes from the cache (held, or loaded from
   * the latest snapshot and the events after it), so that the export does not hold other requests up
   * while it folds the whole log. buildFightLog checks that view's seq and hash against the log's last
   * entry, and folds the log itself when they differ (the fight moved on meanwhile).
   */
  async exportLog(fightId: string): Promise<FightLog> {
    const stored = await this.store.readStream(fightStream(fightId));
    if (stored.length === 0) throw fightNotFound(fightId);
    const entries = await mapInTurns(stored, toLogEntry);
    const head =
      this.cache.get(fightId) ??
      (this.cache.snapshots ? await this.cache.load(fightId).catch(() => undefined) : undefined);
    return buildFightLog(entries, head ? viewOf(head) : undefined);
  }
}

const outOfRange = (length: number): AppError =>
  new AppError(422, 'SEQ_OUT_OF_RANGE', `at must be between 1 and ${length}`, 'at');

/** Items taken per turn of the event loop (inTurns): about a millisecond or two of work. */
const PER_TURN = 500;

/** `each` run on every item in order, PER_TURN at a time, with a turn of the event loop between. */
export async function inTurns<T>(items: readonly T[], each: (item: T) => void): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % PER_TURN === 0) await nextTurn();
    each(items[i]);
  }
}

/** `items` mapped in turns (inTurns). */
export async function mapInTurns<T, U>(items: readonly T[], map: (item: T) => U): Promise<U[]> {
  const out: U[] = [];
  await inTurns(items, (item) => void out.push(map(item)));
  return out;
}
