import { RuleViolation } from './violation';

/** Small readers for command payloads that arrive as unknown JSON: each names its field. */
export function str(
  v: unknown,
  field: string,
  opts: { optional?: boolean; max?: number; pattern?: RegExp } = {},
): string {
  if (v === undefined && opts.optional) return undefined as unknown as string;
  if (typeof v !== 'string' || v.length === 0) bad(field, 'must be a non-empty string');
  if (opts.max !== undefined && v.length > opts.max) bad(field, `must be at most ${opts.max} characters`);
  if (opts.pattern && !opts.pattern.test(v)) bad(field, `must match ${String(opts.pattern)}`);
  return v;
}

export function int(
  v: unknown,
  field: string,
  opts: { min?: number; max?: number; optional?: boolean } = {},
): number {
  if (v === undefined && opts.optional) return undefined as unknown as number;
  if (typeof v !== 'number' || !Number.isInteger(v)) bad(field, 'must be an integer');
  if (opts.min !== undefined && v < opts.min) bad(field, `must be at least ${opts.min}`);
  if (opts.max !== undefined && v > opts.max) bad(field, `must be at most ${opts.max}`);
  return v;
}

export function bool(v: unknown, field: string, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') bad(field, 'must be true or false');
  return v;
}

export function oneOf<T extends string>(v: unknown, field: string, values: readonly T[], fallback?: T): T {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string' || !values.includes(v as T)) bad(field, `must be one of ${values.join(', ')}`);
  return v as T;
}

export function obj(v: unknown, field: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(field, 'must be an object');
  return v as Record<string, unknown>;
}

export function arr(v: unknown, field: string, opts: { max?: number; optional?: boolean } = {}): unknown[] {
  if (v === undefined && opts.optional) return [];
  if (!Array.isArray(v)) bad(field, 'must be an array');
  if (opts.max !== undefined && v.length > opts.max) bad(field, `must have at most ${opts.max} items`);
  return v;
}

export function bad(field: string, message: string, code = 'INVALID_FIELD'): never {
  throw new RuleViolation(code, `${field} ${message}`, field);
}

export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
