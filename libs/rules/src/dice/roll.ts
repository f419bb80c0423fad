/** C1: every die rolled is data in the event that used it. */
export interface Roll {
  sides: number;
  faces: number[];
  /** Draw number (C5) in `fair` and `seeded` modes; absent for `manual` dice. */
  draw?: number;
}

/** What a draw is for: `manual` dice read each kind from its own command field (C6). */
export type DrawKind = 'pool' | 'reroll' | 'followUp';

export interface DiceSource {
  /** One draw (C5): a pool, a reroll, a roll-off or a table roll. */
  roll(count: number, sides: number, kind?: DrawKind): Roll;
}
