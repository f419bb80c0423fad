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
import { duplicateKeyIn } from '../common/body-checks';
import { API_CONFIG } from '../fights.module';
import { byteLimit, type ApiConfig } from '../config';
import { refuseOnSocket } from '../common/http-reply';

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
    ctx: { extra?: unknown },
    id: string,
    payload: SubscribePayload,
  ): readonly GraphQLError[] | ExecutionArgs | void => {
    const duplicate = takeDuplicate(ctx.extra, id);
    if (duplicate) return [duplicate];
    const unknown = unknownPayloadMember(payload);
    if (unknown) return [unknown];
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

/** Subscribe messages whose payload repeated a member name, by socket and operation id (limitWsMessages notes them). */
const DUPLICATES = new WeakMap<object, Map<string, string>>();

/**
 * A subscribe message whose payload repeated a member name (RFC 7493: names are unique) ends that
 * operation alone with 400 DUPLICATE_KEY, as POST /graphql answers the same body: `field` names the
 * member, a variable as BAD_USER_INPUT names it (`input.combatants[0].name`).
 */
function takeDuplicate(extra: unknown, id: string): GraphQLError | undefined {
  const socket = (extra as { socket?: object } | undefined)?.socket;
  const noted = socket && DUPLICATES.get(socket);
  const field = noted?.get(id);
  if (!noted || field === undefined) return undefined;
  noted.delete(id);
  const message = `${field} is sent more than once in its object; a member name may appear once (RFC 7493)`;
  return new GraphQLError(message, {
    extensions: { code: 'DUPLICATE_KEY', statusCode: 400, message, field },
  });
}

/**
 * Looks at a graphql-ws message before graphql-ws parses it (and keeps the last of two equal names):
 * a duplicate inside a subscribe message's payload is noted for takeDuplicate; anywhere else (`type`,
 * `id`, a connection_init's payload) the message cannot be read for sure, and the socket is closed with
 * 4400, as graphql-ws closes it for any message it cannot read. True when the message may go on.
 */
function screenMessage(socket: WsSocket, data: unknown): boolean {
  const text = Array.isArray(data) ? Buffer.concat(data as Buffer[]).toString() : String(data);
  const field = duplicateKeyIn(text);
  if (field === undefined) return true;
  const message = JSON.parse(text) as { type?: unknown; id?: unknown };
  const inPayload = /^payload[.[]/.test(field) && !/^(type|id)$/.test(field);
  if (inPayload && message.type === 'subscribe' && typeof message.id === 'string') {
    const named = field.replace(/^payload\.(variables\.(?=.))?/, '');
    let noted = DUPLICATES.get(socket);
    if (!noted) DUPLICATES.set(socket, (noted = new Map<string, string>()));
    noted.set(message.id, named);
    return true;
  }
  socket.close(4400, `Invalid message received: ${field} is sent twice`.slice(0, 123));
  return false;
}

type WsSocket = { emit: EventEmitter['emit']; close(code: number, reason: string): void };

/** Where Nest keeps graphql-ws's `ws` server: no option of @nestjs/graphql reaches its constructor. */
interface WithWsServer {
  graphQlAdapter?: { _subscriptionService?: { wss?: WsServer } };
}

interface WsServer {
  options: { maxPayload?: number };
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
  graphql.graphQlAdapter?._subscriptionService?.wss?.on('wsClientError', (error, socket) => {
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

/** ws's error for a message over maxPayload (after it has closed the socket with 1009). */
const TOO_BIG = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';

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
  // ws has closed the socket (1009) when it emits this error; graphql-ws would log it as an internal
  // error (console.error, with a stack) of the server: it is the client's, and is not emitted on. A
  // message that repeats a member name is screened first (screenMessage).
  wss.prependListener('connection', (socket) => {
    const emit = socket.emit.bind(socket);
    socket.emit = (event: string | symbol, ...args: unknown[]) =>
      (event === 'error' && (args[0] as { code?: unknown } | undefined)?.code === TOO_BIG) ||
      (event === 'message' && !screenMessage(socket, args[0]))
        ? false
        : emit(event, ...args);
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
