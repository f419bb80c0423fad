import { canonicalJson } from '@app/fight-log';

/** RFC 8785 canonical JSON: how the audit compares events and views (key order and undefined fields do not matter). */
export function canonical(value: unknown): string {
  return canonicalJson(value) ?? 'undefined';
}

/** The path of the first difference between two JSON values (`data.attacker.faces[1]`), or undefined when equal. */
export function firstDifference(a: unknown, b: unknown, path = '', depth = 0): string | undefined {
  if (a === b) return undefined;
  const where = path || '(root)';
  if (
    depth > 64 ||
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  ) {
    return canonical(a) === canonical(b) ? undefined : where;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`, depth + 1);
      if (d) return d;
    }
    return undefined;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
    const d = firstDifference(x[key], y[key], path ? `${path}.${key}` : key, depth + 1);
    if (d) return d;
  }
  return undefined;
}
