import { RuleViolation } from '../core/violation';
import { DiceSource, DrawKind, Roll } from './roll';

/** The faces a `manual` command carries (RULINGS.md C6), one list per kind, in pool order. */
export interface ManualFaces {
  dice?: number[];
  rerollFaces?: number[];
  followUpFaces?: number[];
}

const FIELD: Record<DrawKind, keyof ManualFaces> = { pool: 'dice', reroll: 'rerollFaces', followUp: 'followUpFaces' };

/** RULINGS.md C2 `manual`: players roll physical dice; count and range are validated. */
export class ManualDice implements DiceSource {
  private readonly next: Record<DrawKind, number> = { pool: 0, reroll: 0, followUp: 0 };

  constructor(private readonly supplied: ManualFaces) {}

  roll(count: number, sides: number, kind: DrawKind = 'pool'): Roll {
    const field = FIELD[kind];
    const list = this.supplied[field] ?? [];
    const start = this.next[kind];
    if (list.length < start + count) {
      throw new RuleViolation(
        'DICE_MANUAL_FACES_MISSING',
        `RULINGS.md C6: manual dice: this command needs ${start + count} face(s) in ${field}, got ${list.length}`,
        `${field}[${list.length}]`,
      );
    }
    const faces = list.slice(start, start + count);
    faces.forEach((face, i) => {
      if (!Number.isInteger(face) || face < 1 || face > sides) {
        throw new RuleViolation(
          'DICE_FACE_OUT_OF_RANGE',
          `RULINGS.md C2: die ${start + i + 1} of ${field} is a d${sides}; ${String(face)} is not a face of it`,
          `${field}[${start + i}]`,
        );
      }
    });
    this.next[kind] = start + count;
    return { sides, faces };
  }

  /** Every supplied face must be used: extra faces mean the caller rolled a different pool. */
  assertAllUsed(): void {
    for (const kind of Object.keys(FIELD) as DrawKind[]) {
      const field = FIELD[kind];
      const list = this.supplied[field] ?? [];
      if (list.length > this.next[kind]) {
        throw new RuleViolation(
          'DICE_MANUAL_FACES_EXTRA',
          `RULINGS.md C6: manual dice: this command rolls ${this.next[kind]} face(s) in ${field}, got ${list.length}`,
          `${field}[${this.next[kind]}]`,
        );
      }
    }
  }
}
