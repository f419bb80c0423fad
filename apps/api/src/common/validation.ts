import { applyDecorators, ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { AppError } from '@app/fights';
import { ContractViolation } from '@app/rules';
import { assertStorable } from './body-checks';
import { BODY_MEDIA, bodyMediaOf, bodyMediaOfType, essenceOf } from './media-types';

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
      const [name, message] = Object.entries(e.constraints)[0];
      if (name === 'whitelistValidation')
        return [{ field, code: 'UNKNOWN_FIELD', message: unknown(field, prefix) }];
      return [
        {
          field,
          code: 'INVALID_FIELD',
          message: message.startsWith(`${e.property} `)
            ? `${field}${message.slice(e.property.length)}`
            : message.replace(/(each value in )\S+/, `$1${field}`),
        },
      ];
    }
    return e.children?.length
      ? problems(e.children, unknown, field, Array.isArray(e.value))
      : [{ field, code: 'INVALID_FIELD', message: `${field} is invalid` }];
  });
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
      throw new AppError(400, 'VALIDATION_FAILED', 'the body must be a JSON object', 'body');
    try {
      return await super.transform(value, metadata);
    } catch (e) {
      if (!(e instanceof RefusedInput)) throw e;
      if (body)
        throw new ContractViolation(
          problems(e.errors, (field, parent) => `${field} is not a field of ${parent || 'this body'}`),
        );
      throw new ValidationFailed(
        problems(
          e.errors,
          (field) => `${field} is not a ${metadata.type === 'query' ? 'query ' : ''}parameter of this route`,
        ),
      );
    }
  }
}

/** A handler may change what it is given: each gets its own copy of a judged empty query. */
const copyOf = (o: object): object =>
  Object.assign(Object.create(Object.getPrototypeOf(o) as object | null) as object, o);

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** class-validator on every DTO; unknown fields rejected; every problem named with its field. */
export const validationPipe = new EdgeValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: (errors) => new RefusedInput(errors),
});

/**
 * An integer query parameter: decimal digits only (no `1e19`, `0x10`, `1.5` or empty string, which
 * `Number()` would take), and within [min, max], max at most 2^53 - 1 so it is exact everywhere.
 */
export function QueryInt(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value,
    ),
    IsInt(),
    Min(min),
    Max(Math.min(max, Number.MAX_SAFE_INTEGER)),
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
    IsOptional(),
    IsString(),
    Length(1, 200),
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
  const header = String(req.headers['content-type'] ?? '');
  const accepted = bodyMediaOf(path);
  const media = bodyMediaOfType(header);
  if (media && accepted.includes(media)) return;
  const type = essenceOf(header);
  throw new AppError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `the body must be ${accepted.map((m) => BODY_MEDIA[m].name).join(' or ')}${type ? `, not ${type}` : ' (send Content-Type)'}`,
    'content-type',
  );
}
