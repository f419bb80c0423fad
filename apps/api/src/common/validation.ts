import {
  applyDecorators,
  ArgumentMetadata,
  Type as Class,
  ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { stripProtoKeys } from '@nestjs/common/utils/strip-proto-keys.util.js';
import { ClassTransformOptions, instanceToPlain, plainToInstance, Transform, Type } from 'class-transformer';
import {
  getMetadataStorage,
  IsBoolean,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { AppError, invalidField } from '@app/fights';
import { ContractViolation } from '@app/rules';
import { assertStorable, NOT_AN_OBJECT } from './body-checks';
import { BODY_MEDIA, bodyMediaOf, bodyMediaOfEssence, contentTypeOf } from './media-types';

/** One failing field of a request body or query, in the shape the command contract uses (ContractIssue). */
export interface ValidationIssue {
  field: string;
  code: 'UNKNOWN_FIELD' | 'INVALID_FIELD';
  message: string;
}

/**
 * A refused query or path parameter: the request cannot be read, 400. `field` and the message name the
 * first failing parameter, `issues` every one. A refused body is a ContractViolation instead (422).
 */
export class ValidationFailed extends AppError {
  constructor(readonly issues: ValidationIssue[]) {
    super(400, 'VALIDATION_FAILED', issues[0]?.message ?? 'the input is invalid', issues[0]?.field);
  }
}

/** How an undeclared body field is refused: by its path, and the object it was found in. */
export const unknownBodyField = (field: string, parent = '') =>
  `${field} is not a field of ${parent || 'this body'}`;

/** How an undeclared query parameter is refused. */
export const unknownQueryParameter = (field: string) =>
  field === ''
    ? 'a query parameter with an empty name (?=…) is not a query parameter of this route'
    : `${field} is not a query parameter of this route`;

/** `a.b[2].c`, as the command contract names fields (fieldPath): array items by index. */
const childPath = (prefix: string, property: string, inArray: boolean) =>
  inArray && /^\d+$/.test(property) ? `${prefix}[${property}]` : prefix ? `${prefix}.${property}` : property;

/**
 * Every failing field, depth first, in class-validator's order, each message naming the whole path
 * (`dice.mode must be…`, not `mode must be…`); an unknown field as the contract words it.
 */
function problems(
  errors: ValidationError[],
  unknown: (field: string, parent: string) => string,
  prefix = '',
  parentIsArray = false,
): ValidationIssue[] {
  return errors.flatMap((e): ValidationIssue[] => {
    const field = childPath(prefix, e.property, parentIsArray);
    if (e.constraints) {
      const [name, message] = firstConstraint(e.constraints);
      if (name === 'whitelistValidation')
        return [{ field, code: 'UNKNOWN_FIELD', message: unknown(field, prefix) }];
      const said = e.value === null ? nullMessage(e.constraints) : message;
      const item = said.startsWith('each value in ') ? failingItem(e, name) : undefined;
      if (item !== undefined) {
        const itemField = `${field}[${item}]`;
        return [
          {
            field: itemField,
            code: 'INVALID_FIELD',
            message: said.replace(/^each value in \S+/, itemField),
          },
        ];
      }
      return [
        {
          field,
          code: 'INVALID_FIELD',
          message: said.startsWith(`${e.property} `)
            ? `${field}${said.slice(e.property.length)}`
            : said.replace(/(each value in )\S+/, `$1${field}`),
        },
      ];
    }
    return e.children?.length
      ? problems(e.children, unknown, field, Array.isArray(e.value))
      : [{ field, code: 'INVALID_FIELD', message: `${field} is invalid` }];
  });
}

/**
 * The first item of an array refused by a check of each of its items (`{ each: true }`): class-validator
 * names only the array, so each item is judged alone, as the array's only item on an instance of the
 * same class with nothing else set, until one fails that check. Undefined when none can be told.
 */
function failingItem(e: ValidationError, constraint: string): number | undefined {
  const target: unknown = e.target;
  const value: unknown = e.value;
  if (!Array.isArray(value) || typeof target !== 'object' || target === null) return undefined;
  const proto = Object.getPrototypeOf(target) as object | null;
  for (let i = 0; i < value.length; i++) {
    const probe = Object.assign(Object.create(proto) as object, { [e.property]: [value[i]] });
    const refused = validateSync(probe, { skipMissingProperties: true }).find(
      (found) => found.property === e.property,
    );
    if (refused?.constraints?.[constraint] !== undefined) return i;
  }
  return undefined;
}

/** The checks of a value's type: when one fails, it is what the field is told (not its length's or range's). */
const TYPE_CHECKS = new Set(['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject']);

/**
 * The constraint a field is refused by: class-validator lists them in the reverse of the decorators'
 * order, so `@IsString() @Length(1, 200)` told a number it had the wrong length. An unknown field's
 * refusal comes first, then a failed type check, then the first other.
 */
function firstConstraint(constraints: Record<string, string>): [string, string] {
  const all = Object.entries(constraints);
  return (
    all.find(([name]) => name === 'whitelistValidation') ??
    all.find(([name]) => TYPE_CHECKS.has(name)) ??
    all[0]
  );
}

/** What a null field was to be (its own type's constraint, `is…`, before a range's or its items'), and that null is not it. */
function nullMessage(constraints: Record<string, string>): string {
  const all = Object.entries(constraints);
  const own = all.filter(([, message]) => !message.startsWith('each value in '));
  const [, message] = own.find(([name]) => /^is[A-Z]/.test(name)) ?? own[0] ?? all[0];
  return `${message}, not null`;
}

/** What class-validator found, before the pipe knows whether it judged a body or the query. */
class RefusedInput extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('refused input');
  }
}

/**
 * Query and path parameters that cannot be read are 400 VALIDATION_FAILED. A body (REST, or a GraphQL
 * mutation's input) that is JSON but not an object is 400 too; an object whose fields break its DTO is
 * 422 UNKNOWN_FIELD / INVALID_FIELD with every issue, unknown fields first: the answer the command
 * contract (libs/rules core/contract.ts) gives a command or a sheet.
 */
class EdgeValidationPipe extends ValidationPipe {
  /** Each query DTO as an empty query string gives it: the same every time, so judged once. */
  private readonly emptyQueries = new Map<unknown, object>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const empty = metadata.type === 'query' && isEmptyObject(value) ? metadata.metatype : undefined;
    const known = empty && this.emptyQueries.get(empty);
    if (known) return copyOf(known);
    const result = await this.judge(value, metadata);
    if (!empty || typeof result !== 'object' || result === null) return result;
    this.emptyQueries.set(empty, result);
    return copyOf(result);
  }

  private async judge(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') assertStorable(value, metadata.data ?? 'path');
    const body = metadata.type === 'body' && this.toValidate(metadata);
    if (body && value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value)))
      throw new AppError(400, 'VALIDATION_FAILED', NOT_AN_OBJECT, 'body');
    const unknown = body
      ? unknownBodyField
      : (field: string) =>
          metadata.type === 'query'
            ? unknownQueryParameter(field)
            : `${field} is not a parameter of this route`;
    const dto = metadata.metatype && this.toValidate(metadata) ? metadata.metatype : undefined;
    const unseen = dto ? takeInheritedNames(value, dto, '') : [];
    let errors: ValidationError[] = [];
    try {
      const result: unknown = await super.transform(value, metadata);
      if (unseen.length === 0) return result;
    } catch (e) {
      if (!(e instanceof RefusedInput)) throw e;
      errors = e.errors;
    }
    const issues = [
      ...unseen.map(([field, parent]): ValidationIssue => ({
        field,
        code: 'UNKNOWN_FIELD',
        message: unknown(field, parent),
      })),
      ...problems(errors, unknown).map((issue) =>
        metadata.type === 'query' ? repeatedParameter(issue, value) : issue,
      ),
    ];
    throw body ? new ContractViolation(issues) : new ValidationFailed(issues);
  }

  /**
   * Nest's pipe deletes `__proto__`, `constructor` and `prototype` keys, wherever they are, so a body
   * holding one was taken as if it did not: they stay, and are refused as the unknown fields they are
   * (takeInheritedNames), or reach the rules contract inside a sheet or a command's payload. A
   * `__proto__` key is plain data here (http-body.ts), never an object's prototype.
   */
  protected override stripProtoKeys(): void {}
}

/**
 * A query parameter sent more than once (`?limit=2&limit=3`) reaches the checks as a list: one that takes
 * a single value was refused for its type (`limit must be an integer number`), which says nothing of what
 * the caller did. It is told it was sent more than once, with the same field and code.
 */
function repeatedParameter(issue: ValidationIssue, query: unknown): ValidationIssue {
  const sent = (query as Record<string, unknown> | undefined)?.[issue.field];
  if (issue.code !== 'INVALID_FIELD' || !Array.isArray(sent)) return issue;
  return { ...issue, message: `${issue.field} is sent ${sent.length} times; it takes one value` };
}

/** A handler may change what it is given: each gets its own copy of a judged empty query. */
const copyOf = (o: object): object =>
  Object.assign(Object.create(Object.getPrototypeOf(o) as object | null) as object, o);

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** What a field's decorators mark it as, beyond class-validator's rules: a nested DTO, or JSON kept as sent. */
interface FieldMarks {
  /** NestedObject: the DTO class the field holds. */
  nested?: () => Class;
  /** AsSent: free-form JSON, set on the instance as it came. */
  asSent?: true;
}

/** The marks of each field, by the prototype of the class that declares the field. */
const MARKS = new WeakMap<object, Map<string, FieldMarks>>();

function mark(target: object, key: string | symbol, marks: FieldMarks): void {
  const fields = MARKS.get(target) ?? new Map<string, FieldMarks>();
  MARKS.set(target, fields.set(String(key), { ...fields.get(String(key)), ...marks }));
}

/** Each DTO's marked fields, its own and those it inherits (the nearest declaration wins), read once. */
const MARKED = new WeakMap<Class, Map<string, FieldMarks>>();

function marksOf(metatype: Class): Map<string, FieldMarks> {
  let marks = MARKED.get(metatype);
  if (!marks) {
    marks = new Map<string, FieldMarks>();
    for (let p: unknown = metatype.prototype; p; p = Object.getPrototypeOf(p))
      for (const [field, m] of MARKS.get(p) ?? []) if (!marks.has(field)) marks.set(field, m);
    MARKED.set(metatype, marks);
  }
  return marks;
}

/**
 * A field holding an object of the `type` DTO, validated as one. Only an object: class-validator's
 * ValidateNested also takes an array (each item validated as the DTO), so `dice: []` was no dice at all.
 */
export function NestedObject(type: () => Class): PropertyDecorator {
  return applyDecorators(IsObject(), ValidateNested(), Type(type), (target: object, key: string | symbol) =>
    mark(target, key, { nested: type }),
  );
}

/** The DTO classes a DTO's fields hold (NestedObject), its own and those it inherits. */
export function nestedTypesOf(metatype: Class): Class[] {
  return [...marksOf(metatype).values()].flatMap((m) => (m.nested ? [m.nested()] : []));
}

/** The fields each DTO declares: every property class-validator has a rule for. */
const FIELDS = new Map<Class, Set<string>>();

function fieldsOf(metatype: Class): Set<string> {
  let fields = FIELDS.get(metatype);
  if (!fields) {
    const rules = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
    fields = new Set(rules.map((r) => r.propertyName));
    FIELDS.set(metatype, fields);
  }
  return fields;
}

/**
 * The keys of a body or query, and of the DTOs nested in it, that the DTO does not declare and that name
 * something every object inherits (`constructor`, `toString`, `valueOf`, `__proto__`…), as
 * `[field, parent]`. class-transformer does not copy such a key onto the instance it builds (the
 * instance already "has" it), so class-validator's whitelist never saw them and they were dropped
 * unseen. They are taken off the value too: copied, a `__proto__` would become the instance's prototype.
 */
function takeInheritedNames(value: unknown, metatype: Class, prefix: string): Array<[string, string]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const fields = fieldsOf(metatype);
  const found: Array<[string, string]> = [];
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (fields.has(key) || !(key in metatype.prototype)) continue;
    found.push([childPath(prefix, key, false), prefix]);
    delete record[key];
  }
  for (const field of fields) {
    const type = marksOf(metatype).get(field)?.nested?.();
    const nested = type && Object.hasOwn(record, field) ? record[field] : undefined;
    if (!type || typeof nested !== 'object' || nested === null) continue;
    const path = childPath(prefix, field, false);
    if (Array.isArray(nested))
      nested.forEach((item, i) => found.push(...takeInheritedNames(item, type, `${path}[${i}]`)));
    else found.push(...takeInheritedNames(nested, type, path));
  }
  return found;
}

/**
 * An optional field: absent, or a valid value. class-validator's IsOptional also skips `null`, which
 * then reached the handlers as "absent" or as a value (`eventTypes: null` stored, the webhook worker
 * stopped); here a null is judged by the field's rules like any other value, and refused.
 */
export function Optional(): PropertyDecorator {
  return ValidateIf((_: object, value: unknown) => value !== undefined);
}

/**
 * A field of free-form JSON (sheets, a command's payload, options), kept as it came for whatever judges
 * it (the rules contract). class-transformer would copy it without the keys every object inherits a
 * member of (`toString`, `valueOf`…), and fails on an own `constructor` key (it takes it for the class
 * to build), so the rules contract, which refuses such keys, never saw them.
 */
export function AsSent(): PropertyDecorator {
  return (target: object, key: string | symbol) => mark(target, key, { asSent: true });
}

function sentOf(metatype: Class): string[] {
  return [...marksOf(metatype)].filter(([, m]) => m.asSent).map(([field]) => field);
}

/** class-transformer, but for the AsSent fields of the DTO judged, which are set on its instance as they came. */
const transformer: NonNullable<
  NonNullable<ConstructorParameters<typeof ValidationPipe>[0]>['transformerPackage']
> = {
  plainToInstance<T>(metatype: Class<T>, value: unknown, options?: ClassTransformOptions): T | T[] {
    const plain =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    const sent = plain ? sentOf(metatype).filter((field) => Object.hasOwn(plain, field)) : [];
    const rest: unknown = plain && sent.length > 0 ? { ...plain } : value;
    for (const field of sent) delete (rest as Record<string, unknown>)[field];
    // Inside a field that is no DTO and no AsSent JSON (`eventTypes: {"constructor": …}`), such keys are
    // only ever wrong: class-transformer would take an own `constructor` for the class to build and throw,
    // so they go, as Nest's pipe took them off everywhere (the field is refused for its type all the same).
    stripProtoKeys(rest);
    const entity = plainToInstance(metatype, rest, options);
    for (const field of sent) (entity as Record<string, unknown>)[field] = plain?.[field];
    return entity;
  },
  classToPlain: instanceToPlain,
};

/** class-validator on every DTO; unknown fields rejected; every problem named with its field. */
export const validationPipe = new EdgeValidationPipe({
  transformerPackage: transformer,
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: (errors) => new RefusedInput(errors),
  // Each error keeps its value and the object it is a field of: a path names an array's items `a[0]`
  // (the item a check of each item refused too: failingItem), and a null gets its own message.
  validationError: { target: true, value: true },
});

/**
 * GraphQL arguments judged as REST judges the same query parameters: by that route's query DTO, through the
 * same pipe, so each bound is declared once and refused alike (400 VALIDATION_FAILED naming the first, `issues`
 * every one, in the same words). An absent or null argument is left out, as a parameter the query string does
 * not name.
 */
export async function validArguments<T extends object>(
  dto: Class<T>,
  args: { [K in keyof T]?: unknown },
): Promise<T> {
  const given = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null));
  return (await validationPipe.transform(given, { type: 'query', metatype: dto })) as T;
}

/**
 * An integer query parameter: decimal digits only (no `1e19`, `0x10`, `1.5`, `-0` or empty string, which
 * `Number()` would take), and within [min, max], max at most 2^53 - 1 so it is exact everywhere. A minus
 * sign before digits is read, so that `-1` is refused by its bound, in the bound's words.
 */
export function QueryInt(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^(?:\d{1,16}|-0*[1-9]\d{0,15})$/.test(value) ? Number(value) : value,
    ),
    IsInt(),
    Min(min),
    Max(Math.min(max, Number.MAX_SAFE_INTEGER)),
  );
}

/**
 * A decimal query parameter: digits, then at most a point and digits (no `0x1`, `1e0`, `.5`, `1.`, ` 1`
 * or empty string, which `Number()` would take), within [min, max].
 */
export function QueryDecimal(min: number, max: number) {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^\d{1,6}(\.\d{1,6})?$/.test(value) ? Number(value) : value,
    ),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(min),
    Max(max),
  );
}

/** A boolean query parameter: exactly `true` or `false` (not `1`, `yes` or an empty string). */
export function QueryBool() {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      value === 'true' ? true : value === 'false' ? false : value,
    ),
    IsBoolean(),
  );
}

/** A list's opaque `?cursor=` (common/pagination.ts): what its last page's X-Next-Cursor said. */
export function QueryCursor() {
  return applyDecorators(
    ApiPropertyOptional({
      description:
        'The next page: X-Next-Cursor of the previous one (or follow its Link rel="next"); opaque.',
    }),
    Optional(),
    // No length bound: a cursor of any length no list gave out is INVALID_CURSOR (decodeCursor), as GraphQL's.
    IsString(),
  );
}

/** Headers a request may send once only: which one counts would be a guess (Node keeps the first). */
const ONCE_ONLY = ['host', 'content-type', 'authorization'];
const ONCE_ONLY_LENGTHS = new Set(ONCE_ONLY.map((name) => name.length));

/**
 * A request that sends Host, Content-Type or Authorization more than once is 400 BAD_REQUEST naming the
 * header (RFC 9112 section 3.2 for Host; RFC 9110 section 5.3 allows repeating only list-valued fields).
 * Node kept the first of each and dropped the rest unseen, so a proxy's added key, or a second media
 * type, was silently ignored. Only names of the right length are lowercased and compared.
 */
export function refuseRepeatedHeaders(rawHeaders: readonly string[]): void {
  let seen: string[] | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const raw = rawHeaders[i];
    if (!ONCE_ONLY_LENGTHS.has(raw.length)) continue;
    const name = raw.toLowerCase();
    if (!ONCE_ONLY.includes(name)) continue;
    if (seen?.includes(name))
      throw new AppError(400, 'BAD_REQUEST', `the ${raw} header is sent more than once`, name);
    (seen ??= []).push(name);
  }
}

/**
 * RFC 9112 section 6.1: a transfer coding the server does not understand is 501. Node decodes `chunked`
 * and passed any coding before it (`gzip, chunked`) on as if the body had none, so the coded bytes were
 * read as the body. Only `chunked` alone is taken (a body's own coding goes in Content-Encoding).
 */
export function refuseTransferCodings(headers: Record<string, string | string[] | undefined>): void {
  const coding = headers['transfer-encoding'];
  if (coding === undefined || (typeof coding === 'string' && coding.trim().toLowerCase() === 'chunked'))
    return;
  throw new AppError(
    501,
    'NOT_IMPLEMENTED',
    `the transfer coding "${String(coding)}" is not implemented: send the body chunked, or with Content-Length (compress it with Content-Encoding)`,
    'transfer-encoding',
  );
}

/**
 * RFC 9110 section 15.5.16: a body in a media type the route does not take is 415
 * UNSUPPORTED_MEDIA_TYPE, not a VALIDATION_FAILED about fields the parser never saw. A request
 * without a body (no Content-Length or 0, no Transfer-Encoding) needs no Content-Type. GraphQL
 * answers for its own transport.
 */
export function requireJsonBody(req: {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
}): void {
  const length = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  const path = req.url.split('?')[0];
  if (!hasBody || req.method === 'GET' || req.method === 'HEAD' || path === '/graphql') return;
  const header = req.headers['content-type'];
  const accepted = bodyMediaOf(path);
  const type = header === undefined || header === '' ? '' : contentTypeOf(String(header)).essence;
  const media = bodyMediaOfEssence(type);
  if (media && accepted.includes(media)) return;
  throw new AppError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `the body must be ${accepted.map((m) => BODY_MEDIA[m].name).join(' or ')}${type ? `, not ${type}` : ' (send Content-Type)'}`,
    'content-type',
  );
}

/** Methods whose request body has no defined semantics (RFC 9110 sections 9.3.1 and 9.3.2). */
const BODYLESS = new Set(['GET', 'HEAD']);

const bodyNotAllowed = (method: string) =>
  new AppError(
    400,
    'BODY_NOT_ALLOWED',
    `a ${method} request takes no body: send the input in the query string, or none`,
    'body',
  );

/**
 * Fastify `onRequest` hook: RFC 9110 gives a GET or HEAD body no meaning, and Fastify never read one, so
 * whatever came was silently ignored. A body of one byte or more is 400 BODY_NOT_ALLOWED naming `body`
 * (before the route reads anything, so its answer, an ETag or a 304, never depends on it); none, an empty
 * `Content-Length: 0` or a chunked body of no chunks is no body. A path no route has stays a 404. What is
 * refused is left to flow off the socket (Node discards an unread body).
 */
export function refuseBodylessBody(
  req: { method: string; is404: boolean; headers: Record<string, unknown>; raw: NodeJS.ReadableStream },
  _reply: unknown,
  done: (err?: Error) => void,
): void {
  if (!BODYLESS.has(req.method) || req.is404) return done();
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined)
    return done(length === undefined || length === '0' ? undefined : bodyNotAllowed(req.method));
  // Chunked: a body only if a chunk of data comes before the last, empty, one.
  const raw = req.raw;
  const settle = (err?: Error) => {
    raw.off('data', onData);
    raw.off('end', onEnd);
    raw.off('error', onEnd);
    done(err);
  };
  const onData = (chunk: Buffer) => {
    if (chunk.length > 0) settle(bodyNotAllowed(req.method));
  };
  const onEnd = () => settle();
  raw.on('data', onData);
  // `on`, not `once` ("Per-request listeners" in http-reply.ts): settle removes all three.
  raw.on('end', onEnd);
  raw.on('error', onEnd);
}

/**
 * A list's entry that repeats an earlier one is 422 INVALID_FIELD naming it (`combatantIds[2]`) and the
 * entry it repeats, not silently kept once. Checked entry by entry, so a caller that judges each entry
 * otherwise too keeps its order of refusals.
 */
export function refuseRepeat(list: readonly string[], i: number, field: string): void {
  const first = list.indexOf(list[i]);
  if (first < i)
    throw invalidField(`${field}[${i}]`, `${field}[${i}] repeats ${list[i]} (${field}[${first}])`);
}
