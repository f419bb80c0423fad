import { viewText } from '../view-text';
import { FightRow, ReadTx } from './read-store';

/**
 * The writes of one `apply`, the last per row, serialised as they are put, before any
 * transaction opens: every store then commits them together with the checkpoints, so a
 * fight changed by many events is written once.
 */
export class ReadWrites {
  readonly fights = new Map<string, { row: FightRow; view: string }>();

  tx(): ReadTx {
    return {
      putFight: (row: FightRow) => void this.fights.set(row.fightId, { row, view: viewText(row.view) }),
    };
  }
}
