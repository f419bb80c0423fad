import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { FightEvent } from './fight-event';

/** The hash before a fight's first event. */
export const GENESIS_HASH = '';

/** The audit hash chain: hash = sha256(previous hash + RFC 8785 canonical JSON of the event without its hash). */
export function eventHash(previous: string, event: Omit<FightEvent, 'hash'>): string {
  const { fightId, seq, type, v, at, actor, commandId, data } = event;
  // One-shot crypto.hash: half the cost of a Hash object per event.
  return hash(
    'sha256',
    previous + canonicalJson({ fightId, seq, type, v, at, actor, commandId, data }),
    'hex',
  );
}
