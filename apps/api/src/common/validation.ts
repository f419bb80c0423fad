import { applyDecorators, ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { AppError } from '@app/fights';

/** One failing field of a request body or query, in the shape the command contract uses (ContractIssue). */
export interface ValidationIssue {
  field: string;
  code: 'UNKNOWN_FIELD' | 'INVALID_FIELD';
  message: string;
}

/** A refused DTO: `field` and the message name the first failing field, `issues` every one. */
export class ValidationFailed extends AppError {
  constructor(readonly issues: ValidationIssue[]) {
    super(400, 'VALIDATION_FAILED', issues[0]?.message ?? 'the input is invalid', issues[0]?.field);
  }
}

/** Every failing field, depth first, in class-validator's order (so `field` is the one it always named). */
function problems(errors: ValidationError[], prefix = ''): ValidationIssue[] {
  return errors.flatMap((e): ValidationIssue[] => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    if (e.constraints) {
      const [name, message] = Object.entries(e.constraints)[0];
      return [{ field, code: name === 'whitelistValidation' ? 'UNKNOWN_FIELD' : 'INVALID_FIELD', message }];
    }
    return e.children?.length ? problems(e.children, field) : [{ field, code: 'INVALID_FIELD', message: `${field} is invalid` }];
  });
}

/** Path parameters are strings no engine may choke on; then class-validator judges every DTO. */
class EdgeValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') assertStorable(value, metadata.data ?? 'path');
    return super.transform(value, metadata);
  }
}

/** class-validator on every DTO; unknown fields rejected; every problem named with its field. */
export const validationPipe = new EdgeValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: (errors) => new ValidationFailed(problems(errors)),
});

/**
 * An integer query parameter: decimal digits only (no `1e19`, `0x10`, `1.5` or empty string, which
 * `Number()` would take), and within [min, max], max at most 2^53 - 1 so it is exact everywhere.
 */
export function QueryInt(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value)),
    IsInt(),
    Min(min),
    Max(Math.min(max, Number.MAX_SAFE_INTEGER)),
  );
}

/** A boolean query parameter: exactly `true` or `false` (not `1`, `yes` or an empty string). */
export function QueryBool() {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean(),
  );
}

/** A list's opaque `?cursor=` (common/pagination.ts): what its last page's X-Next-Cursor said. */
export function QueryCursor() {
  return applyDecorators(
    ApiPropertyOptional({ description: 'The next page: X-Next-Cursor of the previous one (or follow its Link rel="next"); opaque.' }),
    IsOptional(),
    IsString(),
    Length(1, 200),
  );
}

/** Deepest JSON a request body may nest (objects and arrays): a command or a fight log needs about ten. */
export const MAX_BODY_DEPTH = 64;

/**
 * body-parser's `verify`: counts nesting on the raw bytes, outside strings, before anything parses or
 * walks the body, so JSON nested 20,000 deep is a 400 rather than a stack overflow in whatever recurses
 * over it first. UTF-8 (and any ASCII superset) is scanned as bytes; other charsets are decoded first.
 */
export function limitBodyDepth(_req: unknown, _res: unknown, buf: Buffer, encoding: string): void {
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
      if (++depth > MAX_BODY_DEPTH) throw new AppError(400, 'BODY_TOO_DEEP', `the request body nests deeper than ${MAX_BODY_DEPTH} levels`, 'body');
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** U+0000 and lone surrogates: PostgreSQL stores neither (text, jsonb), so no engine takes them. */
// eslint-disable-next-line no-control-regex -- U+0000 is what this pattern exists to find
export const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const unstorable = (field: string) => new AppError(400, 'INVALID_STRING', `${field} holds U+0000 or an unpaired UTF-16 surrogate, which no text field may hold`, field);

/** A field name as it goes into an error: the characters that made it unstorable escaped. */
// eslint-disable-next-line no-control-regex -- as UNSTORABLE: U+0000 is escaped on purpose
const printable = (key: string) => key.replace(/[\u0000\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const join = (prefix: string, key: string | number) => (typeof key === 'number' ? `${prefix}[${key}]` : prefix ? `${prefix}.${printable(key)}` : printable(key));

/** Throws INVALID_STRING naming the first string (value or key) in `value` that no engine can store. */
export function assertStorable(value: unknown, field: string): void {
  if (typeof value === 'string') {
    if (UNSTORABLE.test(value)) throw unstorable(field || 'body');
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => assertStorable(v, join(field, i)));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const at = join(field, k);
      if (UNSTORABLE.test(k)) throw unstorable(at);
      assertStorable(v, at);
    }
  }
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

/**
 * The same input gets the same answer on every engine: strings SQLite would keep and PostgreSQL
 * refuse are refused here, in every parsed body (JSON or NDJSON text) and query string. Path
 * parameters are checked by `validationPipe`, which knows their names.
 */
export function refuseUnstorableStrings(req: { path: string; body?: unknown; query?: unknown }, _res: unknown, next: (error?: unknown) => void): void {
  try {
    assertDecodablePath(req.path);
    assertStorable(req.query, '');
    assertStorable(req.body, '');
    next();
  } catch (error) {
    next(error);
  }
}

/** Media types each route's body may have: JSON everywhere, and NDJSON for a fight log to verify. */
const BODY_TYPES: Record<string, string[]> = { '/audit/verify': ['application/json', '+json', 'application/x-ndjson'] };
const JSON_TYPES = ['application/json', '+json'];

/**
 * RFC 9110 section 15.5.16: a body in a media type the route does not take is 415
 * UNSUPPORTED_MEDIA_TYPE, not a VALIDATION_FAILED about fields the parser never saw. A request
 * without a body (no Content-Length or 0, no Transfer-Encoding) needs no Content-Type. GraphQL
 * answers for its own transport.
 */
export function requireJsonBody(req: { method: string; path: string; originalUrl?: string; headers: Record<string, string | string[] | undefined> }, _res: unknown, next: (error?: unknown) => void): void {
  const length = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  const path = (req.originalUrl ?? req.path).split('?')[0];
  if (!hasBody || req.method === 'GET' || req.method === 'HEAD' || path === '/graphql') return next();
  const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const accepted = BODY_TYPES[path] ?? JSON_TYPES;
  if (accepted.some((t) => (t.startsWith('+') ? type.endsWith(t) : type === t))) return next();
  next(new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `the body must be ${accepted.filter((t) => !t.startsWith('+')).join(' or ')}${type ? `, not ${type}` : ' (send Content-Type)'}`, 'content-type'));
}
