import { TextDecoder } from 'node:util';
import {
  countMembers,
  firstDuplicateKey,
  joinKey,
  MAX_LOG_DEPTH,
  UNSTORABLE,
  type JsonKey,
} from '@app/audit';
import { AppError } from '@app/fights';

/*
 * The checks every request body goes through before a handler sees it: its charset, its depth, its
 * JSON, and strings no engine can store. Plain functions over bytes and values, without Fastify or
 * Nest, so that the verifier's worker thread (log-verifier.ts) reads a fight log exactly as the
 * request thread reads every other body.
 */

/** One decoder per charset label seen (a handful: the UTFs), not one per request. */
const DECODERS = new Map<string, TextDecoder>();

/** The decoder of a body's charset; a charset that is no UTF, or that is unknown, is a 415. */
export function decoderOf(charset: string): TextDecoder {
  const unsupported = () =>
    new AppError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `unsupported charset "${charset.toUpperCase()}"`,
      'content-type',
    );
  if (!charset.startsWith('utf-')) throw unsupported();
  let decoder = DECODERS.get(charset);
  if (!decoder) {
    try {
      decoder = new TextDecoder(charset, { fatal: true });
    } catch {
      throw unsupported();
    }
    // Labels come from clients: a few are kept, any others decoded with a decoder of their own.
    if (DECODERS.size < 16) DECODERS.set(charset, decoder);
  }
  return decoder;
}

/**
 * A body's text in its charset (checked by decoderOf first), its nesting limited before anything parses
 * it. Bytes that are not text in that charset (`\xff`, an overlong or a surrogate's UTF-8, a lone UTF-16
 * surrogate) are 400 INVALID_JSON naming `body`: JSON is Unicode text (RFC 8259), and a decoder that put
 * U+FFFD in their place changed the client's data without a word.
 */
export function decodeBody(body: Uint8Array, label: string): string {
  const charset = byteOrderOf(body, label);
  const decoder = decoderOf(charset);
  limitBodyDepth(body, charset);
  return decodeWith(decoder, body, charset);
}

/**
 * `utf-16` names no byte order, and WHATWG's decoder reads it as little-endian whatever the body says:
 * a big-endian body (its BOM FE FF, or none, as RFC 2781 prefers) became CJK characters and a 400. The
 * order is the BOM's; without one, JSON's own (RFC 4627 section 3: its first character is ASCII, so a
 * zero first byte is big-endian); else little-endian, as .NET's `Encoding.Unicode` sends it.
 */
export function byteOrderOf(body: Uint8Array, charset: string): string {
  if (charset !== 'utf-16' || body.length < 2) return charset;
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return body[0] === 0 && body[1] !== 0 ? 'utf-16be' : 'utf-16le';
}

function decodeWith(decoder: TextDecoder, body: Uint8Array, charset: string): string {
  try {
    return decoder.decode(body);
  } catch {
    throw new AppError(
      400,
      'INVALID_JSON',
      `the request body is not valid ${charset.toUpperCase()}: it holds bytes that are no character`,
      'body',
    );
  }
}

const invalidJson = () => new AppError(400, 'INVALID_JSON', 'the request body is not valid JSON', 'body');

/** A body that is JSON but no object or array (`"x"`, `42`, `null`): readable, but not what any route takes. */
export const NOT_AN_OBJECT = 'the body must be a JSON object';

/**
 * JSON text to its value, whatever it is; text that is no JSON is 400 INVALID_JSON. An empty body (or
 * one of white space) is no body, `undefined`, whatever its Content-Type says: every route answers it
 * as it answers a request without one.
 */
export function parseJsonValue(text: string): unknown {
  if (!/[^\s\uFEFF]/.test(text)) return undefined;
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    throw invalidJson();
  }
}

/**
 * A JSON body's bytes to its value, read in this order: its charset (415), its depth (BODY_TOO_DEEP),
 * its bytes as text and its JSON (INVALID_JSON), each member name once per object (DUPLICATE_KEY,
 * refuseDuplicateKeys). `graphql` names a duplicate in GraphQL's `variables` as BAD_USER_INPUT names
 * a variable.
 */
export function readJsonBody(bytes: Uint8Array, label: string, graphql = false): unknown {
  const charset = byteOrderOf(bytes, label);
  const decoder = decoderOf(charset);
  const members = limitBodyDepth(bytes, charset);
  const text = decodeWith(decoder, bytes, charset);
  const value = parseJsonValue(text);
  refuseDuplicateKeys(text, value, members, graphql);
  if (graphql && typeof value === 'object' && value !== null) GRAPHQL_TEXTS.set(value, text);
  return value;
}

/** Each GraphQL body's text, by its parsed value: kept, not read, until a resolver asks (jsonTextOf). */
const GRAPHQL_TEXTS = new WeakMap<object, string>();

/**
 * The text a GraphQL request body was parsed from. Its value hides how a number was written
 * (`4.0000000000000001` and `4e0` are 4): a fight log sent as a variable is read for them off this text.
 */
export function jsonTextOf(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null ? GRAPHQL_TEXTS.get(body) : undefined;
}

/**
 * GET /graphql's `variables` or `extensions` (JSON text in the query string) checked as that member of a
 * POST /graphql body is, by the same steps: its depth counted inside the body it would be in
 * (BODY_TOO_DEEP), each member name once (DUPLICATE_KEY, a variable named as BAD_USER_INPUT names it),
 * then its strings (INVALID_STRING), each refusal with the field POST's gives. Text that is no JSON is
 * passed over: GraphQL over HTTP refuses it, naming the parameter.
 */
export function checkGraphqlSearchParameter(name: 'variables' | 'extensions', text: string): void {
  const body = `{"${name}":${text}}`;
  const members = limitBodyDepth(body);
  let value: Record<string, unknown>;
  try {
    value = { [name]: JSON.parse(text) as unknown };
  } catch {
    return;
  }
  refuseDuplicateKeys(body, value, members, true);
  refuseUnstorableStrings({ url: '/graphql', body: value });
}

/**
 * A JSON body as a route reads it (readJsonBody): an object or an array at the top, or no body at all.
 * A JSON scalar (`"AddNote"`, `42`, `null`, `true`) is 400 VALIDATION_FAILED naming `body`, as an array
 * is where a route wants an object.
 */
export function readJsonObject(bytes: Uint8Array, charset: string, graphql = false): unknown {
  const value = readJsonBody(bytes, charset, graphql);
  if (value !== undefined && (typeof value !== 'object' || value === null))
    throw new AppError(400, 'VALIDATION_FAILED', NOT_AN_OBJECT, 'body');
  return value;
}

/** Object members in a parsed value: each object's own keys, all the way down (at most MAX_BODY_DEPTH). */
function membersOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) n += membersOf(v);
    return n;
  }
  for (const k in value) n += 1 + membersOf((value as Record<string, unknown>)[k]);
  return n;
}

/**
 * I-JSON (RFC 7493 section 2.3): "Objects in I-JSON messages MUST NOT have members with names that
 * are not unique". RFC 8259 leaves duplicates to the receiver, and JSON.parse keeps the last, so
 * `{"commandId":"a","commandId":"b"}` was taken as "b" without a word. A body holds a duplicate when
 * its text has more members (`members`: its `:` outside strings, counted with its depth) than its
 * value has keys: one walk of the value, and the text is walked again (firstDuplicateKey, as the
 * CLI reads a log) only when it holds one, to name the first: 400 DUPLICATE_KEY, `field` its path
 * (`combatants[0].name`).
 */
function refuseDuplicateKeys(text: string, value: unknown, members: number, graphql: boolean): void {
  if (membersOf(value) === members) return;
  const path = firstDuplicateKey(text);
  if (!path) return;
  // A GraphQL variable is named as BAD_USER_INPUT names it: `input.combatants[0].name`, not `variables.input…`.
  const named = graphql && path.length > 1 && path[0] === 'variables' ? path.slice(1) : path;
  throw duplicateKey(fieldOf(named));
}

const fieldOf = (path: JsonKey[]) => path.reduce<string>((prefix, key) => join(prefix, key), '');

const duplicateKey = (field: string, line?: number) =>
  new AppError(
    400,
    'DUPLICATE_KEY',
    `${line === undefined ? '' : `line ${line}: `}${field} is sent more than once in its object; a member name may appear once (RFC 7493)`,
    field,
  );

/**
 * The path of the first duplicate member in a JSON message (a graphql-ws message), or undefined when
 * it has none or is no JSON (whoever parses it next says so) or nests past MAX_BODY_DEPTH.
 */
export function duplicateKeyIn(text: string): string | undefined {
  const members = countMembers(text, MAX_BODY_DEPTH);
  if (members === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  if (membersOf(value) === members) return undefined;
  const path = firstDuplicateKey(text);
  return path && fieldOf(path);
}

/**
 * Deepest JSON a request body may nest (objects and arrays): a command or a fight log needs about ten.
 * One limit with a fight log's (MAX_LOG_DEPTH): the CLI refuses the log POST /audit/verify refuses.
 */
export const MAX_BODY_DEPTH = MAX_LOG_DEPTH;

/**
 * Counts nesting on the raw bytes of a body, outside strings, before anything parses or walks the
 * body, so JSON nested 20,000 deep is a 400 rather than a stack overflow in whatever recurses over it
 * first. UTF-8 (and any ASCII superset) is scanned as bytes; other charsets are decoded first; text is
 * scanned as it is. Returns the object members it holds (countMembers), for refuseDuplicateKeys:
 * counted in the same pass, they cost one comparison a byte.
 */
export function limitBodyDepth(input: Uint8Array | string, encoding = 'utf-8'): number {
  const scanned =
    typeof input === 'string' || !encoding || /^utf-?8$/i.test(encoding)
      ? input
      : new TextDecoder(encoding).decode(input);
  const members = countMembers(scanned, MAX_BODY_DEPTH);
  if (members === undefined)
    throw new AppError(
      400,
      'BODY_TOO_DEEP',
      `the request body nests deeper than ${MAX_BODY_DEPTH} levels`,
      'body',
    );
  return members;
}

export { UNSTORABLE };

const unstorable = (field: string, line?: number) =>
  new AppError(
    400,
    'INVALID_STRING',
    `${line === undefined ? '' : `line ${line}: `}${field} holds U+0000 or an unpaired UTF-16 surrogate, which no text field may hold`,
    field,
  );

// eslint-disable-next-line no-control-regex -- as UNSTORABLE: U+0000 is escaped on purpose
const UNPRINTABLE = /[\u0000\ud800-\udfff]/g;
/** A field name as it goes into an error: the characters that made it unstorable escaped. */
const printable = (key: string) =>
  key.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const join = (prefix: string, key: JsonKey) =>
  joinKey(prefix, typeof key === 'number' ? key : printable(key));

/**
 * Throws INVALID_STRING naming the first string (value or key) in `value` that no engine can store.
 * The walk builds no field paths: only a value that holds such a string is walked again for its name.
 */
export function assertStorable(value: unknown, field: string): void {
  if (storable(value)) return;
  const at = firstUnstorable(value, field);
  throw unstorable(at || 'body');
}

function storable(value: unknown): boolean {
  if (typeof value === 'string') return !UNSTORABLE.test(value);
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) {
    for (const v of value) if (!storable(v)) return false;
    return true;
  }
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    if (UNSTORABLE.test(k) || !storable((value as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** The path of the first unstorable string in `value` (known to hold one), as the error names it. */
function firstUnstorable(value: unknown, field: string): string {
  if (Array.isArray(value)) {
    const i = value.findIndex((v) => !storable(v));
    return firstUnstorable(value[i], join(field, i));
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (UNSTORABLE.test(k)) return join(field, k);
      if (!storable(v)) return firstUnstorable(v, join(field, k));
    }
  }
  return field;
}

/** Percent-escapes that are not UTF-8 (`%ED%A0%80`, a lone surrogate's bytes) cannot become a parameter at all. */
function assertDecodablePath(path: string): void {
  if (!path.includes('%')) return;
  try {
    decodeURIComponent(path);
  } catch {
    throw new AppError(400, 'INVALID_STRING', 'the path holds percent-escapes that are not UTF-8', 'path');
  }
}

/** A query string's name or value decoded as the parser does (`+` a space), or undefined when its escapes are not UTF-8. */
function decodedQueryPart(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * The query parser keeps an escape it cannot decode (`%ZZ`, `%ED%A0%80`, a lone surrogate's bytes) as
 * text, so `?system=%ZZ` was a filter that matched nothing: a parameter that cannot be read is a 400
 * naming it (a name that cannot be read named as it came). Only a query string with a `%` is looked at.
 */
function assertDecodableQuery(url: string): void {
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return;
  for (const pair of url.slice(start + 1).split('&')) {
    if (!pair.includes('%')) continue;
    const eq = pair.indexOf('=');
    const raw = eq < 0 ? pair : pair.slice(0, eq);
    const name = decodedQueryPart(raw);
    const readable = name !== undefined && (eq < 0 || decodedQueryPart(pair.slice(eq + 1)) !== undefined);
    if (!readable) {
      const field = name === undefined ? raw : printable(name);
      throw new AppError(400, 'VALIDATION_FAILED', `${field} is not valid percent-encoded UTF-8`, field);
    }
  }
}

/**
 * The same input gets the same answer on every engine: strings SQLite would keep and PostgreSQL
 * refuse are refused here, in every parsed body (JSON or NDJSON text) and query string. Path
 * parameters are checked by `validationPipe`, which knows their names.
 */
export function refuseUnstorableStrings(req: { url: string; body?: unknown; query?: unknown }): void {
  // Checked where the body is read, in this same order (readPostedLog).
  if (req.body instanceof UnreadBody) return;
  const path = req.url.split('?')[0];
  assertDecodablePath(path);
  assertDecodableQuery(req.url);
  assertStorable(req.query, '');
  const body = req.body;
  if (path === '/graphql' && typeof body === 'object' && body !== null && !Array.isArray(body)) {
    // A GraphQL variable is named as BAD_USER_INPUT names it: `input.combatants[0].name`, not `variables.input…`.
    const { variables, ...rest } = body as Record<string, unknown>;
    assertStorable(rest, '');
    assertStorable(variables, '');
  } else assertStorable(body, '');
}

/**
 * A fight log posted to POST /audit/verify as it came in: its bytes, charset (checked) and media type,
 * not yet decoded, depth-checked or parsed. A log runs to megabytes, and reading it took tens of
 * milliseconds on the request thread; the verifier reads it on its worker with readPostedLog.
 */
export class UnreadBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly charset: string,
    readonly media: 'json' | 'ndjson',
  ) {}
}

/** A posted log's request: its body as it came in (an UnreadBody's fields), its URL and its parsed query string. */
export interface PostedLog {
  body: Pick<UnreadBody, 'bytes' | 'charset' | 'media'>;
  url: string;
  query: Record<string, unknown>;
}

/**
 * A posted log's body read as every other body is, with the same errors in the same order: its
 * depth (BODY_TOO_DEEP), its JSON (INVALID_JSON; NDJSON stays text), then the path, the query and the
 * body's strings (INVALID_STRING).
 */
export function readPostedLog(posted: PostedLog): unknown {
  const { bytes, charset, media } = posted.body;
  // A JSON scalar is no log: refused as an array is, after the query (logTextOf).
  const body = media === 'json' ? readJsonBody(bytes, charset) : decodeBody(bytes, charset);
  if (typeof body === 'string') refuseDuplicateLines(body);
  refuseUnstorableStrings({ url: posted.url, query: posted.query, body });
  if (typeof body === 'string') refuseUnstorableLines(body);
  return body;
}

/**
 * An NDJSON log's strings as its parser reads them: the text itself was checked, but an escape
 * (`\u0000`, a lone `\ud800`) is one such character once parsed, and was taken where the same log as a
 * JSON document is refused. Named as refuseDuplicateLines names a line's field: `line N: ` in the
 * message, the path as the JSON document would hold it in `field`.
 */
function refuseUnstorableLines(text: string): void {
  // Only an escape can hide one: without `\u` the parsed strings are the text's, already checked.
  if (!text.includes('\\u')) return;
  try {
    return assertStorable(JSON.parse(text), '');
  } catch (e) {
    if (e instanceof AppError) throw e;
  }
  const lines = text.split(/\r?\n/);
  let entry = -1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const prefix = entry < 0 ? '' : `entries[${entry}]`;
    entry++;
    let value: unknown;
    try {
      value = JSON.parse(lines[i]);
    } catch {
      continue; // No JSON: the log's parser names the line.
    }
    if (!storable(value)) throw unstorable(firstUnstorable(value, prefix) || 'body', i + 1);
  }
}

/**
 * An NDJSON log's lines each hold their member names once (refuseDuplicateKeys), read as the log's
 * parser reads them: the whole text as one document if it is one, else line by line. A line that is
 * no JSON is left to the log's parser, which names it; a duplicate is named as that parser names a
 * line's field: `line N: ` in the message, and in `field` its path as the JSON document would hold it
 * (`entries[0].x` for the line after the header).
 */
function refuseDuplicateLines(text: string): void {
  const whole = duplicateKeyIn(text);
  if (whole !== undefined) throw duplicateKey(whole);
  const lines = text.split(/\r?\n/);
  // The first line that is not blank is the header; each one after it is entries[k], as the log's parser names it.
  let entry = -1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const field = lines[i].includes(':') ? duplicateKeyIn(lines[i]) : undefined;
    if (field !== undefined) throw duplicateKey(entry < 0 ? field : join(`entries[${entry}]`, field), i + 1);
    entry++;
  }
}
