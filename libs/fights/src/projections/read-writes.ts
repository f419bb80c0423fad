import { CombatantRow, FightRow, Fold, ProjectionName, ReadTx } from './read-store';

export interface FoldRow {
  projection: ProjectionName;
  fightId: string;
  seq: number;
  headHash: string;
  /** JSON */
  state: string;
}

/**
 * The writes of one `apply`, the last per row, serialised as they are put, before any
 * transaction opens: every store then commits them together with the checkpoints, so a
 * fight changed by many events is written once.
 */
export class ReadWrites {
  readonly folds = new Map<string, FoldRow>();
  readonly fights = new Map<string, { row: FightRow; view: string }>();
  readonly combatants = new Map<string, Array<{ row: CombatantRow; summary: string }>>();
  /** Projections folding alike put the same state object: one JSON text for all. */
  private readonly json = new Map<unknown, string>();

  tx(): ReadTx {
    return {
      putFold: (projection: ProjectionName, fightId: string, fold: Fold) => {
        let state = this.json.get(fold.state);
        if (state === undefined) this.json.set(fold.state, (state = JSON.stringify(fold.state)));
        this.folds.set(`${projection}/${fightId}`, {
          projection,
          fightId,
          seq: fold.seq,
          headHash: fold.headHash,
          state,
        });
      },
      putFight: (row: FightRow) => void this.fights.set(row.fightId, { row, view: JSON.stringify(row.view) }),
      replaceCombatants: (fightId: string, rows: CombatantRow[]) =>
        void this.combatants.set(
          fightId,
          rows.map((row) => ({ row, summary: JSON.stringify(row.summary) })),
        ),
    };
  }
}
