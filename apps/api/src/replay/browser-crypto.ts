import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * What the hash chain asks of `node:crypto`, for the browser bundle of the verifier (build-replay.js puts
 * this module in its place): `hash('sha256', text, 'hex')`, text read as UTF-8 as Node reads a string. The
 * same digest, so the page computes the very hashes the service wrote.
 */
export function hash(algorithm: string, text: string, encoding: 'hex'): string {
  return createHash(algorithm).update(text).digest(encoding);
}

/** The same as a Hash object, for modules the bundle pulls in that hash in steps. */
export function createHash(algorithm: string) {
  if (algorithm !== 'sha256')
    throw new Error(`the browser verifier hashes with sha256 only, not ${algorithm}`);
  const hash = sha256.create();
  const api = {
    update(text: string) {
      hash.update(utf8ToBytes(text));
      return api;
    },
    digest(encoding: 'hex') {
      if (encoding !== 'hex') throw new Error('the browser verifier digests to hex only');
      return bytesToHex(hash.digest());
    },
  };
  return api;
}

/** Random bytes for new event ids: the verifier never makes one; here for modules it pulls in that import it. */
export function randomFillSync(bytes: Uint8Array): Uint8Array {
  return globalThis.crypto.getRandomValues(bytes);
}

/** Ids for new commands: as above. */
export function randomUUID(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (!c?.randomUUID) throw new Error('this browser gives no crypto.randomUUID');
  return c.randomUUID();
}
