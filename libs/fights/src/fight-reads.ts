import { setImmediate as nextTurn } from 'node:timers/promises';
import { EventStore } from '@app/event-store';
import { FightEvent, FightFolder, fightStream, toFightEvent, toLogEntry } from '@app/fight-log';
import { buildFightLog, FightLog } from '@app/audit';
import { findSystem } from '@app/rules';
import { AppError, fightNotFound } from './errors';
import { FightCache, FightViewResult, viewOf, viewResult } from './fight-cache';

/** What a fight shows: its view now or at any seq, its events, its exported log. */
export class FightReads {
  constructor(
    private readonly store: EventStore,
    private readonly cache: FightCache,
  ) {}

  /** The current view, caught up with the store (another instance may have written). */
  async view(fightId: string): Promise<FightViewResult> {
    return viewResult(await this.cache.refresh(fightId));
  }

  /**
   * The view right after event `at` (time travel): the log up to it (and no further) folded
   * (foldFight) a few hundred events per turn of the event loop, so that a long fight's early state
   * does not hold others up.
   */
  async viewAt(fightId: string, at: number): Promise<FightViewResult> {
    const stream = fightStream(fightId);
    const outOfRange = (length: number) =>
      new AppError(422, 'SEQ_OUT_OF_RANGE', `at must be between 1 and ${length}`, 'at');
    if (!Number.isSafeInteger(at) || at < 1) {
      const revision = await this.store.streamRevision(stream);
      if (revision === undefined) throw fightNotFound(fightId);
      throw outOfRange(Number(revision) + 1);
    }
    // Fewer than `at` events: that is the whole stream, and `at` is past its end.
    const stored = await this.store.readStream(stream, { limit: at });
    if (stored.length === 0) throw fightNotFound(fightId);
    if (at > stored.length) throw outOfRange(stored.length);
    const events = await mapInTurns(stored, toFightEvent);
    const system = findSystem(String(events[0].data.system));
    if (!system) throw new Error(`fight ${fightId} uses an unknown system`);
    const folder = new FightFolder(system, fightId);
    await inTurns(events, (e) => void folder.apply(e));
    return {
      fightId,
      seq: at,
      view: { ...system.view(folder.state), seq: at, headHash: events[at - 1].hash },
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
