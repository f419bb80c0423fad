import type { ApolloDriverConfig } from '@nestjs/apollo';
import Negotiator from 'negotiator';
import { Logger } from '@nestjs/common';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { QUERY_LIMITS, TOKEN_LIMIT_MESSAGE } from './query-limits';
import type { ApiError } from '../common/api-error';

/** An Apollo plugin as the Nest driver takes it (@apollo/server's own type comes in a CommonJS and an ESM copy). */
type Plugin = NonNullable<ApolloDriverConfig['plugins']>[number];

const logger = new Logger('GraphQL');

/** Apollo's codes for a request refused before execution: the client's fault, a 4xx. */
const REQUEST_ERRORS = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

/** The code of a BAD_REQUEST Apollo answers with another status than 400. */
const STATUS_CODES: Record<number, string> = { 405: 'METHOD_NOT_ALLOWED', 406: 'NOT_ACCEPTABLE' };

/** Extensions that are machinery, never part of the answer. */
const DROPPED = new Set(['stacktrace', 'originalError', 'exception', 'http']);

/**
 * Every GraphQL error gets the one error shape in `extensions` — `{ statusCode, code, message, field? }`,
 * as REST answers — whoever raised it: a resolver (through AllExceptionsFilter), our query limits
 * (which Apollo wraps as GRAPHQL_VALIDATION_FAILED: their own code comes back), graphql-js (parse,
 * validation, variable coercion) or Apollo itself (CSRF, a bad request). Anything else is a 500
 * that says nothing of its cause, which is logged.
 */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const extensions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(formatted.extensions ?? {}))
    if (!DROPPED.has(key)) extensions[key] = value;
  const own = ownError(error);
  if (own) Object.assign(extensions, own);
  let message = typeof extensions.message === 'string' ? extensions.message : formatted.message;
  if (typeof extensions.statusCode !== 'number') {
    const refusal = apolloRefusal(formatted, error);
    if (refusal) Object.assign(extensions, refusal);
    const code = typeof extensions.code === 'string' ? extensions.code : '';
    if (code === 'GRAPHQL_PARSE_FAILED' && TOKEN_LIMIT_MESSAGE.test(formatted.message)) {
      message = `the query has more than ${QUERY_LIMITS.maxTokens} tokens; send large inputs as variables`;
      Object.assign(extensions, { code: 'QUERY_TOO_LARGE', statusCode: 400 });
    } else if (code === 'GRAPHQL_PARSE_FAILED' && formatted.message === 'Maximum call stack size exceeded') {
      // Fewer tokens than the limit can still nest deeper than the parser's recursion allows ([[[[…).
      message = 'the query nests too deep to parse';
      Object.assign(extensions, { code: 'QUERY_TOO_DEEP', statusCode: 400 });
    } else if (REQUEST_ERRORS.has(code)) {
      extensions.statusCode = httpStatus(error) ?? 400;
      // Apollo says BAD_REQUEST of a GET that is no query (405) and of an Accept it cannot answer (406):
      // the code follows the status, as REST's does, and BAD_REQUEST stays a 400's.
      const named = code === 'BAD_REQUEST' ? STATUS_CODES[extensions.statusCode as number] : undefined;
      if (named) extensions.code = named;
      const field =
        code === 'BAD_USER_INPUT'
          ? variableField(formatted.message)
          : ((extensions.field as string | undefined) ?? requestField(formatted.message));
      if (field) extensions.field = field;
    } else {
      logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      message = 'internal error; it has been logged';
      Object.assign(extensions, { code: 'INTERNAL', statusCode: 500 });
    }
  }
  const { statusCode, code, field, ...rest } = extensions;
  return {
    message,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { ...rest, statusCode, code, message, ...(field !== undefined ? { field } : {}) },
  };
}

/**
 * Apollo refuses some malformed requests with a bare GraphQLError that carries only an HTTP status
 * (`extensions.http`) and no code, so its formatted code is INTERNAL_SERVER_ERROR: a persisted-query
 * extension of another version (or not an object) and a `sha256Hash` that is not the query's. They are
 * the client's fault: BAD_REQUEST with that status, naming the offending field.
 */
function apolloRefusal(
  formatted: GraphQLFormattedError,
  error: unknown,
): Record<string, unknown> | undefined {
  if (!(error instanceof GraphQLError) || error.extensions.code !== undefined) return undefined;
  if (httpStatus(error) === undefined) return undefined;
  const field = PERSISTED_QUERY_FIELDS.get(formatted.message);
  return { code: 'BAD_REQUEST', ...(field ? { field } : {}) };
}

/**
 * The member or header an Apollo refusal of the HTTP request is about, by its message (Apollo names it
 * only in the text): the header CSRF prevention asks for, `variables` that is no object, `operationName` that is no string, a `query`
 * missing or not a string, a search parameter sent twice or not JSON, a Content-Type or Accept it
 * does not take, a method it does not have.
 */
export function requestField(message: string): string | undefined {
  const member = /^`(variables|extensions|operationName|query)` in a POST body/.exec(message)?.[1];
  if (member) return member;
  const parameter = /^The '?([A-Za-z]+)'? search parameter/.exec(message)?.[1];
  if (parameter) return parameter;
  if (/^GraphQL (?:queries must be strings|operations must contain a non-empty `query`)/.test(message))
    return 'query';
  if (message.startsWith('POST body missing, invalid Content-Type, or JSON object has no keys'))
    return 'query';
  if (message.startsWith('GET requests may not have a content-type')) return 'content-type';
  // CSRF prevention: a GET (or a simple POST) without a preflight-forcing header.
  if (message.startsWith('This operation has been blocked as a potential Cross-Site Request Forgery'))
    return 'apollo-require-preflight';
  if (
    /^An 'accept' header was provided|^Apollo server received an operation that uses incremental/.test(
      message,
    )
  )
    return 'accept';
  if (/^Apollo Server supports only GET\/POST|^GET requests only support query operations/.test(message))
    return 'method';
  return undefined;
}

/** The field of Apollo's persisted-query refusals, by their message. */
const PERSISTED_QUERY_FIELDS = new Map([
  ['Unsupported persisted query version', 'extensions.persistedQuery.version'],
  ['provided sha does not match query', 'extensions.persistedQuery.sha256Hash'],
]);

/** Our refusals carry `statusCode`; Apollo's ValidationError keeps them as `originalError` under its own code. */
function ownError(error: unknown): Record<string, unknown> | undefined {
  const inner = error instanceof GraphQLError ? error.originalError : undefined;
  if (!(inner instanceof GraphQLError) || typeof inner.extensions.statusCode !== 'number') return undefined;
  const { code, statusCode, message, field } = inner.extensions;
  return { code, statusCode, message, ...(field !== undefined ? { field } : {}) };
}

function httpStatus(error: unknown): number | undefined {
  const status =
    error instanceof GraphQLError
      ? (error.extensions.http as { status?: unknown } | undefined)?.status
      : undefined;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/**
 * The variable (and the place inside it) a coercion error names: graphql-js says
 * `Variable "$input" got invalid value …` and, inside an input object, `… at "input.combatants[0]"`;
 * an unknown or missing input field is named in the message's tail.
 */
export function variableField(message: string): string | undefined {
  const variable = /^Variable "\$([_A-Za-z][_0-9A-Za-z]*)"/.exec(message)?.[1];
  if (!variable) return undefined;
  const at = / at "([^"]+)"; /.exec(message)?.[1] ?? variable;
  const named = /Field "([_A-Za-z][_0-9A-Za-z]*)" (?:is not defined by type|of required type)/.exec(
    message,
  )?.[1];
  return named ? `${at}.${named}` : at;
}

/** Refusals of the HTTP request itself (its parameters, CSRF, persisted queries), not of the GraphQL document in it. */
const HTTP_REQUEST_ERRORS = new Set([
  'BAD_REQUEST',
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

const JSON_TYPE = 'application/json';
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/**
 * The status line of a request refused before execution (no `data`), per the GraphQL-over-HTTP spec:
 *
 * - answered as application/graphql-response+json, it is the status the first error states
 *   (`extensions.statusCode`: 400 for a parse, validation or variable error), so the status line and
 *   the body never disagree and never say 500 for the client's mistake;
 * - answered as application/json (the legacy type: what a client that does not ask for the new one
 *   gets), a GraphQL request error (parse, validation, our query limits, variable coercion, an
 *   unknown operation) SHOULD be a 200, as every well-formed request is: only refusals of the HTTP
 *   request itself (no query, CSRF, …) keep their 4xx. The body says the same either way: its errors
 *   carry `statusCode` and `code`.
 *
 * The media type is chosen here, as Apollo would (the Accept header, application/json first when it
 * allows both equally), and set, so the status and the type always go together. With data, 200.
 */
export function statusFromErrorsPlugin(): Plugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single' || 'data' in response.body.singleResult) return;
          const first = response.body.singleResult.errors?.[0]?.extensions;
          const status = first?.statusCode;
          if (typeof status !== 'number' || status < 400 || status >= 600) return;
          const req = (contextValue as { req?: { headers?: Headers } })?.req;
          const type = responseTypeOf(req?.headers);
          if (type) response.http.headers.set('content-type', `${type}; charset=utf-8`);
          const legacy = type === JSON_TYPE && status < 500 && !HTTP_REQUEST_ERRORS.has(String(first?.code));
          response.http.status = legacy ? 200 : status;
        },
      };
    },
  };
}

type Headers = Record<string, string | string[] | undefined>;

/** The media type of a GraphQL answer, as Apollo chooses it: by Accept, application/json first when both are equal. */
function responseTypeOf(headers: Headers | undefined): string | undefined {
  const type = !headers?.accept
    ? JSON_TYPE
    : new Negotiator({ headers }).mediaType([JSON_TYPE, GRAPHQL_RESPONSE]);
  return type === JSON_TYPE || type === GRAPHQL_RESPONSE ? type : undefined;
}

/**
 * A request to /graphql refused before GraphQL reads it (a body too large, not JSON, too deep, with a
 * repeated member name, in a media type it does not take; a method it does not have): answered as
 * GraphQL clients read errors, `{ errors: [{ message, extensions }] }` with the one error shape in
 * `extensions`, as formatGraphqlError gives every other GraphQL error, and with the refusal's own
 * status (GraphQL-over-HTTP: a request that is not a well-formed GraphQL-over-HTTP request is a 4xx),
 * in the media type the client asked for (application/json unless it prefers the GraphQL one).
 */
export function graphqlTransportError(
  error: ApiError,
  headers: Headers,
): { type: string; body: { errors: GraphQLFormattedError[] } } {
  const { statusCode, code, message, field, issues } = error;
  const extensions = {
    statusCode,
    code,
    message,
    ...(field !== undefined ? { field } : {}),
    ...(issues ? { issues } : {}),
  };
  return {
    type: `${responseTypeOf(headers) ?? JSON_TYPE}; charset=utf-8`,
    body: { errors: [{ message, extensions }] },
  };
}
