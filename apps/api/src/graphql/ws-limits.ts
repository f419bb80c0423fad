import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
} from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { GraphQLModule } from '@nestjs/graphql';
import {
  checkDocument,
  checkVariables,
  QUERY_LIMITS,
  TOKEN_LIMIT_MESSAGE,
  undeclaredVariable,
} from './query-limits';
import { storableStrings, unstorableVariable } from './storable-strings.rule';
import { jsonLiterals } from './json-literals.rule';
import { variableField } from './graphql-errors';
import { unknownPayloadMember } from './envelope';
import {
  duplicateKeyIn,
  limitBodyDepth,
  MAX_BODY_DEPTH,
  refuseUnstorableStrings,
} from '../common/body-checks';
import type { ApiError } from '../common/api-error';
import { toApiError } from '../common/to-api-error';
import { AppError } from '@app/fights';
import { createHash } from 'node:crypto';
import { API_CONFIG } from '../fights.module';
import { byteLimit, type ApiConfig } from '../config';
import { refuseOnSocket } from '../common/http-reply';
import { SLOW_CONSUMER_LIMIT } from './frame-batcher';

/**
 * graphql-ws runs its own parse and validation, so documents sent over the WebSocket get the same
 * limits as POST /graphql here, before anything runs: the token bound while parsing, then depth, size
 * and input nesting in one linear pass, then the string rule, in the document and in its variables (POST
 * /graphql checks those with the request body). An over-limit subscription ends with an
 * `error` message carrying the one error shape in `extensions`.
 *
 * Then the rest of what POST /graphql refuses before running, with the same codes (400): a syntax error
 * (GRAPHQL_PARSE_FAILED: graphql-ws's own parse would throw, and it closes the whole socket with 4500,
 * ending the client's other subscriptions), graphql-js validation (GRAPHQL_VALIDATION_FAILED), no
 * operation for `operationName` (OPERATION_RESOLUTION_FAILURE) and variables that do not fit their
 * types (BAD_USER_INPUT naming the variable; graphql-js would answer them in a `next`). Each ends that
 * operation alone with an `error` message. What passes is handed to graphql-ws parsed and validated.
 */
export function wsLimits(schemaOf: () => GraphQLSchema | undefined) {
  return (
    ctx: { extra?: unknown; subscriptions?: Readonly<Record<string, unknown>> },
    id: string,
    payload: SubscribePayload,
  ): readonly GraphQLError[] | ExecutionArgs | void => {
    const screened = takeRefusal(ctx.extra, id);
    if (screened) return [screened];
    const crowded = operationLimitRefusal(ctx.subscriptions);
    if (crowded) return [crowded];
    const unknown = unknownPayloadMember(payload);
    if (unknown) return [unknown];
    const persisted = persistedQueryRefusal(payload);
    if (persisted) return [persisted];
    const schema = schemaOf();
    if (!schema) return;
    let document: DocumentNode;
    try {
      document = parse(payload.query, { maxTokens: QUERY_LIMITS.maxTokens });
    } catch (e) {
      return [parseRefusal(e)];
    }
    const refused = checkDocument(document, schema) ?? checkVariables(payload.variables ?? undefined);
    if (refused) return [refused];
    // One validation pass: the string rule's refusals (INVALID_STRING) come first, as they did alone.
    const found = validate(schema, document, [...specifiedRules, storableStrings, jsonLiterals]);
    const strings = found.filter((e) => e.extensions.code === 'INVALID_STRING');
    if (strings.length > 0) return strings;
    const variable = unstorableVariable(payload.variables);
    if (variable) return [variable];
    // A rule of ours names the member at fault (jsonLiterals): its `field` is kept.
    if (found.length > 0)
      return found.map((e) =>
        withCode(e, 'GRAPHQL_VALIDATION_FAILED', e.extensions.field as string | undefined),
      );
    const operation = getOperationAST(document, payload.operationName);
    if (!operation) {
      const message = payload.operationName
        ? `Unknown operation named "${payload.operationName}".`
        : 'Must provide operation name if query contains multiple operations.';
      return [withCode(new GraphQLError(message), 'OPERATION_RESOLUTION_FAILURE')];
    }
    const undeclared = undeclaredVariable(operation, payload.variables);
    if (undeclared) return [undeclared];
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], payload.variables ?? {}, {
      maxErrors: 50,
    });
    if (coerced.errors)
      return coerced.errors.map((e) => withCode(e, 'BAD_USER_INPUT', variableField(e.message)));
    return {
      schema,
      document,
      operationName: payload.operationName,
      variableValues: payload.variables,
    };
  };
}

/** Operations one graphql-ws connection may have running at once (subscriptions, and queries or mutations not yet answered). */
export const MAX_OPERATIONS_PER_CONNECTION = 200;

/**
 * Each running operation holds its own state (a subscription: its stream, its catch-up, its share of the
 * fan-out), and nothing bounded how many one socket started: 5,000 on one connection held 70 MB. Past
 * MAX_OPERATIONS_PER_CONNECTION (the one being started counts: graphql-ws has noted it) the new one ends
 * with 429 OPERATION_LIMIT; those running go on, and a `complete` frees a place.
 */
function operationLimitRefusal(
  running: Readonly<Record<string, unknown>> | undefined,
): GraphQLError | undefined {
  if (!running) return undefined;
  let n = 0;
  for (const _ in running) if (++n > MAX_OPERATIONS_PER_CONNECTION) break;
  if (n <= MAX_OPERATIONS_PER_CONNECTION) return undefined;
  const message = `at most ${MAX_OPERATIONS_PER_CONNECTION} operations run at once on one connection; complete one (or open another connection) first`;
  return new GraphQLError(message, { extensions: { code: 'OPERATION_LIMIT', statusCode: 429, message } });
}

/**
 * `extensions.persistedQuery` judged as POST /graphql judges it (Apollo's automatic persisted queries): a
 * version other than 1 is 400 BAD_REQUEST naming `extensions.persistedQuery.version`, a `sha256Hash` that
 * is not the query's 400 BAD_REQUEST naming `extensions.persistedQuery.sha256Hash`. graphql-ws reads no
 * extension, so a hash that named another document was run as the query sent, without a word.
 */
function persistedQueryRefusal(payload: SubscribePayload): GraphQLError | undefined {
  const persisted = (payload.extensions as { persistedQuery?: unknown } | null | undefined)?.persistedQuery;
  if (!persisted) return undefined;
  const { version, sha256Hash } = persisted as { version?: unknown; sha256Hash?: unknown };
  if (version !== 1)
    return badRequest('Unsupported persisted query version', 'extensions.persistedQuery.version');
  if (sha256Hash !== createHash('sha256').update(payload.query).digest('hex'))
    return badRequest('provided sha does not match query', 'extensions.persistedQuery.sha256Hash');
  return undefined;
}

function badRequest(message: string, field: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_REQUEST', statusCode: 400, message, field } });
}

/** A syntax error as POST /graphql answers it: the token limit and the parser's recursion have their own codes. */
function parseRefusal(e: unknown): GraphQLError {
  if (e instanceof RangeError) {
    // Fewer tokens than the limit can still nest deeper than the parser's recursion allows ([[[[…).
    const message = 'the query nests too deep to parse';
    return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_DEEP', statusCode: 400, message } });
  }
  if (!(e instanceof GraphQLError)) throw e;
  if (TOKEN_LIMIT_MESSAGE.test(e.message)) {
    const message = `the query has more than ${QUERY_LIMITS.maxTokens} tokens; send large inputs as variables`;
    return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_LARGE', statusCode: 400, message } });
  }
  return withCode(e, 'GRAPHQL_PARSE_FAILED');
}

/** graphql-js's error (its message and locations kept) in the one shape: a 400 with `code` and `field`. */
function withCode(error: GraphQLError, code: string, field?: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: {
      code,
      statusCode: 400,
      message: error.message,
      ...(field !== undefined ? { field } : {}),
    },
  });
}

/** Subscribe messages refused before graphql-ws reads them, by socket and operation id (screenMessage notes them). */
const REFUSALS = new WeakMap<object, Map<string, GraphQLError>>();

/** The refusal screenMessage noted for this operation, if any: it ends that operation alone. */
function takeRefusal(extra: unknown, id: string): GraphQLError | undefined {
  const socket = (extra as { socket?: object } | undefined)?.socket;
  const noted = socket && REFUSALS.get(socket);
  const refusal = noted?.get(id);
  if (!noted || refusal === undefined) return undefined;
  noted.delete(id);
  return refusal;
}

function noteRefusal(socket: object, id: string, refusal: GraphQLError): void {
  let noted = REFUSALS.get(socket);
  if (!noted) REFUSALS.set(socket, (noted = new Map<string, GraphQLError>()));
  noted.set(id, refusal);
}

/**
 * A subscribe message whose payload repeated a member name (RFC 7493: names are unique): 400
 * DUPLICATE_KEY, as POST /graphql answers the same body; `field` names the member, a variable as
 * BAD_USER_INPUT names it (`input.combatants[0].name`).
 */
function duplicateRefusal(field: string): GraphQLError {
  const message = `${field} is sent more than once in its object; a member name may appear once (RFC 7493)`;
  return new GraphQLError(message, {
    extensions: { code: 'DUPLICATE_KEY', statusCode: 400, message, field },
  });
}

/** UTF-8 as text frames must be: bytes that are no UTF-8 are refused, never replaced (a BOM is kept, as it comes). */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Looks at a graphql-ws message before graphql-ws parses it (and keeps the last of two equal names): a
 * subscribe message that nests deeper than MAX_BODY_DEPTH (400 BODY_TOO_DEEP, as POST /graphql answers
 * the same body; past that depth no repeated name can be looked for) or repeats a member name inside its
 * payload (duplicateRefusal) is noted for takeRefusal and ends that operation alone; any other such
 * message (a repeated `type` or `id`, a deep or repeating connection_init) cannot be read for sure, and
 * the socket is closed with 4400, as graphql-ws closes it for any message it cannot read. A binary frame
 * is read as UTF-8 as a text frame is (graphql-ws decodes it with String(), which replaced bytes that are
 * no UTF-8 with U+FFFD and ran the result): one that is not UTF-8 closes the socket with 4400. True when
 * the message may go on.
 */
function screenMessage(socket: WsSocket, data: unknown, isBinary: boolean): boolean {
  const bytes = Array.isArray(data) ? Buffer.concat(data as Buffer[]) : data;
  let text: string;
  if (isBinary && (Buffer.isBuffer(bytes) || bytes instanceof ArrayBuffer)) {
    try {
      text = UTF8.decode(bytes);
    } catch {
      socket.close(4400, 'Invalid message received: a binary frame that is not UTF-8 text');
      return false;
    }
  } else text = String(bytes);
  const tooDeep = depthRefusal(text);
  const field = tooDeep ? undefined : duplicateKeyIn(text);
  if (!tooDeep && field === undefined) return true;
  let message: { type?: unknown; id?: unknown };
  try {
    message = JSON.parse(text) as { type?: unknown; id?: unknown };
  } catch {
    return true; // No JSON: graphql-ws closes the socket for it.
  }
  const subscribe = message.type === 'subscribe' && typeof message.id === 'string';
  const refusal = !subscribe
    ? undefined
    : (tooDeep ??
      (field !== undefined && /^payload[.[]/.test(field)
        ? duplicateRefusal(field.replace(/^payload\.(variables\.(?=.))?/, ''))
        : undefined));
  if (refusal) {
    noteRefusal(socket, message.id as string, refusal);
    return true;
  }
  const why = tooDeep ? `it nests deeper than ${MAX_BODY_DEPTH} levels` : `${field} is sent twice`;
  socket.close(4400, `Invalid message received: ${why}`.slice(0, 123));
  return false;
}

/** BODY_TOO_DEEP, as limitBodyDepth refuses a body that nests past MAX_BODY_DEPTH, when `text` does. */
function depthRefusal(text: string): GraphQLError | undefined {
  try {
    limitBodyDepth(text);
    return undefined;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    const { message, ...rest } = toApiError(e);
    return new GraphQLError(message, { extensions: { ...rest, message } });
  }
}

type WsSocket = {
  emit: EventEmitter['emit'];
  close(code: number, reason: string): void;
  send(data: unknown, ...rest: unknown[]): void;
  readonly bufferedAmount: number;
  readonly readyState: number;
  readonly OPEN: number;
};

/** Subscribe ids whose operation has not ended yet, by socket (oneOperationPerId). */
const RUNNING = new WeakMap<object, Set<string>>();

const socketOf = (ctx: { extra?: unknown }) => (ctx.extra as { socket?: WsSocket } | undefined)?.socket;

/**
 * graphql-ws frees an id when the client's `complete` for it arrives, before the operation it names has
 * settled, and keeps one operation per id: a `subscribe` that reused the id at once started a second
 * operation while the first was still being set up, and the first then took the second's place, running on
 * unseen by `complete`, by the bound on operations and by the socket's close (a fuzz held 3,000 of them on no
 * socket at all). Here an id stays taken until its operation has ended (operationEnded: graphql-ws's
 * onComplete or onError; or refused before it ran), and a subscribe that reuses it sooner is a subscriber
 * that already exists: the socket is closed with 4409, as graphql-ws closes it for an id in use.
 */
export function oneOperationPerId<C extends { extra?: unknown }, P, R>(
  onSubscribe: (ctx: C, id: string, payload: P) => R,
): (ctx: C, id: string, payload: P) => R | readonly GraphQLError[] {
  return (ctx, id, payload) => {
    const socket = socketOf(ctx);
    if (!socket) return onSubscribe(ctx, id, payload);
    let running = RUNNING.get(socket);
    if (!running) RUNNING.set(socket, (running = new Set()));
    if (running.has(id)) {
      const reason = `Subscriber for ${id} already exists`;
      socket.close(4409, Buffer.byteLength(reason) <= 123 ? reason : 'Subscriber for this id already exists');
      const message = `operation ${id} has not ended yet; an id is free again once its operation has ended`;
      return [
        new GraphQLError(message, {
          extensions: { code: 'SUBSCRIBER_ALREADY_EXISTS', statusCode: 409, message },
        }),
      ];
    }
    const result = onSubscribe(ctx, id, payload);
    if (!Array.isArray(result)) running.add(id);
    return result;
  };
}

/** graphql-ws's onComplete and onError: the operation `id` has ended, and its id is free (oneOperationPerId). */
export function operationEnded(ctx: { extra?: unknown }, id: string): void {
  const socket = socketOf(ctx);
  if (socket) RUNNING.get(socket)?.delete(id);
}

/** What a write to a connection the client has reset fails with: nothing to do but let the close clean up. */
const GONE = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
]);

/**
 * graphql-ws rejects a send whose write fails, and logs each rejection with console.error as an internal error
 * of the server ("Internal error occurred during message handling", a stack each, ignoring LOG_LEVEL): a client
 * that resets its connection with frames in flight wrote hundreds of them to stderr. A write that fails because
 * the connection is gone (or going) is no fault of the server: its callback hears success, and the socket's
 * close ends what was running.
 */
function quietSends(socket: WsSocket): void {
  const send = socket.send.bind(socket);
  socket.send = (data: unknown, ...rest: unknown[]) => {
    const last = rest.length - 1;
    const done = rest[last];
    if (typeof done === 'function')
      rest[last] = (err?: Error & { code?: string }) =>
        (done as (err?: Error) => void)(
          err && (socket.readyState !== socket.OPEN || GONE.has(err.code ?? '')) ? undefined : err,
        );
    send(data, ...rest);
  };
}

/** Where Nest keeps graphql-ws's `ws` server: no option of @nestjs/graphql reaches its constructor. */
interface WithWsServer {
  graphQlAdapter?: { _subscriptionService?: { wss?: WsServer } };
}

interface WsServer {
  options: { maxPayload?: number };
  handleUpgrade(request: IncomingMessage, socket: Socket, head: Buffer, done: (ws: unknown) => void): void;
  prependListener(event: 'connection', listener: (socket: WsSocket) => void): unknown;
  on(event: 'wsClientError', listener: (error: Error, socket: Socket) => void): unknown;
}

/** What each of ws's refusals of a handshake to /graphql says, and the part of the request at fault. */
const HANDSHAKE_REFUSALS: Record<string, [string, string]> = {
  'Invalid HTTP method': ['a WebSocket handshake is a GET', 'method'],
  'Invalid Upgrade header': [
    '/graphql switches only to a WebSocket (Upgrade: websocket); send any other request without Upgrade',
    'upgrade',
  ],
  'Missing or invalid Sec-WebSocket-Key header': [
    'Sec-WebSocket-Key must be 16 bytes in base64 (RFC 6455 section 4.1)',
    'sec-websocket-key',
  ],
  'Missing or invalid Sec-WebSocket-Version header': [
    'Sec-WebSocket-Version must be 13 (or 8)',
    'sec-websocket-version',
  ],
  'Invalid Sec-WebSocket-Protocol header': [
    'Sec-WebSocket-Protocol must be a comma-separated list of distinct tokens (graphql-transport-ws)',
    'sec-websocket-protocol',
  ],
  'Invalid or unacceptable Sec-WebSocket-Extensions header': [
    'Sec-WebSocket-Extensions is not a list of extensions with their parameters',
    'sec-websocket-extensions',
  ],
};

/**
 * A handshake to /graphql that `ws` refuses (no key, a version other than 13, `Upgrade: h2c`, a POST) was
 * answered with ws's own text/html 400: it is answered in the error shape, 400 BAD_REQUEST naming the
 * header at fault (the method for a POST), and the connection closed, as every other refusal.
 */
export function refuseBadHandshakes(graphql: WithWsServer): void {
  const wss = graphql.graphQlAdapter?._subscriptionService?.wss;
  if (!wss) return;
  const handleUpgrade = wss.handleUpgrade.bind(wss);
  wss.handleUpgrade = (request, socket, head, done) => {
    const parameter = handshakeParameter(request.url);
    if (parameter === undefined) return handleUpgrade(request, socket, head, done);
    const unreadable = unreadableQuery(request.url ?? '');
    if (unreadable) return refuseOnSocket(socket, unreadable);
    const message = `${parameter} is not a query parameter of a WebSocket handshake to /graphql; it takes none (send the key or token in connection_init's payload, as authorization)`;
    refuseOnSocket(socket, { statusCode: 400, code: 'BAD_REQUEST', message, field: parameter });
  };
  wss.on('wsClientError', (error, socket) => {
    const [message, field] = HANDSHAKE_REFUSALS[error.message] ?? [
      `the WebSocket handshake was refused: ${error.message}`,
      'upgrade',
    ];
    refuseOnSocket(
      socket,
      { statusCode: 400, code: 'BAD_REQUEST', message, field },
      field === 'sec-websocket-version' ? { 'Sec-WebSocket-Version': '13, 8' } : undefined,
    );
  });
}

/**
 * A handshake's query string read as any request's is, first (refuseUnstorableStrings): a name or value
 * that is not UTF-8 (400 VALIDATION_FAILED) or that no engine can store (400 INVALID_STRING) is refused
 * with the code and field REST gives it, before the parameter is refused for being there at all.
 */
function unreadableQuery(url: string): ApiError | undefined {
  try {
    refuseUnstorableStrings({
      url,
      query: Object.fromEntries(new URL(url, 'http://localhost/').searchParams),
    });
    return undefined;
  } catch (e) {
    return toApiError(e);
  }
}

/**
 * The first query parameter of a handshake to /graphql, named as it came (decoded when it decodes): the
 * handshake reads none, so `/graphql?token=<key>` (as REST's GETs take a token) connected and left the
 * token unread, and the connection_init without a key was then refused with a bare 4403. Refused, 400
 * BAD_REQUEST naming it, as GET /graphql refuses a parameter it does not define. An empty query is none.
 */
function handshakeParameter(url: string | undefined): string | undefined {
  const query = url?.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const first = query.split('&').find((pair) => pair !== '');
  if (first === undefined) return undefined;
  const raw = first.split('=')[0];
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')) || raw || '=';
  } catch {
    return raw;
  }
}

/**
 * ws's errors for what a client sent that is no valid WebSocket message (each `WS_ERR_…`): a message over
 * maxPayload (WS_ERR_UNSUPPORTED_MESSAGE_LENGTH), a text frame that is not UTF-8, an unmasked frame, an
 * unknown opcode, reserved bits set, a fragmented or oversized control frame, an invalid close code. ws has
 * closed the socket with the code RFC 6455 gives it (1009, 1007, 1002) when it emits one.
 */
const isFrameError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('WS_ERR_');
};

/**
 * Every message may make an answer (a ping its pong, with the ping's payload), and the frames a subscription
 * sends were already bounded (SLOW_CONSUMER_LIMIT, FrameBatcher), but the answers were not: a client that
 * sent 250 KB pings and read nothing grew the server by 670 MB. A message that comes while the connection
 * holds more than SLOW_CONSUMER_LIMIT bytes unsent closes it with 1013 (Try Again Later) instead, as the
 * subscriptions' frames do. False when it does.
 */
function readingOn(socket: WsSocket): boolean {
  if (socket.bufferedAmount <= SLOW_CONSUMER_LIMIT) return true;
  socket.close(1013, `slow consumer: more than ${SLOW_CONSUMER_LIMIT} bytes unsent`);
  return false;
}

/**
 * Bounds every WebSocket message on /graphql to `maxPayload` bytes (BODY_LIMIT, as POST /graphql's body
 * is bounded), from the first (`connection_init`, before any key is checked) on: a larger one closes the
 * socket with 1009 Message Too Big before it is buffered whole or parsed. `ws` reads the option at each
 * upgrade, so this holds for every connection accepted after it is called (at start, before listening).
 * Returns false when the GraphQL module has no graphql-ws server to bound.
 */
export function limitWsMessages(graphql: WithWsServer, maxPayload: number): boolean {
  const wss = graphql.graphQlAdapter?._subscriptionService?.wss;
  if (!wss) return false;
  wss.options.maxPayload = maxPayload;
  // ws has closed the socket (1009, 1007, 1002) when it emits a frame error; graphql-ws would log it as an
  // internal error (console.error, with a stack) of the server: it is the client's, and is not emitted on.
  // A message that repeats a member name, or a binary one that is no UTF-8, is screened first (screenMessage).
  wss.prependListener('connection', (socket) => {
    const emit = socket.emit.bind(socket);
    socket.emit = (event: string | symbol, ...args: unknown[]) =>
      (event === 'error' && isFrameError(args[0])) ||
      (event === 'message' && (!readingOn(socket) || !screenMessage(socket, args[0], args[1] === true)))
        ? false
        : emit(event, ...args);
    quietSends(socket);
  });
  return true;
}

/**
 * Bounds graphql-ws's messages to BODY_LIMIT, and answers the handshakes ws refuses in the error shape,
 * once the GraphQL module has made its WebSocket server (in its onModuleInit; this runs after every
 * module's), before the app listens.
 */
@Injectable()
export class WsMessageLimit implements OnApplicationBootstrap {
  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  onApplicationBootstrap(): void {
    const graphql = this.moduleRef.get<GraphQLModule, WithWsServer>(GraphQLModule, { strict: false });
    if (!limitWsMessages(graphql, byteLimit(this.config.bodyLimit, 'BODY_LIMIT')))
      throw new Error('graphql-ws has no WebSocket server to bound: BODY_LIMIT cannot hold on /graphql');
    refuseBadHandshakes(graphql);
  }
}
