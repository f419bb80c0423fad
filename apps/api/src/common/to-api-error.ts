import { HttpException } from '@nestjs/common';
import { isConnectionError, StoreFault, storeFault, WrongExpectedRevision } from '@app/event-store';
import { AppError } from '@app/fights';
import { ContractViolation, RuleViolation } from '@app/rules';
import { ApiError } from './api-error';
import { ValidationFailed } from './validation';

const HTTP_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Maps anything thrown to the public error shape; unknown errors never leak their message or stack. */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ContractViolation)
    return { statusCode: 422, code: e.code, message: e.message, field: e.field, issues: e.issues };
  if (e instanceof RuleViolation)
    return { statusCode: 422, code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) };
  if (e instanceof ValidationFailed)
    return {
      statusCode: 400,
      code: e.code,
      message: e.message,
      // A query parameter with an empty name (`?=1`) is named as sent: "".
      ...(e.field !== undefined ? { field: e.field } : {}),
      issues: e.issues,
    };
  if (e instanceof AppError)
    return {
      statusCode: e.status,
      code: e.code,
      message: e.message,
      ...(e.field ? { field: e.field } : {}),
      ...issuesOf(e),
    };
  if (e instanceof WrongExpectedRevision)
    return {
      statusCode: 409,
      code: 'CONCURRENCY_CONFLICT',
      message: 'the fight changed while this command was decided; send it again',
    };
  const fastify = fromFastify(e instanceof HttpException ? e.cause : e);
  if (fastify) return fastify;
  if (e instanceof HttpException) {
    const status = e.getStatus();
    const body = e.getResponse() as { message?: unknown; code?: string; field?: string } | string;
    const message =
      typeof body === 'string'
        ? body
        : Array.isArray(body.message)
          ? body.message.join('; ')
          : typeof body.message === 'string'
            ? body.message
            : e.message;
    const code =
      typeof body === 'object' && body.code
        ? body.code
        : (HTTP_CODES[status] ?? (status >= 500 ? 'INTERNAL' : 'BAD_REQUEST'));
    return {
      statusCode: status,
      code,
      message,
      ...(typeof body === 'object' && body.field
        ? { field: body.field }
        : status === 404
          ? { field: 'path' } // Nest's "Cannot GET /nowhere": no route has the path
          : {}),
    };
  }
  const status =
    (e as { status?: unknown; statusCode?: unknown })?.status ?? (e as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return fromHttpLayer(e as { type?: string; message?: string }, status);
  // A command whose connection dropped may or may not have been applied: sending it again with its commandId is safe.
  if (isConnectionError(e))
    return {
      statusCode: 503,
      code: 'STORE_UNAVAILABLE',
      message: 'the database connection was lost; retry shortly (with the same commandId for a command)',
    };
  // The store's own state (a full disk, a read-only standby, a lock held too long): the request was sound.
  const fault = storeFault(e);
  if (fault)
    return {
      statusCode: 503,
      code: 'STORE_UNAVAILABLE',
      message: `${STORE_FAULTS[fault]}; retry shortly (with the same commandId for a command: it is never applied twice)`,
    };
  return { statusCode: 500, code: 'INTERNAL', message: 'internal error; it has been logged' };
}

const STORE_FAULTS: Record<StoreFault, string> = {
  full: 'the store is out of disk space',
  'read-only': 'the store cannot be written to now (read-only)',
  busy: 'the store is busy or out of resources',
  io: 'the store met an I/O error',
};

/**
 * What Fastify refuses before a route runs (Nest hands them over as HttpExceptions with the
 * Fastify error as their cause), in the words the service uses for the same refusals elsewhere.
 */
function fromFastify(cause: unknown): ApiError | undefined {
  const encoding = (cause as { contentEncoding?: unknown } | undefined)?.contentEncoding;
  if (typeof encoding === 'string')
    return {
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: `the body is not valid ${encoding} data`,
      field: 'content-encoding',
    };
  const code = (cause as { code?: unknown } | undefined)?.code;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        statusCode: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'the body must be application/json',
        field: 'content-type',
      };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { statusCode: 400, code: 'BAD_REQUEST', message: 'Content-Length does not match the body' };
    case 'FST_ERR_BAD_URL':
      return {
        statusCode: 400,
        code: 'INVALID_STRING',
        message: 'the path holds percent-escapes that are not UTF-8',
        field: 'path',
      };
    default:
      return undefined;
  }
}

/** Errors from the body parser and other HTTP middleware carry a status and a type. */
function fromHttpLayer(e: { type?: string; message?: string }, status: number): ApiError {
  if (e.type === 'entity.parse.failed')
    return { statusCode: 400, code: 'INVALID_JSON', message: 'the request body is not valid JSON' };
  if (e.type === 'entity.too.large')
    return { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large' };
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
    return { statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: e.message ?? 'unsupported encoding' };
  return {
    statusCode: status,
    code: HTTP_CODES[status] ?? 'BAD_REQUEST',
    message: e.message ?? 'bad request',
  };
}

/** The `issues` an AppError carries (a refused fight log's, logFormatRefusal), when it carries any. */
function issuesOf(e: AppError): { issues?: ApiError['issues'] } {
  const issues = (e as AppError & { issues?: unknown }).issues;
  return Array.isArray(issues) && issues.length > 0 ? { issues: issues as ApiError['issues'] } : {};
}
