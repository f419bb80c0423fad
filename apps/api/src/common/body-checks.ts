import { TextDecoder } from 'node:util';
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
export function decodeBody(body: Uint8Array, charset: string): string {
  const decoder = decoderOf(charset);
  limitBodyDepth(body, charset);
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

const invalidJson = () => new AppError(400, 'INVALID_JSON', 'the request body is not valid JSON');

/** A body that is JSON but no object or array (`"x"`, `42`, `null`): readable, but not what any route takes. */
export const NOT_AN_OBJECT = 'the body must be a JSON object';

/** JSON text to its value, whatever it is (an empty body is `{}`); text that is no JSON is 400 INVALID_JSON. */
export function parseJsonValue(text: string): unknown {
  if (!/[^\s\uFEFF]/.test(text)) return {};
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    throw invalidJson();
  }
}

/**
 * JSON text to its value: an object or an array at the top (an empty body is `{}`). A JSON scalar
 * (`"AddNote"`, `42`, `null`, `true`) is 400 VALIDATION_FAILED naming `body`, as an array is where a
 * route wants an object; text that is no JSON is 400 INVALID_JSON.
 */
export function parseJsonText(text: string): unknown {
  const value = parseJsonValue(text);
  if (typeof value !== 'object' || value === null)
    throw new AppError(400, 'VALIDATION_FAILED', NOT_AN_OBJECT, 'body');
  return value;
}

/** Deepest JSON a request body may nest (objects and arrays): a command or a fight log needs about ten. */
export const MAX_BODY_DEPTH = 64;

/**
 * Counts nesting on the raw bytes of a body, outside strings, before anything parses or
 * walks the body, so JSON nested 20,000 deep is a 400 rather than a stack overflow in whatever recurses
 * over it first. UTF-8 (and any ASCII superset) is scanned as bytes; other charsets are decoded first.
 */
export function limitBodyDepth(buf: Uint8Array, encoding: string): void {
  const utf8 = !encoding || /^utf-?8$/i.test(encoding);
  const text = utf8 ? undefined : new TextDecoder(encoding).decode(buf);
  const length = text === undefined ? buf.length : text.length;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < length; i++) {
    const c = text === undefined ? buf[i] : text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_BODY_DEPTH)
        throw new AppError(
          400,
          'BODY_TOO_DEEP',
          `the request body nests deeper than ${MAX_BODY_DEPTH} levels`,
          'body',
        );
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** U+0000 and lone surrogates: PostgreSQL stores neither (text, jsonb), so no engine takes them. */
// eslint-disable-next-line no-control-regex -- U+0000 is what this pattern exists to find
export const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const unstorable = (field: string) =>
  new AppError(
    400,
    'INVALID_STRING',
    `${field} holds U+0000 or an unpaired UTF-16 surrogate, which no text field may hold`,
    field,
  );

// eslint-disable-next-line no-control-regex -- as UNSTORABLE: U+0000 is escaped on purpose
const UNPRINTABLE = /[\u0000\ud800-\udfff]/g;
/** A field name as it goes into an error: the characters that made it unstorable escaped. */
const printable = (key: string) =>
  key.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const join = (prefix: string, key: string | number) =>
  typeof key === 'number' ? `${prefix}[${key}]` : prefix ? `${prefix}.${printable(key)}` : printable(key);

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
  const text = decodeBody(bytes, charset);
  // A JSON scalar is no log: refused as an array is, after the query (logTextOf).
  const body = media === 'json' ? parseJsonValue(text) : text;
  refuseUnstorableStrings({ url: posted.url, query: posted.query, body });
  return body;
}
