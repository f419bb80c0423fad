import { createHash } from 'node:crypto';
import { canonicalJson, type PreparedEvent } from './append-rules';
import { WrongExpectedRevision, type ExpectedRevision } from './port';

/** A position in KurrentDB's `$all`, as the client gives it; the log is ordered by commit, then prepare. */
export interface LogPosition {
  commit: bigint;
  prepare: bigint;
}

const U64_MAX = 2n ** 64n - 1n;

/**
 * Checkpoint `"<commit>/<prepare>"`, each 20 zero-padded digits: one spelling per position, and
 * string order is log order. Nothing in the service orders checkpoints today (they are compared
 * for equality, and '' means none), but a sortable form keeps that safe if something starts to.
 */
export function encodeCheckpoint(position: LogPosition): string {
  for (const part of [position.commit, position.prepare]) {
    if (part < 0n || part > U64_MAX) throw new RangeError(`KurrentDB position ${part} is out of range`);
  }
  return `${position.commit.toString().padStart(20, '0')}/${position.prepare.toString().padStart(20, '0')}`;
}

export function decodeCheckpoint(checkpoint: string): LogPosition {
  const match = /^(\d{20})\/(\d{20})$/.exec(checkpoint);
  const position = match && { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
  if (!position || position.commit > U64_MAX || position.prepare > U64_MAX)
    throw new RangeError(`invalid checkpoint "${checkpoint}"`);
  return position;
}

export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  return a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
}

/** The client's `streamState`; it sends a bigint as an unsigned stream position, so negatives are refused here. */
export function toStreamState(expected: ExpectedRevision): 'no_stream' | 'any' | bigint {
  if (typeof expected === 'bigint' && expected < 0n)
    throw new RangeError(`expected revision ${expected} is negative`);
  return expected;
}

interface ClientError {
  type?: unknown;
  name?: unknown;
  actualState?: unknown;
}

const errorOf = (error: unknown): ClientError => (typeof error === 'object' && error !== null ? error : {});

/** The client's WrongExpectedVersionError (its `type` is stable across the gRPC and Rust paths). */
export function isWrongExpectedVersion(error: unknown): boolean {
  return errorOf(error).type === 'wrong-expected-version';
}

export function isStreamNotFound(error: unknown): boolean {
  const e = errorOf(error);
  return e.type === 'stream-not-found' || e.name === 'StreamNotFoundError';
}

/** WrongExpectedVersionError → the port's WrongExpectedRevision; the legacy path reports "no stream" as -1. */
export function toWrongExpectedRevision(
  error: unknown,
  stream: string,
  expected: ExpectedRevision,
): WrongExpectedRevision {
  const actual = errorOf(error).actualState;
  return new WrongExpectedRevision(
    stream,
    expected,
    typeof actual === 'bigint' && actual >= 0n ? actual : 'no_stream',
  );
}

/** Type, data and metadata with sorted keys, hashed: what "the same event" means (append-rules.ts). */
export function contentDigest(event: PreparedEvent): string {
  const content = canonicalJson({
    type: event.type,
    data: JSON.parse(event.data) as unknown,
    metadata: JSON.parse(event.metadata) as unknown,
  });
  return createHash('sha256').update(content).digest('hex');
}
