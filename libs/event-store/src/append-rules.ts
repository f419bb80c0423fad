import { DuplicateEventId, WrongExpectedRevision } from './port';
import type { AppendResult, ExpectedRevision, NewEvent, StoredEvent } from './port';

/** A new event as every engine stores it: lowercase UUID, data and metadata as JSON text. */
export interface PreparedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** PostgreSQL stores ids as `uuid`; the other engines check the same, so the contract holds everywhere. */
export function prepareEvents(events: NewEvent[]): PreparedEvent[] {
  const seen = new Set<string>();
  return events.map((e) => {
    const id = e.id.toLowerCase();
    if (!UUID.test(id)) throw new TypeError(`event id ${e.id} is not a UUID`);
    if (seen.has(id)) throw new DuplicateEventId(id);
    seen.add(id);
    if (!e.type) throw new TypeError(`event ${id} has no type`);
    return {
      id,
      type: e.type,
      data: JSON.stringify(e.data ?? null),
      metadata: JSON.stringify(e.metadata ?? {}),
    };
  });
}

export function revisionMatches(expected: ExpectedRevision, current: bigint | undefined): boolean {
  return expected === 'any' || (expected === 'no_stream' ? current === undefined : current === expected);
}

export function checkExpectedRevision(
  stream: string,
  expected: ExpectedRevision,
  current: bigint | undefined,
): void {
  if (!revisionMatches(expected, current))
    throw new WrongExpectedRevision(stream, expected, current ?? 'no_stream');
}

/**
 * Idempotency (docs/event-store.md): when every id is already stored, identical, in this stream at
 * consecutive revisions, the append is a retry and gets the original result. Any partial or
 * different match is a DuplicateEventId. No match at all returns undefined: a fresh append.
 */
export function replayedResult(
  stream: string,
  events: PreparedEvent[],
  existing: StoredEvent[],
): AppendResult | undefined {
  if (existing.length === 0) return undefined;
  const byId = new Map(existing.map((e) => [e.id, e]));
  const first = byId.get(events[0]?.id ?? '');
  const clash = events.find((p, i) => {
    const e = byId.get(p.id);
    return (
      !e || !first || e.stream !== stream || e.revision !== first.revision + BigInt(i) || !sameContent(e, p)
    );
  });
  if (!clash) {
    const stored = events.map((p) => byId.get(p.id) as StoredEvent);
    return { nextRevision: stored[stored.length - 1].revision, checkpoints: stored.map((e) => e.checkpoint) };
  }
  throw new DuplicateEventId(byId.has(clash.id) ? clash.id : existing[0].id);
}

function sameContent(stored: StoredEvent, event: PreparedEvent): boolean {
  return (
    stored.type === event.type &&
    canonicalJson(stored.data) === canonicalJson(JSON.parse(event.data)) &&
    canonicalJson(stored.metadata) === canonicalJson(JSON.parse(event.metadata))
  );
}

/**
 * Content compared with sorted keys: events an earlier version stored on PostgreSQL (jsonb) come back
 * with their members reordered, and a retry of such an event is still the same event.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
