import { EventEmitter } from 'node:events';
import { EventStore, StoredEvent } from '@app/event-store';
import { CoalescedRun } from '../coalesced-run';
import { HandlerContext, HANDLERS } from './handlers';
import { PROJECTIONS, ProjectionName, ReadStore } from './read-store';
import { FIGHT_STREAM_PREFIX, fightStream, toFightEvent } from '../fight-event';

const PAGE = 500;
const BATCH_MS = 5;

export interface ProjectionStatus {
  name: ProjectionName;
  checkpoint: string | null;
  /** Events in the global log after the checkpoint (capped at 10,000). */
  lagEvents: number;
}

/**
 * Folds the global log into the read models. Woken on every commit it hears of
 * (and by a slow poll); several runners on one database are safe because each
 * page commits only if the checkpoint it started from is still current.
 */
export class ProjectionRunner {
  private readonly applied = new EventEmitter().setMaxListeners(0);
  private timer?: NodeJS.Timeout;
  private readonly context: HandlerContext = {
    readFight: async (fightId) => (await this.store.readStream(fightStream(fightId))).map(toFightEvent),
  };

  constructor(
    private readonly store: EventStore,
    readonly read: ReadStore,
    private readonly names: readonly ProjectionName[] = PROJECTIONS,
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  /** Commits arriving within a few milliseconds share one page and one transaction. */
  private readonly passes = new CoalescedRun(() => this.catchUpAll(), (e) => this.onError(e), BATCH_MS);

  /** Catches every projection up, then keeps them current. */
  async start(pollMs = 2000): Promise<void> {
    await this.catchUpAll();
    this.timer = setInterval(() => this.kick(), pollMs);
    this.timer.unref();
  }

  stop(): void {
    this.passes.close();
    clearInterval(this.timer);
  }

  kick(): void {
    this.passes.kick();
  }

  /** Every projection at once: while they share a checkpoint (the usual case) each page is read once. */
  async catchUpAll(): Promise<void> {
    for (;;) {
      const checkpoints = await Promise.all(this.names.map((n) => this.read.checkpoint(n)));
      if (checkpoints.some((c) => c !== checkpoints[0])) {
        for (const name of this.names) await this.catchUp(name);
        return;
      }
      const page = await this.store.readAll({ after: checkpoints[0], limit: PAGE });
      if (page.length === 0) return;
      const next = page[page.length - 1].checkpoint;
      for (const name of this.names) {
        if (await this.read.apply(name, checkpoints[0], next, (tx) => HANDLERS[name](tx, this.context, page))) this.announce(name, page);
      }
      if (page.length < PAGE) return;
    }
  }

  /** Applies every page after the projection's checkpoint; returns how many events it folded. */
  async catchUp(name: ProjectionName): Promise<number> {
    let applied = 0;
    for (;;) {
      const checkpoint = await this.read.checkpoint(name);
      const page = await this.store.readAll({ after: checkpoint, limit: PAGE });
      if (page.length === 0) return applied;
      if (await this.read.apply(name, checkpoint, page[page.length - 1].checkpoint, (tx) => HANDLERS[name](tx, this.context, page))) {
        applied += page.length;
        this.announce(name, page);
      }
      if (page.length < PAGE) return applied;
    }
  }

  private announce(name: ProjectionName, page: StoredEvent[]): void {
    const latest = new Map<string, number>();
    for (const e of page) if (e.stream.startsWith(FIGHT_STREAM_PREFIX)) latest.set(toFightEvent(e).fightId, Number(e.revision) + 1);
    for (const [fightId, seq] of latest) this.applied.emit(`${name}:${fightId}`, seq);
  }

  /** Resolves true once `projection` has folded `fightId` up to `seq`, false after `timeoutMs`. */
  waitFor(name: ProjectionName, fightId: string, seq: number, timeoutMs: number, current: () => Promise<number>): Promise<boolean> {
    return new Promise((resolve) => {
      const key = `${name}:${fightId}`;
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.applied.off(key, listener);
        resolve(ok);
      };
      const listener = (reached: number) => reached >= seq && done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.applied.on(key, listener);
      void current().then((reached) => reached >= seq && done(true), () => undefined);
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
