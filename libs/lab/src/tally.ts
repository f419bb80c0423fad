import { FightEnding, FightOutcome, LabSystem } from './lab-system';

/** Integer sums for one cell: adding them in any order gives the same totals, so any split of the work does. */
export interface Tally {
  fights: number;
  rowWins: number;
  colWins: number;
  draws: number;
  rounds: number;
  rowWounds: number;
  colWounds: number;
  illegal: number;
  endings: Record<FightEnding, number>;
}

export function emptyTally(): Tally {
  return {
    fights: 0,
    rowWins: 0,
    colWins: 0,
    draws: 0,
    rounds: 0,
    rowWounds: 0,
    colWounds: 0,
    illegal: 0,
    endings: { collapsed: 0, withdrawn: 0, roundCap: 0, stalemate: 0 },
  };
}

export function addOutcome(t: Tally, o: FightOutcome): void {
  t.fights++;
  if (o.winner === 0) t.rowWins++;
  else if (o.winner === 1) t.colWins++;
  else t.draws++;
  t.rounds += o.rounds;
  t.rowWounds += o.wounds[0];
  t.colWounds += o.wounds[1];
  t.illegal += o.illegal;
  t.endings[o.ending]++;
}

export function addTally(into: Tally, t: Tally): void {
  for (const k of [
    'fights',
    'rowWins',
    'colWins',
    'draws',
    'rounds',
    'rowWounds',
    'colWounds',
    'illegal',
  ] as const)
    into[k] += t[k];
  for (const k of Object.keys(t.endings) as FightEnding[]) into.endings[k] += t.endings[k];
}

/** A slice of one cell: fights [start, end) of row strategy vs column strategy. */
export interface Chunk {
  id: number;
  cell: number;
  row: string;
  col: string;
  start: number;
  end: number;
}

/** Plays a chunk; the worker and the in-process path both call this, so they cannot differ. */
export function playChunk<M>(system: LabSystem<M>, match: M, chunk: Chunk): Tally {
  const t = emptyTally();
  for (let i = chunk.start; i < chunk.end; i++) addOutcome(t, system.play(match, chunk.row, chunk.col, i));
  return t;
}
