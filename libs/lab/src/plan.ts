import { LAB_SYSTEMS } from './systems';
import { LabSystem } from './lab-system';
import { LabInputError } from './errors';

export { LabInputError } from './errors';

export const MAX_FIGHTS_PER_CELL = 100_000;
export const DEFAULT_ROUND_CAP = 30;

/** What a caller asks for (CLI flags, POST /lab/runs body). */
export interface LabInput {
  system: string;
  fights: number;
  seed: string;
  sheets?: Record<string, unknown>[];
  strategies?: string[];
  roundCap?: number;
}

/** A checked input with every default filled in. */
export interface LabPlan {
  system: string;
  fights: number;
  seed: string;
  sheets: Record<string, unknown>[];
  strategies: string[];
  roundCap: number;
}

function check(ok: boolean, code: string, message: string, field: string): asserts ok {
  if (!ok) throw new LabInputError(code, message, field);
}

export function labSystem(id: string): LabSystem {
  const system = Object.prototype.hasOwnProperty.call(LAB_SYSTEMS, id) ? LAB_SYSTEMS[id] : undefined;
  check(
    system !== undefined,
    'LAB_UNKNOWN_SYSTEM',
    `the lab plays ${Object.keys(LAB_SYSTEMS).join(', ')}; not ${id}`,
    'system',
  );
  return system;
}

/** Checks the input; sheets are checked later by the system's decider (a RuleViolation naming `combatants[i].sheet…`). */
export function planLab(input: LabInput): LabPlan {
  const system = labSystem(input.system);
  check(
    Number.isInteger(input.fights) && input.fights >= 1 && input.fights <= MAX_FIGHTS_PER_CELL,
    'LAB_FIGHTS_OUT_OF_RANGE',
    `fights is per cell and must be a whole number from 1 to ${MAX_FIGHTS_PER_CELL}; got ${input.fights}`,
    'fights',
  );
  check(
    typeof input.seed === 'string' && input.seed.length >= 1 && input.seed.length <= 200,
    'LAB_SEED_INVALID',
    'seed must be 1 to 200 characters',
    'seed',
  );
  const roundCap = input.roundCap ?? DEFAULT_ROUND_CAP;
  check(
    Number.isInteger(roundCap) && roundCap >= 1 && roundCap <= 1000,
    'LAB_ROUND_CAP_OUT_OF_RANGE',
    'roundCap must be a whole number from 1 to 1000',
    'roundCap',
  );
  const known = system.strategies.map((s) => s.id);
  const strategies = input.strategies ?? known;
  check(strategies.length >= 1, 'LAB_NO_STRATEGIES', 'name at least one strategy', 'strategies');
  strategies.forEach((s, i) =>
    check(
      known.includes(s),
      'LAB_UNKNOWN_STRATEGY',
      `${system.id} strategies are ${known.join(', ')}; not ${s}`,
      `strategies[${i}]`,
    ),
  );
  check(
    new Set(strategies).size === strategies.length,
    'LAB_DUPLICATE_STRATEGY',
    'each strategy may be named once',
    'strategies',
  );
  const sheets = input.sheets ?? system.defaultSheets.map((s) => ({ ...s }));
  check(
    Array.isArray(sheets) && sheets.length === 2,
    'LAB_SHEETS_INVALID',
    'sheets must be exactly two sheets: the row side and the column side',
    'sheets',
  );
  sheets.forEach((s, i) =>
    check(
      typeof s === 'object' && s !== null && !Array.isArray(s),
      'LAB_SHEETS_INVALID',
      'each sheet must be an object',
      `sheets[${i}]`,
    ),
  );
  return {
    system: system.id,
    fights: input.fights,
    seed: input.seed,
    sheets,
    strategies: [...strategies],
    roundCap,
  };
}
