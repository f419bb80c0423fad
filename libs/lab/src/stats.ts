/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

/** Wilson score interval for `successes` out of `n` trials; n = 0 gives [0, 1]. */
export function wilson(successes: number, n: number, z = Z95): Interval {
  if (n === 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const denominator = 1 + z2 / n;
  return {
    low: Math.max(0, (centre - spread) / denominator),
    high: Math.min(1, (centre + spread) / denominator),
  };
}

/** Fixed decimals so the JSON and CSV are the same bytes on every machine. */
export function round(x: number, decimals = 4): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}
