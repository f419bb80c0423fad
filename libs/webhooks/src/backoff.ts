/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: number): number | undefined {
  if (!header) return undefined;
  const raw = header.trim();
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * When to try again after `attemptsMade` failed attempts of this round, or undefined when the
 * schedule is spent. A receiver's Retry-After may push the attempt later, never earlier (capped at a day).
 */
export function nextAttemptAt(
  schedule: readonly number[],
  attemptsMade: number,
  now: number,
  retryAfterMs?: number,
): number | undefined {
  if (attemptsMade >= schedule.length) return undefined;
  return now + Math.max(schedule[attemptsMade], Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}
