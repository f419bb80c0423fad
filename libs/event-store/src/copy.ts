import type { EventStore, StoredEvent } from './port';

export interface CopyReport {
  events: number;
  streams: number;
}

/**
 * Moves a whole log between engines (issue "Production": embedded → PostgreSQL is how
 * a table grows up): global order, event ids, types, data and metadata (so hashes) are
 * preserved. Consecutive events of one stream go in one append with the exact expected
 * revision, so a target that already holds part of the log is refused, and running the
 * copy again after an interruption resumes (identical appends are idempotent).
 */
export async function copyLog(from: EventStore, to: EventStore, onPage?: (copied: number) => void): Promise<CopyReport> {
  let after: string | undefined;
  let events = 0;
  const streams = new Set<string>();
  for (;;) {
    const page = await from.readAll({ after, limit: 1000 });
    if (page.length === 0) break;
    for (const run of runsByStream(page)) {
      const first = run[0].revision;
      await to.append(
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
    if (last && last[0].stream === e.stream && last[last.length - 1].revision + 1n === e.revision) last.push(e);
    else runs.push([e]);
  }
  return runs;
}
