import type { EventStore, StoredEvent } from './port';

export interface CopyReport {
  events: number;
  streams: number;
  /** True when the target took the whole copy in one transaction (SQLite, PostgreSQL). */
  atomic: boolean;
}

type Append = EventStore['append'];

/**
 * A target whose appends can land together or not at all: every append `fill` makes through the
 * appender it is given is in one transaction, committed when `fill` resolves and rolled back when it
 * throws. The SQLite and PostgreSQL adapters have it; KurrentDB has no transaction across streams.
 */
export interface AtomicAppends {
  atomically<T>(fill: (append: Append) => Promise<T>): Promise<T>;
}

const isAtomic = (store: EventStore): store is EventStore & AtomicAppends =>
  typeof (store as Partial<AtomicAppends>).atomically === 'function';

/**
 * Moves a whole log between engines (embedded → PostgreSQL is how
 * a table grows up): global order, event ids, types, data and metadata (so hashes) are
 * preserved. Consecutive events of one stream go in one append with the exact expected
 * revision, so a target that already holds other events in a copied stream is refused, and
 * copying again is harmless (identical appends are idempotent).
 *
 * All or nothing on SQLite and PostgreSQL targets: the copy is one transaction, so a copy that
 * fails anywhere (a refused stream, a source that stops answering, a crash) leaves the target as
 * it was. On KurrentDB, which has no transaction across streams, what was copied before a failure
 * stays, and running the same copy again resumes where it stopped.
 */
export async function copyLog(
  from: EventStore,
  to: EventStore,
  onPage?: (copied: number) => void,
): Promise<CopyReport> {
  if (isAtomic(to))
    return { ...(await to.atomically((append) => copyPages(from, append, onPage))), atomic: true };
  return {
    ...(await copyPages(from, (stream, events, options) => to.append(stream, events, options), onPage)),
    atomic: false,
  };
}

async function copyPages(
  from: EventStore,
  append: Append,
  onPage?: (copied: number) => void,
): Promise<Omit<CopyReport, 'atomic'>> {
  let after: string | undefined;
  let events = 0;
  const streams = new Set<string>();
  for (;;) {
    const page = await from.readAll({ after, limit: 1000 });
    if (page.length === 0) break;
    for (const run of runsByStream(page)) {
      const first = run[0].revision;
      await append(
        run[0].stream,
        run.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })),
        { expectedRevision: first === 0n ? 'no_stream' : first - 1n },
      );
      streams.add(run[0].stream);
    }
    events += page.length;
    onPage?.(events);
    after = page[page.length - 1].checkpoint;
  }
  return { events, streams: streams.size };
}

function runsByStream(page: StoredEvent[]): StoredEvent[][] {
  const runs: StoredEvent[][] = [];
  for (const e of page) {
    const last = runs[runs.length - 1];
    if (last && last[0].stream === e.stream && last[last.length - 1].revision + 1n === e.revision)
      last.push(e);
    else runs.push([e]);
  }
  return runs;
}
