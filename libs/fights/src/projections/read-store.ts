/**
 * The read side's storage: read models plus each projection's checkpoint, written in one transaction.
 * The folds the projections build them from are not stored: the runner keeps them in memory and folds
 * a fight it does not hold from the fight's own stream (handlers.ts).
 */
export interface FightRow {
  fightId: string;
  /** The tenant whose key created the fight ('' before access control existed). */
  tenantId: string;
  system: string;
  name: string;
  status: string;
  seq: number;
  headHash: string;
  createdAt: string;
  updatedAt: string;
  view: Record<string, unknown>;
}

/** A combatant as `GET /fights/:id/combatants` lists it: an entry of its fight's view (no table of its own). */
export interface CombatantRow {
  fightId: string;
  combatantId: string;
  system: string;
  name: string;
  side: string;
  summary: Record<string, unknown>;
}

/** Which fights: the filters alone, for counting them. */
export interface FightFilter {
  tenantId?: string;
  system?: string;
  status?: string;
}

/** Where a list position sits in the fights' order: newest first, by (createdAt, fightId) descending. */
export interface FightKey {
  createdAt: string;
  fightId: string;
}

/**
 * A page of fights, newest first (createdAt, then fightId, both descending, compared as plain
 * code points on every engine). `after` is a keyset position: the page starts with the first fight
 * after that key, read from the (tenant, created, id) index. `offset` is the older paging, kept for
 * callers who send it; with `after` it is not given.
 */
export interface FightQuery extends FightFilter {
  limit: number;
  offset?: number;
  after?: FightKey;
}

/**
 * The projections. A `combatants` projection once kept each combatant's view entry in a table of its own,
 * a copy of what the fight's row holds; the combatants are now read from that row (docs/event-store.md
 * "Read side pages").
 */
export const PROJECTIONS = ['fight-views'] as const;
export type ProjectionName = (typeof PROJECTIONS)[number];

/** The writes of one `apply`, kept (the last one per row) until its commit. */
export interface ReadTx {
  putFight(row: FightRow): void;
}

export interface ReadStore {
  readonly engine: string;
  checkpoint(projection: ProjectionName): Promise<string | undefined>;
  /**
   * Runs `fn`, then commits its writes and moves the checkpoint of every named projection from
   * `expected` to `next` in one transaction. Returns false, changing nothing, when another
   * runner moved one of those checkpoints first.
   */
  apply(
    projections: readonly ProjectionName[],
    expected: string | undefined,
    next: string,
    fn: (tx: ReadTx) => void | Promise<void>,
  ): Promise<boolean>;
  /** Deletes the projection's rows and checkpoint, for a rebuild from position 0. */
  reset(projection: ProjectionName): Promise<void>;
  getFight(fightId: string): Promise<FightRow | undefined>;
  listFights(q: FightQuery): Promise<FightRow[]>;
  /** How many fights match: a scan of the index, so only for a caller who asks for the total. */
  countFights(q: FightFilter): Promise<number>;
  /**
   * Another connection of this process (the fold worker's) wrote these fights' rows, or, with none named,
   * anything: a store that keeps rows between reads drops those.
   */
  forget?(fightIds?: Iterable<string>): void;
  close(): Promise<void>;
}
