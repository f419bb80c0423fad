import { LabInputError } from './errors';

/** A lab sheet entry as an object (planLab checked that much); a part of it that must be an object too. */
export function objectAt(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new LabInputError('LAB_SHEETS_INVALID', `${field} must be an object`, field);
  return value as Record<string, unknown>;
}

/**
 * A setting of the whole fight that either sheet entry may carry (Archsoul's map, Arcana Beast's starting band):
 * when both do, they must agree; undefined when neither does.
 */
export function agreed(sheets: readonly Record<string, unknown>[], key: string): unknown {
  const given = sheets.map((s) => s[key]);
  const [a, b] = given;
  if (a !== undefined && b !== undefined && JSON.stringify(a) !== JSON.stringify(b)) {
    throw new LabInputError(
      'LAB_SHEETS_INVALID',
      `${key} is one setting for the whole fight: when both sheets give it, they must give the same`,
      `sheets[1].${key}`,
    );
  }
  return a ?? b;
}

export function nameOf(raw: Record<string, unknown>, fallback: string): string {
  return typeof raw.name === 'string' && raw.name.length > 0 ? raw.name : fallback;
}

/** A name as the sheet gives it, as text (a non-string one as its JSON); `fallback` when it gives none. */
export function nameText(value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
