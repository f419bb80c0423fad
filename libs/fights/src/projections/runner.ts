import { EventEmitter } from 'node:events';
import { EventStore } from '@app/event-store';
import { CoalescedRun } from '../coalesced-run';
import { TailPage, TailReader } from '../log-tail';
import { FixedReadSideOwner, ReadSideOwner } from './read-side';
import { FoldCache, HandlerContext, ProjectionBatch } from './handlers';
import { PROJECTIONS, ProjectionName, ReadStore } from './read-store';
import { fightStream } from '@app/fight-log';
import { whileUp, type RemoteTask, type TaskListeners } from './fold-worker';

const PAGE = 500;
/**
 * A catch-up commits about this often, writing each changed fight once. A commit cost a rebuild
 * about as much as folding 1,000 events (measured on 14,600 events: 0.59 of a raw read at
 * 5,000 events a commit, 0.68 at one commit); memory holds only the changed fights' folds.
 */
const EVENTS_PER_COMMIT = 20_000;
const BATCH_MS = 5;
/**
 * Fights whose folds a runner holds between passes (per group of projections folding together); one
 * not held is folded from its stream when it next changes.
 */
const FOLDS_HELD = 2000;
/** How soon an instance that does not fold looks again at the read model a query waits on, and how late at most. */
const FOLLOWER_RECHECK_MS = { first: 5, max: 200 };
/** Emitted on each commit of projections this process hears of (its own, or its worker's). */
const COMMITTED = 'committed';

export interface ProjectionRunnerOptions {
  /** The pages the log follower read: folded from there instead of read again (log-tail.ts). */
  tail?: TailReader;
  /** Folds only while this instance owns the read side (read-side-owner.ts); by default it always does. */
  owner?: ReadSideOwner;
  /** Fights whose folds are held between passes (FOLDS_HELD by default). */
  foldsHeld?: number;
  /**
   * A view already built for a fight at a seq and head hash (the fight cache's, fight-cache.ts): a fold
   * is a function of the log, so the view the command path built is the one the projection would.
   */
  heldView?: HandlerContext['heldView'];
  /**
   * Runs the passes in another thread (fold-worker.ts) while it is up; this runner still decides when,
   * and tells the waiters. Passes run here again if it is lost.
   */
  remote?: RemoteFolds;
  /** Told of each commit this runner makes: the projections, and each fight's last seq folded. */
  onApplied?: AppliedListener;
}

/** A commit of projections: each fight's last seq folded; no map when others wrote (anything may have changed). */
export type AppliedListener = (
  names: readonly ProjectionName[],
  latest?: ReadonlyMap<string, number>,
) => void;

/** Passes run elsewhere: a worker thread of this process (fold-worker.ts). */
export interface RemoteFolds {
  /** Up, or still starting: passes go to it. False once it is lost or stopped. */
  readonly up: boolean;
  /** A pass over every projection, or the named one's catch-up; resolves with the events folded. */
  pass(name?: ProjectionName): Promise<number>;
  /** Called with each commit the other thread makes (before its pass resolves). */
  readonly onApplied: Set<AppliedListener>;
  /** Another consumer of the log run on the same thread (the webhook outbox), where it can (fold-worker.ts). */
  task?(name: string, file: string, data: unknown, listeners?: TaskListeners): RemoteTask;
  stop(): Promise<void>;
}

export interface ProjectionStatus {
  name: ProjectionName;
  checkpoint: string | null;
  /** Events in the global log after the checkpoint (capped at 10,000). */
  lagEvents: number;
}

/**
 * Folds the global log into the read models. Woken on every commit it hears of, or handed the pages the
 * log follower read (`offer`), and by a slow poll; it folds only while this instance owns the read side.
 * Several runners on one database are still safe because each commit happens only if the checkpoints it
 * started from are still current.
 */
export class ProjectionRunner {
  private readonly applied = new EventEmitter().setMaxListeners(0);
  private timer?: NodeJS.Timeout;
  private pollMs = 2000;
  private started = false;
  readonly owner: ReadSideOwner;
  private readonly tail?: TailReader;
  private readonly onOwnerChange = (owned: boolean) => void this.follow(owned);
  private readonly context: HandlerContext;
  /** The folds each group of projections (by their names) stood at after its last commit. */
  private readonly held = new Map<string, FoldCache>();
  private readonly foldsHeld: number;
  /** Where the passes run while it is up (a worker thread), if anywhere but here. */
  readonly remote?: RemoteFolds;
  private readonly onApplied?: AppliedListener;

  constructor(
    private readonly store: EventStore,
    readonly read: ReadStore,
    private readonly names: readonly ProjectionName[] = PROJECTIONS,
    private readonly onError: (e: unknown) => void = () => undefined,
    options: ProjectionRunnerOptions = {},
  ) {
    this.owner = options.owner ?? new FixedReadSideOwner(true);
    this.tail = options.tail;
    this.foldsHeld = options.foldsHeld ?? FOLDS_HELD;
    this.remote = options.remote;
    this.onApplied = options.onApplied;
    this.remote?.onApplied.add((names, latest) => this.appliedElsewhere(names, latest));
    this.context = {
      readFight: (fightId, count) => this.store.readStream(fightStream(fightId), { limit: count }),
      heldView: options.heldView,
    };
  }

  /** True while this runner folds the log (this instance owns the read side). */
  get folding(): boolean {
    return this.started && this.owner.owned;
  }

  /** True while the passes run on another thread (a fold worker that is up). */
  get foldingElsewhere(): boolean {
    return this.remote?.up === true;
  }

  /** Commits arriving within a few milliseconds share one page and one transaction. */
  private readonly passes = new CoalescedRun(
    () => this.catchUpAll(),
    (e) => this.onError(e),
    BATCH_MS,
  );

  /**
   * Catches every projection up, then keeps them current, while this instance owns the read side: it
   * starts folding when it wins the read side and stops when it loses it.
   */
  async start(pollMs = 2000): Promise<void> {
    this.pollMs = pollMs;
    this.started = true;
    this.owner.onChange.add(this.onOwnerChange);
    await this.follow(this.owner.owned, true);
  }

  /** Stops the poll and waits for the pass in hand, so the read store can be closed after it. */
  async stop(): Promise<void> {
    this.started = false;
    this.owner.onChange.delete(this.onOwnerChange);
    clearInterval(this.timer);
    this.tail?.clear();
    await this.passes.close();
    await this.remote?.stop();
  }

  /** A commit the other thread made: the rows this process holds of those fights are stale, then the waiters are told. */
  private appliedElsewhere(names: readonly ProjectionName[], latest?: ReadonlyMap<string, number>): void {
    this.read.forget?.(latest?.keys());
    if (latest)
      for (const name of names)
        for (const [fightId, seq] of latest) this.applied.emit(`${name}:${fightId}`, seq);
    this.applied.emit(COMMITTED);
  }

  /** At boot the first catch-up is awaited (and its failure fails the boot); on a takeover it is a pass like any. */
  private async follow(owned: boolean, atBoot = false): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.tail?.clear();
    this.held.clear();
    if (!owned || !this.started) return;
    if (atBoot) await this.catchUpAll();
    else this.kick();
    if (!this.folding || this.timer) return;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
  }

  /** A page the log follower read: kept for the next pass, which it starts. Ignored while another instance folds. */
  offer(page: TailPage): void {
    if (!this.folding) return;
    // The worker reads the log itself.
    if (!this.remote?.up) this.tail?.offer(page);
    this.kick();
  }

  kick(): void {
    if (this.started && !this.owner.owned) return;
    this.passes.kick();
  }

  /**
   * Every projection. Those at the same checkpoint (the usual case) go together: each run of
   * the log is read once, folded once and committed in one transaction for all of them.
   */
  async catchUpAll(): Promise<void> {
    if ((await this.remotely()) !== undefined) return;
    for (;;) {
      const checkpoints = await Promise.all(this.names.map((n) => this.read.checkpoint(n)));
      const groups = new Map<string | undefined, ProjectionName[]>();
      this.names.forEach((name, i) =>
        groups.set(checkpoints[i], [...(groups.get(checkpoints[i]) ?? []), name]),
      );
      // Folds of groups that have since merged or split are of no use any more.
      const keys = new Set([...groups.values()].map((names) => names.join('\n')));
      for (const key of this.held.keys()) if (!keys.has(key)) this.held.delete(key);
      let more = false;
      for (const [checkpoint, names] of groups) if ((await this.step(names, checkpoint)).more) more = true;
      if (!more) return;
    }
  }

  /**
   * The pass on the worker while it is up, and the events it folded; undefined when there is none, or it was
   * lost meanwhile: the pass is then made here.
   */
  private remotely(name?: ProjectionName): Promise<number | undefined> {
    return whileUp(this.remote, (remote) => remote.pass(name));
  }

  /**
   * Applies everything in the log after the projection's checkpoint; returns how many events it folded.
   * It reads the store, not the follower's pages: those end where the follower is, which may be short
   * of an event already committed (a pass kicked by the follower picks that one up with the next page).
   */
  async catchUp(name: ProjectionName): Promise<number> {
    const remotely = await this.remotely(name);
    if (remotely !== undefined) return remotely;
    let applied = 0;
    for (;;) {
      const step = await this.step([name], await this.read.checkpoint(name), true);
      applied += step.applied;
      if (!step.more) return applied;
    }
  }

  /**
   * Folds up to EVENTS_PER_COMMIT events after `checkpoint`, page by page, and commits them to
   * `names` at once. `more`: the log may go on. `applied`: 0 when another runner moved first.
   */
  private async step(
    names: readonly ProjectionName[],
    checkpoint: string | undefined,
    fromStore = false,
  ): Promise<{ applied: number; more: boolean }> {
    const key = names.join('\n');
    const held = this.held.get(key);
    // Held folds stand at this group's last commit; from any other checkpoint they would be wrong.
    if (held && held.at !== checkpoint) this.held.delete(key);
    const batch = new ProjectionBatch(this.context, names, this.held.get(key));
    let after = checkpoint;
    let count = 0;
    let more = false;
    do {
      const page =
        this.tail && !fromStore
          ? await this.tail.readAll(after, PAGE)
          : await this.store.readAll({ after, limit: PAGE });
      if (page.length === 0) break;
      await batch.add(page);
      after = page[page.length - 1].checkpoint;
      count += page.length;
      more = page.length === PAGE;
    } while (more && count < EVENTS_PER_COMMIT);
    if (after === undefined || after === checkpoint) return { applied: 0, more: false };
    if (!(await this.read.apply(names, checkpoint, after, (tx) => batch.write(tx)))) {
      this.held.delete(key);
      return { applied: 0, more };
    }
    if (!this.held.has(key)) this.held.set(key, new FoldCache(this.foldsHeld));
    this.held.get(key)!.absorb(batch.folds, after);
    for (const name of names)
      for (const [fightId, seq] of batch.latest) this.applied.emit(`${name}:${fightId}`, seq);
    this.applied.emit(COMMITTED);
    this.onApplied?.(names, batch.latest);
    return { applied: count, more };
  }

  /**
   * Resolves true once `projection` has folded `fightId` up to `seq`, false after `timeoutMs`. Where
   * another instance folds, nothing here says when it has: `current` is asked again, more and more
   * rarely (FOLLOWER_RECHECK_MS), until it is there or the time is up.
   */
  waitFor(
    name: ProjectionName,
    fightId: string,
    seq: number,
    timeoutMs: number,
    current: () => Promise<number>,
  ): Promise<boolean> {
    return this.until(
      `${name}:${fightId}`,
      (reached: number) => reached >= seq,
      async () => (await current()) >= seq,
      timeoutMs,
    );
  }

  /**
   * Resolves true once `name` has folded every event committed before the call (the log's head then),
   * false after `timeoutMs`. Caught up, it costs a read of the head and one of the checkpoint. Behind, the
   * checkpoint is read again at each commit heard of here, or, where another instance folds, more and
   * more rarely as in waitFor.
   */
  async caughtUp(name: ProjectionName, timeoutMs: number): Promise<boolean> {
    // Side by side: a checkpoint read before the head is only ever older, so at the head means caught up.
    const [head, now] = await Promise.all([this.store.head(), this.read.checkpoint(name)]);
    if (head === undefined) return true;
    const at = (checkpoint?: string) =>
      checkpoint !== undefined && this.store.compareCheckpoints(checkpoint, head) >= 0;
    if (at(now)) return true;
    const look = async () => at(await this.read.checkpoint(name));
    return this.until(COMMITTED, look, look, timeoutMs);
  }

  /**
   * Resolves true once `heard` says so of an `event` of `applied`, or `look` does, false after `timeoutMs`.
   * `look` is asked at once, then again with a growing delay while another instance folds.
   */
  private until<A extends unknown[]>(
    event: string,
    heard: (...args: A) => boolean | Promise<boolean>,
    look: () => Promise<boolean>,
    timeoutMs: number,
  ): Promise<boolean> {
    return new Promise((resolve) => {
      let finished = false;
      let recheck: NodeJS.Timeout | undefined;
      let recheckMs = FOLLOWER_RECHECK_MS.first;
      const done = (ok: boolean) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        clearTimeout(recheck);
        this.applied.off(event, listener);
        resolve(ok);
      };
      const listener = (...args: A) =>
        void Promise.resolve(heard(...args)).then(
          (ok) => ok && done(true),
          () => undefined,
        );
      const timer = setTimeout(() => done(false), timeoutMs);
      this.applied.on(event, listener);
      const again = () =>
        void look().then(
          (ok) => {
            if (ok) return done(true);
            if (finished || this.folding || !this.started) return;
            recheck = setTimeout(again, recheckMs);
            recheckMs = Math.min(recheckMs * 2, FOLLOWER_RECHECK_MS.max);
          },
          () => undefined,
        );
      again();
      this.kick();
    });
  }

  async status(): Promise<ProjectionStatus[]> {
    return Promise.all(
      this.names.map(async (name) => {
        const checkpoint = await this.read.checkpoint(name);
        const behind = await this.store.readAll({ after: checkpoint, limit: 10000 });
        return { name, checkpoint: checkpoint ?? null, lagEvents: behind.length };
      }),
    );
  }
}
