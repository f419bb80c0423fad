import { EventStore, StoredEvent } from '@app/event-store';
import { FIGHT_STREAM_PREFIX, FightEvent, fightStream, toFightEvent, toLogEntry } from '@app/fight-log';
import { FightLog } from '@app/audit';
import { FightCache, FightCacheOptions, FightViewResult } from './fight-cache';
import { Actor, CommandInput, CreateFightInput, GM_ACTOR } from './command-admission';
import { CommandResult, FightCommands } from './fight-commands';
import { FightReads } from './fight-reads';
import { FightFeed } from './live/fight-feed';
import { LiveFightStream } from './live/live-stream';
import { LiveViews } from './live/live-views';
import { LogFollower } from './log-follower';
import { TailPage } from './log-tail';

export { DECLARED_FOR, GM_ACTOR } from './command-admission';
export type { Actor, CommandInput, CreateFightInput, DeclaredSystem } from './command-admission';
export type { CommandOutcome, CommandResult } from './fight-commands';
export type { FightViewResult } from './fight-cache';

/**
 * A fight service for every transport (DESIGN.md "Commands, end to end"): the command path (fight-commands.ts),
 * the reads (fight-reads.ts) and the live views (live/live-views.ts) over one cache of folded fights
 * (fight-cache.ts), kept current by the global log (log-follower.ts).
 */
export class FightService {
  readonly cache: FightCache;
  readonly feed = new FightFeed();
  /** Called after every commit this instance makes or hears of (the projection runner listens). */
  readonly onCommit = new Set<() => void>();
  /** Called after each command with its outcome (metrics listen). */
  readonly onCommandDone: FightCommands['onCommandDone'];
  /** Called after each append of a fight's events, with the store's error when it failed (readiness listens). */
  readonly onAppend: FightCommands['onAppend'];
  /** Events of streams other than fights (access control), as the global log delivers them. */
  readonly onOtherEvent = new Set<(e: StoredEvent) => void>();
  /** Each page of the global log the follower read, after the cache had it: the read side's one tail read. */
  readonly onLogPage = new Set<(page: TailPage) => void>();
  /**
   * While true, the follower reads every event of the log (the read side's owner folds them all). Otherwise
   * a store that can (PostgreSQL) passes over the events of fights this instance neither holds in its cache
   * nor has live subscribers to (docs/event-store.md "Selective follow"), and their pages say so.
   */
  wholeLog: () => boolean = () => true;
  private readonly commands: FightCommands;
  private readonly reads: FightReads;
  private readonly live: LiveViews;
  private readonly follower: LogFollower;

  /** `cache`: where snapshots are kept (snapshots/create-snapshot-store.ts); none by default. */
  constructor(store: EventStore, clock: () => Date = () => new Date(), cache: FightCacheOptions = {}) {
    this.cache = new FightCache(store, cache);
    this.commands = new FightCommands(store, this.cache, clock, (events) => this.committed(events));
    this.onCommandDone = this.commands.onCommandDone;
    this.onAppend = this.commands.onAppend;
    this.reads = new FightReads(store, this.cache);
    this.live = new LiveViews(this.cache, this.feed, this.reads);
    this.follower = new LogFollower(store, (e) => this.heard(e), this.onLogPage, {
      prefix: FIGHT_STREAM_PREFIX,
      selective: () => !this.wholeLog(),
      wants: (stream, revision) => this.lacks(stream.slice(FIGHT_STREAM_PREFIX.length), revision),
      always: () => [...this.feed.watched()].map(fightStream),
    });
  }

  /** Follows the global log from `after` (where the caller's own read of it stopped). */
  start(after: string | undefined): void {
    this.follower.start(after);
  }

  stop(): void {
    this.follower.stop();
  }

  create(
    input: CreateFightInput,
    actor: Actor = GM_ACTOR,
    beforeAppend?: (fightId: string) => Promise<void>,
  ): Promise<CommandResult> {
    return this.commands.create(input, actor, beforeAppend);
  }

  execute(fightId: string, input: CommandInput, actor: Actor = GM_ACTOR): Promise<CommandResult> {
    return this.commands.execute(fightId, input, actor);
  }

  view(fightId: string): Promise<FightViewResult> {
    return this.reads.view(fightId);
  }

  viewAt(fightId: string, at: number): Promise<FightViewResult> {
    return this.reads.viewAt(fightId, at);
  }

  events(fightId: string, after = 0, limit?: number): Promise<FightEvent[]> {
    return this.reads.events(fightId, after, limit);
  }

  exportLog(fightId: string): Promise<FightLog> {
    return this.reads.exportLog(fightId);
  }

  watch(fightId: string, after = 0, field = 'after'): Promise<LiveFightStream> {
    return this.live.watch(fightId, after, field);
  }

  watchViews(fightId: string): Promise<AsyncIterableIterator<FightViewResult>> {
    return this.live.watchViews(fightId);
  }

  /**
   * Whether this instance needs the fight's events up to `revision` (any, when not known): someone here
   * watches it, or the cache holds it (and folds them on), and has not got them (its own commit, say).
   */
  private lacks(fightId: string, revision?: bigint): boolean {
    const seq = revision === undefined ? Infinity : Number(revision) + 1;
    const cached = this.cache.get(fightId);
    return (cached !== undefined && cached.seq < seq) || this.feed.publishedBefore(fightId, seq);
  }

  /** Events this instance appended. */
  private committed(events: FightEvent[]): void {
    for (const e of events) this.feed.publish(e);
    for (const listener of this.onCommit) listener();
  }

  /** Every event of the global log, whichever instance wrote it. */
  private heard(e: StoredEvent): void {
    if (!e.stream.startsWith(FIGHT_STREAM_PREFIX)) {
      for (const listener of this.onOtherEvent) listener(e);
      return;
    }
    this.cache.observe(toLogEntry(e));
    this.feed.publish(toFightEvent(e));
    for (const listener of this.onCommit) listener();
  }
}
