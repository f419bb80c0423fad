import { randomUUID } from 'node:crypto';
import type { JSONEventData, KurrentDBClient } from '@kurrent/kurrentdb-client';
import type { PreparedEvent } from './append-rules';
import { contentDigest, isStreamNotFound, isWrongExpectedVersion } from './kurrentdb-codec';
import type { KurrentNames } from './kurrentdb-names';

const CLAIMED = 'EventIdClaimed';
const RELEASED = 'EventIdReleased';
/** Each retry follows a write by another append of the same id, so this only bounds a pathological race. */
const MAX_ATTEMPTS = 20;

/** `shared`: taken over from an unfinished claim for the same stream and content, which may still store the event. */
export interface HeldClaim {
  kind: 'held';
  id: string;
  claimStream: string;
  revision: bigint;
  shared: boolean;
}

export type Claim = HeldClaim | { kind: 'stored'; id: string } | { kind: 'foreign'; id: string };

interface ClaimData {
  stream?: unknown;
  digest?: unknown;
}

/**
 * Event ids are unique across the whole log and a retry gets the first result (docs/event-store.md), but
 * KurrentDB deduplicates ids only within one stream and for writes in quick succession. So, before
 * the events are appended, each id is claimed in a stream of its own (`event-id-<id>`) with an
 * expected revision: KurrentDB's usual way to keep a key unique. A claim names the stream and the
 * content (digest) it is for; it stays once the event is stored, and is the index a retry finds.
 *
 * An append whose own claim was the first (`shared: false`) releases it when KurrentDB rejects the
 * append, so its ids are free again; the release expects the claim's revision, so it fails, and the
 * id stays claimed, when another append of the same event took the claim over meanwhile. A claim
 * taken over is never released (the append it was taken from may still land). A process that dies
 * between claim and append leaves its ids claimed for their stream and content: a retry of the
 * same append succeeds, any other use of those ids is a DuplicateEventId. Two appends of the same
 * events that pass their claims together are settled by the stream's expected revision (kurrentdb.ts
 * turns 'any' into an exact one); both land only if they expect different exact revisions and a
 * third append lands between them, which SQL engines refuse with a unique index KurrentDB lacks.
 */
export class EventIdClaims {
  constructor(
    private readonly client: KurrentDBClient,
    private readonly names: KurrentNames,
  ) {}

  async claim(stream: string, event: PreparedEvent, isStored: () => Promise<boolean>): Promise<Claim> {
    const claimStream = this.names.claim(event.id);
    const data = { stream, digest: contentDigest(event) };
    let state: 'no_stream' | bigint = 'no_stream';
    let shared = false;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      try {
        const written = await this.client.appendToStream(claimStream, claimEvent(CLAIMED, data), {
          streamState: state,
        });
        return { kind: 'held', id: event.id, claimStream, revision: written.nextExpectedRevision, shared };
      } catch (error) {
        if (!isWrongExpectedVersion(error)) throw error;
      }
      const last = await this.last(claimStream);
      state = last?.revision ?? 'no_stream';
      shared = last?.type === CLAIMED;
      if (!last || last.type === RELEASED) continue;
      const claimed = last.data as ClaimData;
      if (claimed.stream !== stream || claimed.digest !== data.digest)
        return { kind: 'foreign', id: event.id };
      if (await isStored()) return { kind: 'stored', id: event.id };
    }
    throw new Error(`event id ${event.id}: its claim stayed contended after ${MAX_ATTEMPTS} attempts`);
  }

  /** True when the claim is free again; false when another append took it over, or the release did not land. */
  async release(claim: HeldClaim): Promise<boolean> {
    if (claim.shared) return false;
    try {
      await this.client.appendToStream(claim.claimStream, claimEvent(RELEASED, {}), {
        streamState: claim.revision,
      });
      return true;
    } catch {
      return false;
    }
  }

  private async last(
    claimStream: string,
  ): Promise<{ revision: bigint; type: string; data: unknown } | undefined> {
    try {
      for await (const { event } of this.client.readStream(claimStream, {
        direction: 'backwards',
        fromRevision: 'end',
        maxCount: 1,
      })) {
        if (event) return { revision: event.revision, type: event.type, data: event.data };
      }
    } catch (error) {
      if (!isStreamNotFound(error)) throw error;
    }
    return undefined;
  }
}

function claimEvent(type: string, data: Record<string, string>): JSONEventData {
  return { id: randomUUID(), contentType: 'application/json', type, data, metadata: {} };
}
