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

export interface FightQuery {
  tenantId?: string;
  system?: string;
  status?: string;
  limit: number;
  offset: number;
}

export interface ReadTx {
  getFold(projection: string, fightId: string): Promise<Fold | undefined>;
  putFold(projection: string, fightId: string, fold: Fold): Promise<void>;
  putFight(row: FightRow): Promise<void>;
  replaceCombatants(fightId: string, rows: CombatantRow[]): Promise<void>;
}

export const PROJECTIONS = ['fight-views', 'combatants'] as const;
export type ProjectionName = (typeof PROJECTIONS)[number];

export interface ReadStore {
  readonly engine: string;
  checkpoint(projection: ProjectionName): Promise<string | undefined>;
  /**
   * Runs `fn` and moves the checkpoint from `expected` to `next` in one transaction.
   * Returns false, changing nothing, when another runner moved the checkpoint first.
   */
  apply(projection: ProjectionName, expected: string | undefined, next: string, fn: (tx: ReadTx) => Promise<void>): Promise<boolean>;
  /** Deletes the projection's rows and checkpoint, for a rebuild from position 0. */
  reset(projection: ProjectionName): Promise<void>;
  getFight(fightId: string): Promise<FightRow | undefined>;
  listFights(q: FightQuery): Promise<{ items: FightRow[]; total: number }>;
  listCombatants(fightId: string): Promise<CombatantRow[]>;
  close(): Promise<void>;
}
