/** The read side's storage: read models plus each projection's checkpoint, written in one transaction. */
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

export interface CombatantRow {
  fightId: string;
  combatantId: string;
  system: string;
  name: string;
  side: string;
  summary: Record<string, unknown>;
}

export interface Fold {
  seq: number;
  state: unknown;
  headHash: string;
}

/** A fold as stored: its state still JSON, so projections whose folds are identical can share one. */
export interface StoredFold {
  seq: number;
  headHash: string;
  state: string;
}

export interface FightQuery {
  tenantId?: string;
  system?: string;
  status?: string;
  limit: number;
  offset: number;
}

export const PROJECTIONS = ['fight-views', 'combatants'] as const;
export type ProjectionName = (typeof PROJECTIONS)[number];

/** The writes of one `apply`, kept (the last one per row) until its commit. */
export interface ReadTx {
  putFold(projection: ProjectionName, fightId: string, fold: Fold): void;
  putFight(row: FightRow): void;
  replaceCombatants(fightId: string, rows: CombatantRow[]): void;
}

export interface ReadStore {
  readonly engine: string;
  checkpoint(projection: ProjectionName): Promise<string | undefined>;
  /**
   * The stored folds of these fights. Read outside `apply`: a fold changes only with its
   * projection's checkpoint, which `apply` checks before it writes.
   */
  folds(projection: ProjectionName, fightIds: string[]): Promise<Map<string, StoredFold>>;
  /**
   * Runs `fn`, then commits its writes and moves the checkpoint of every named projection from
   * `expected` to `next` in one transaction. Returns false, changing nothing, when another
   * runner moved one of those checkpoints first.
   */
  apply(projections: readonly ProjectionName[], expected: string | undefined, next: string, fn: (tx: ReadTx) => void | Promise<void>): Promise<boolean>;
  /** Deletes the projection's rows and checkpoint, for a rebuild from position 0. */
  reset(projection: ProjectionName): Promise<void>;
  getFight(fightId: string): Promise<FightRow | undefined>;
  listFights(q: FightQuery): Promise<{ items: FightRow[]; total: number }>;
  listCombatants(fightId: string): Promise<CombatantRow[]>;
  close(): Promise<void>;
}
