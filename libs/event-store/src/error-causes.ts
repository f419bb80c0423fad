/** How far down an error's `cause` chain is read: drivers wrap once or twice, never this deep. */
const MAX_DEPTH = 5;

/**
 * An error and the causes under it (`error.cause`, then its cause…), objects only, at most MAX_DEPTH of
 * them and each once: a chain that loops back (a.cause = b, b.cause = a) ends where it would repeat.
 * Read by what it holds (`code`, `message`), not by class: a driver's error of another realm (a worker
 * thread's, a native binding's) is no `Error` here.
 */
export function* errorAndCauses(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  const seen = new Set<object>();
  for (let e = error; typeof e === 'object' && e !== null && !seen.has(e) && seen.size < MAX_DEPTH;) {
    seen.add(e);
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}
