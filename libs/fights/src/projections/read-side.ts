/**
 * Which instance runs the read side, the projections and the webhook outbox (DESIGN.md "Read side",
 * docs/event-store.md "One owner of the read side"). The others only follow the log for their caches and
 * live views. Owning is an economy, not what keeps the read models right: every commit of a projection or
 * of the outbox is still conditional on the checkpoint it started from, so two owners for a moment (a
 * connection the database has not yet found dead) fold twice and commit once.
 */
export interface ReadSideOwner {
  /** `sole`: the only process (SQLite, memory); `elected`: an advisory lock on PostgreSQL; `follower`: never owns. */
  readonly mode: 'sole' | 'elected' | 'follower';
  /** True while this instance runs the read side. */
  readonly owned: boolean;
  /** Called with the new value each time `owned` changes. */
  readonly onChange: Set<(owned: boolean) => void>;
  /** Resolves once the first election (if any) is decided. */
  start(): Promise<void>;
  /** Gives the read side up (PostgreSQL: ends the session, which frees the lock for another instance). */
  stop(): Promise<void>;
}

/** The one process of an embedded store, or an instance told never to own (READ_SIDE=follow). */
export class FixedReadSideOwner implements ReadSideOwner {
  readonly onChange = new Set<(owned: boolean) => void>();
  readonly mode: 'sole' | 'follower';

  constructor(readonly owned: boolean) {
    this.mode = owned ? 'sole' : 'follower';
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {}
}
