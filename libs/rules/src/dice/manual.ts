import { RuleViolation } from '../core/violation';
import { DiceSource, DrawKind, Roll } from './roll';

/** The faces a `manual` command carries (C6), one list per kind, in pool order. */
export interface ManualFaces {
  dice?: number[];
  rerollFaces?: number[];
  followUpFaces?: number[];
}

export type ManualField = keyof ManualFaces;

export const MANUAL_FIELDS: readonly ManualField[] = ['dice', 'rerollFaces', 'followUpFaces'];

const FIELD: Record<DrawKind, ManualField> = {
  pool: 'dice',
  reroll: 'rerollFaces',
  followUp: 'followUpFaces',
};

/** Faces no draw read: `field` holds `got`, the draws read `used`. */
export interface LeftOver {
  field: ManualField;
  used: number;
  got: number;
}

/** What a draw that found its field short still needs: `count` more faces of a d`sides` in `field`. */
export interface DiceNeed {
  field: ManualField;
  kind: DrawKind;
  count: number;
  sides: number;
}

/**
 * C13: a draw after the command's own first pool found its field short. The fight can ask for
 * the faces (a dice request); a decider used on its own surfaces it as the C6 refusal it extends.
 */
export class DiceShortfall extends RuleViolation {
  constructor(
    readonly need: DiceNeed,
    /** The faces the field held: the draw found `have`, short of `need.count` more. */
    readonly have: number,
    /** Where the short draw starts in the field: its faces from `from` to `have` were given, not yet checked. */
    readonly from: number = have,
  ) {
    super(
      'DICE_MANUAL_FACES_MISSING',
      `ruling C6, C13: manual dice: this command needs ${have + need.count} face(s) in ${need.field}, got ${have}`,
      `${need.field}[${have}]`,
    );
    this.name = 'DiceShortfall';
  }
}

/** C2: the refusal of `face`, given as die `index` of `field`, when a d`sides` cannot show it. */
export function notAFace(
  field: ManualField,
  index: number,
  face: unknown,
  sides: number,
): RuleViolation | undefined {
  if (Number.isInteger(face) && (face as number) >= 1 && (face as number) <= sides) return undefined;
  return new RuleViolation(
    'DICE_FACE_OUT_OF_RANGE',
    `RULINGS.md C2: die ${index + 1} of ${field} is a d${sides}; ${String(face)} is not a face of it`,
    `${field}[${index}]`,
  );
}

/** C2 `manual`: players roll physical dice; count and range are validated. */
export class ManualDice implements DiceSource {
  private readonly next: Record<DrawKind, number> = { pool: 0, reroll: 0, followUp: 0 };
  /** Whether the command's own first pool (its first draw from `dice`) has been read. */
  private firstPoolRead = false;

  constructor(private readonly supplied: ManualFaces) {}

  roll(count: number, sides: number, kind: DrawKind = 'pool'): Roll {
    const field = FIELD[kind];
    const list = this.supplied[field] ?? [];
    const start = this.next[kind];
    if (list.length < start + count) {
      // C13: only the command's own first pool must come whole with it (C6).
      const need: DiceNeed = { field, kind, count: start + count - list.length, sides };
      if (kind !== 'pool' || this.firstPoolRead) throw new DiceShortfall(need, list.length, start);
      throw new RuleViolation(
        'DICE_MANUAL_FACES_MISSING',
        `RULINGS.md C6: manual dice: this command needs ${start + count} face(s) in ${field}, got ${list.length}`,
        `${field}[${list.length}]`,
      );
    }
    const faces = list.slice(start, start + count);
    faces.forEach((face, i) => {
      const bad = notAFace(field, start + i, face, sides);
      if (bad) throw bad;
    });
    this.next[kind] = start + count;
    if (kind === 'pool') this.firstPoolRead = true;
    return { sides, faces };
  }

  /**
   * C13: every supplied face goes with a held command (or to the command a ProvideDice
   * completes), which checks them when it is decided whole; here they count as used.
   */
  handOver(): ManualFaces {
    const out: ManualFaces = {};
    for (const kind of Object.keys(FIELD) as DrawKind[]) {
      const list = this.supplied[FIELD[kind]];
      if (list !== undefined) out[FIELD[kind]] = list;
      this.next[kind] = Array.isArray(list) ? list.length : 0;
    }
    return out;
  }

  /** How many faces of each field the draws so far have read. */
  reads(): Record<ManualField, number> {
    return { dice: this.next.pool, rerollFaces: this.next.reroll, followUpFaces: this.next.followUp };
  }

  /** The first field holding more faces than the draws so far have read, if any. */
  leftOver(): LeftOver | undefined {
    const read = this.reads();
    for (const field of MANUAL_FIELDS) {
      const got = this.supplied[field]?.length ?? 0;
      if (got > read[field]) return { field, used: read[field], got };
    }
    return undefined;
  }

  /** Every supplied face must be used: extra faces mean the caller rolled a different pool. */
  assertAllUsed(): void {
    const left = this.leftOver();
    if (left) {
      throw new RuleViolation(
        'DICE_MANUAL_FACES_EXTRA',
        `RULINGS.md C6: manual dice: this command rolls ${left.used} face(s) in ${left.field}, got ${left.got}`,
        `${left.field}[${left.used}]`,
      );
    }
  }
}
