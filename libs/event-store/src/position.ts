import type { StoredEvent } from './port';

/** The row shape shared by the memory and SQLite engines, whose checkpoint is the global position. */
export interface PositionRow {
  global_position: number;
  stream_id: string;
  stream_revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  stored_at: string;
}

export function fromPositionRow(row: PositionRow): StoredEvent {
  return {
    id: row.event_id,
    stream: row.stream_id,
    revision: BigInt(row.stream_revision),
    type: row.type,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    checkpoint: String(row.global_position),
    storedAt: row.stored_at,
  };
}

export function parsePosition(checkpoint: string | undefined): number {
  if (checkpoint === undefined) return 0;
  if (!/^\d{1,15}$/.test(checkpoint)) throw new RangeError(`invalid checkpoint "${checkpoint}"`);
  return Number(checkpoint);
}

/** -1 when absent: no limit, as SQLite's LIMIT -1. */
export function parseLimit(limit: number | undefined): number {
  if (limit === undefined) return -1;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`invalid limit ${limit}`);
  return limit;
}
