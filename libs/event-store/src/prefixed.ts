import type { EventStore, PrefixedRead, PrefixedReadOptions, StoredEvent } from './port';

/**
 * The prefixes of a `readPrefixed` call, checked: non-empty strings, and none that another one
 * already covers ('access-' covers 'access-x'), so no stream is read twice.
 */
export function disjointPrefixes(prefixes: readonly string[]): string[] {
  for (const p of prefixes)
    if (typeof p !== 'string' || p.length === 0)
      throw new RangeError('a stream prefix must be a non-empty string');
  const sorted = [...new Set(prefixes)].sort();
  return sorted.filter((p) => !sorted.some((q) => q !== p && p.startsWith(q)));
}

/** Whether `stream` starts with one of `prefixes`. */
export const hasPrefix = (stream: string, prefixes: readonly string[]): boolean =>
  prefixes.some((p) => stream.startsWith(p));

/**
 * The least string above every string that starts with `prefix`, in code point order (SQLite's
 * BINARY collation compares UTF-8 bytes, which sort as code points): its last code point plus one.
 * Undefined when there is none (the last code point is U+10FFFF).
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix];
  const last = points.pop()!.codePointAt(0)!;
  if (last >= 0x10ffff) return undefined;
  // Surrogate code points are not characters: the next one after U+D7FF is U+E000.
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
  return points.join('') + String.fromCodePoint(next);
}

/**
 * `readPrefixed` for an engine that can only read the whole log: page through it and keep the
 * matching events. Correct on any engine; its cost grows with the log, not with the streams read.
 */
export async function scanPrefixed(
  store: Pick<EventStore, 'readAll'>,
  prefixes: readonly string[],
  options: PrefixedReadOptions = {},
  pageSize = 1000,
): Promise<PrefixedRead> {
  const wanted = disjointPrefixes(prefixes);
  const events: StoredEvent[] = [];
  let head = options.after;
  for (;;) {
    const page = await store.readAll({ after: head, limit: pageSize });
    for (const e of page) if (hasPrefix(e.stream, wanted)) events.push(e);
    if (page.length > 0) head = page[page.length - 1].checkpoint;
    if (page.length < pageSize) break;
  }
  return head === undefined ? { events } : { events, head };
}
