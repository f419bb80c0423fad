import { configure } from 'safe-stable-stringify';

/**
 * RFC 8785 (JCS) canonical JSON, as the `canonicalize` package writes it: object keys sorted by UTF-16
 * code units, no whitespace, numbers as ECMAScript writes them, strings escaped as JSON.stringify does
 * (lone surrogates as `\udXXX`), undefined members left out and undefined array items `null`, `toJSON`
 * honoured. safe-stable-stringify writes the same text in half the time (one of it per event on every
 * command: the hash chain); `strict` makes what JSON cannot carry (NaN, Infinity, a function, a bigint)
 * an error, as `canonicalize` does, and a cycle is one too.
 */
const stringify = configure({ deterministic: true, strict: true, circularValue: Error, bigint: false });

/** The canonical JSON of a JSON value; undefined for undefined, as JSON.stringify. */
export function canonicalJson(value: unknown): string | undefined {
  return stringify(value);
}
