import { randomFillSync } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { NewEvent, StoredEvent } from '@app/event-store';

/** DESIGN.md "Events": the envelope every fight event carries. */
export interface FightEvent {
  fightId: string;
  /** 1-based position in the fight's stream. */
  seq: number;
  type: string;
  v: number;
  at: string;
  actor: string;
  commandId: string;
  data: Record<string, unknown>;
  /** sha256(previous hash + canonical JSON of this event without its hash): see hash-chain.ts. */
  hash: string;
}

export interface EventMetadata {
  fightId: string;
  v: number;
  at: string;
  actor: string;
  commandId: string;
  /** Dice draws (C5) used by the fight after this event's command. */
  drawsUsed: number;
  hash: string;
  /** On the first event of each command: the command as decided (type + fields). */
  command?: Record<string, unknown>;
  [key: string]: unknown;
}

export const FIGHT_STREAM_PREFIX = 'fight-';
export const fightStream = (fightId: string) => `${FIGHT_STREAM_PREFIX}${fightId}`;
/** The dice seed lives in its own stream, never in the fight's, until FightEnded reveals it. */
export const secretStream = (fightId: string) => `secret-fight-${fightId}`;

export function toFightEvent(e: StoredEvent): FightEvent {
  const m = e.metadata as EventMetadata;
  return {
    fightId: m.fightId,
    seq: Number(e.revision) + 1,
    type: e.type,
    v: m.v ?? 1,
    at: m.at,
    actor: m.actor,
    commandId: m.commandId,
    data: e.data as Record<string, unknown>,
    hash: m.hash,
  };
}

/** One event as the log carries it for audit: the envelope plus what deciding its command again needs. */
export interface LogEntry extends FightEvent {
  /** Dice draws (C5) used by the fight after this event's command. */
  drawsUsed: number;
  /** On the first event of each command only: the command as decided, without `revealedSeed`. */
  command?: Record<string, unknown>;
}

/** A stored fight event with its metadata, as the export carries it. */
export function toLogEntry(stored: StoredEvent): LogEntry {
  const m = stored.metadata as EventMetadata;
  const entry: LogEntry = { ...toFightEvent(stored), drawsUsed: m.drawsUsed };
  if (m.command) entry.command = m.command;
  return entry;
}

/** The envelope alone (what clients and subscribers see): an entry without its audit fields. */
export function envelopeOf(entry: LogEntry): FightEvent {
  const { drawsUsed: _draws, command: _command, ...event } = entry;
  return event;
}

/** Random bytes for event ids, drawn 4 KiB at a time: uuid's own draw is a getRandomValues call per id, ~5 µs. */
const RANDOM = new Uint8Array(4096);
let drawn = RANDOM.length;

function random16(): Uint8Array {
  if (drawn === RANDOM.length) {
    randomFillSync(RANDOM);
    drawn = 0;
  }
  return RANDOM.subarray(drawn, (drawn += 16));
}

/** A new event id: a UUIDv7 (RFC 9562), the millisecond first, then random bits (see toNewEvent). */
export function newEventId(): string {
  return uuidv7({ random: random16() });
}

/**
 * An entry as the store keeps it: the envelope in the metadata, with what else rides along (tenant, request id).
 * Its id is a UUIDv7 (RFC 9562: the millisecond first, then random bits), so the stores' unique index on event
 * ids grows at its end: a random UUIDv4 dirtied one index page per event, most of what an append wrote to
 * SQLite's WAL.
 */
export function toNewEvent(entry: LogEntry, extra: { tenantId?: string; requestId?: string } = {}): NewEvent {
  const { fightId, v, at, actor, commandId, drawsUsed, hash, command } = entry;
  const metadata: EventMetadata = { fightId, v, at, actor, commandId, drawsUsed, hash };
  if (command) metadata.command = command;
  if (extra.tenantId) metadata.tenantId = extra.tenantId;
  if (extra.requestId) metadata.requestId = extra.requestId;
  return { id: newEventId(), type: entry.type, data: entry.data, metadata };
}
