import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hash } from 'node:crypto';
import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { finished, PassThrough } from 'node:stream';
import { AppError } from '@app/fights';
import { noteError, noteStalled } from '../ops/logging';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../config';
import { ENTITY_TAG, entityTags, preconditionFailed } from './fight-etag';
import { toApiError } from './to-api-error';
import { UNPARSED_VERSIONS, VERSION_NOT_SUPPORTED } from './http-version';

declare module 'fastify' {
  interface FastifyInstance {
    /** How long a ReplyStream waits for a client that takes nothing before it cuts the answer (REQUEST_TIMEOUT_MS). */
    stalledReaderMs?: number;
  }
}

/**
 * A weak ETag of a body's bytes, in the form Express gave every GET answer (the `etag` package:
 * its length in hex and 27 characters of its SHA-1 in base64), in one call to the hash.
 */
export function weakETag(body: string | Buffer): string {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return `W/"${length.toString(16)}-${hash('sha1', body, 'base64').slice(0, 27)}"`;
}

/**
 * What the conditions of a GET or HEAD make of an answer tagged `etag`: nothing when they are absent or
 * hold; a 400 naming `if-match` or `if-none-match` when it is no list of entity tags (both are read before
 * either is judged, as a PATCH's are); else a 412 PRECONDITION_FAILED naming `if-match` when If-Match is
 * not `*` and does not name the tag (compared as the name of the state, as commands and PATCHes compare
 * it). Whether If-None-Match makes a 304 is isFresh's to say.
 */
export function conditionRefusal(headers: IncomingHttpHeaders, etag: string): AppError | undefined {
  const tags = tagsOrRefusal(headers['if-match'], 'if-match');
  if (tags instanceof AppError) return tags;
  const noneMatch = tagsOrRefusal(headers['if-none-match'], 'if-none-match');
  if (noneMatch instanceof AppError) return noneMatch;
  const now = ENTITY_TAG.exec(etag)?.[1];
  if (tags === '*' || tags === undefined || (now !== undefined && tags.includes(now))) return undefined;
  return preconditionFailed(
    'If-Match names no state this resource is in now; GET it without If-Match for its ETag',
  );
}

/** entityTags, its 400 returned rather than thrown: an onSend hook answers it instead of failing. */
function tagsOrRefusal(
  header: string | string[] | undefined,
  name: 'if-match' | 'if-none-match',
): ReturnType<typeof entityTags> | AppError {
  try {
    return entityTags(header, name);
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
}

/**
 * RFC 9110 section 13.1.2: a GET or HEAD whose If-None-Match is `*` or names the answer's ETag (weak
 * comparison: `W/"x"` and `"x"` name the same state) is answered 304 without a body. The answer's ETag is
 * set by the route (a fight's state, the replay script). The request's `Cache-Control: no-cache` does not
 * change that: it asks caches on the way to validate with the origin (RFC 9111 section 5.2.1.4), and this
 * is the origin validating; fetch() adds it to every request whose caller sets If-None-Match (the Fetch
 * standard, "HTTP-network-or-cache fetch"), so honouring it as "send the body anyway" made a 304
 * unreachable from a browser. An If-None-Match that is no list of entity tags makes nothing fresh: it is
 * refused (conditionRefusal).
 */
export function isFresh(req: FastifyRequest, etag: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const tags = tagsOrRefusal(req.headers['if-none-match'], 'if-none-match');
  if (tags === '*') return true;
  if (tags === undefined || tags instanceof AppError) return false;
  const now = ENTITY_TAG.exec(etag)?.[1];
  return now !== undefined && tags.includes(now);
}

/**
 * Fastify `onSend` hook, for GET and HEAD: a 2xx body without an ETag of its own gets a weak one of
 * its bytes (weakETag, as Express gave), an answer whose ETag an If-Match does not name becomes a 412 and
 * one whose If-Match or If-None-Match is no list of entity tags a 400 (conditionRefusal), and an answer
 * whose ETag the request already has (If-None-Match) becomes a 304 without a body.
 */
export function answerNotModified(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
): void {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || reply.statusCode < 200 || reply.statusCode >= 300)
    return done(null, payload);
  let tag = reply.getHeader('etag');
  if (tag === undefined && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
    tag = weakETag(payload);
    void reply.header('etag', tag);
  }
  const refused = typeof tag === 'string' ? conditionRefusal(req.headers, tag) : undefined;
  if (refused) {
    // RFC 9110 section 13.1.1: a GET whose If-Match names no current state of the resource is a 412; a
    // condition that cannot be read is a 400, as on a PATCH.
    const error = toApiError(refused);
    noteError(reply.raw, error);
    void reply.code(error.statusCode).type('application/json; charset=utf-8');
    for (const name of ['etag', 'content-length', 'content-encoding']) reply.removeHeader(name);
    // The refusal answers this request's headers only: the representation's caching (the replay
    // script's year, immutable) would let a cache serve it for the URL.
    void reply.header('cache-control', 'no-store');
    if (payload instanceof PassThrough) payload.destroy();
    return done(null, JSON.stringify(error));
  }
  if (typeof tag === 'string' && isFresh(req, tag)) {
    void reply.code(304);
    for (const name of ['content-type', 'content-length', 'content-encoding', 'transfer-encoding'])
      reply.removeHeader(name);
    if (payload instanceof PassThrough) payload.destroy();
    return done(null, null);
  }
  done(null, payload);
}

/**
 * A body written piece by piece (an SSE stream, a long export): Fastify sends it with the reply's
 * headers and hooks and pipes what is written, honouring the socket's backpressure. A client that takes
 * nothing of it for `stalledReaderMs` (the server's, REQUEST_TIMEOUT_MS) while a write waits has its
 * answer cut: what waits for it (an export's whole log, a page of a catch-up) is not held for ever.
 */
export class ReplyStream {
  private readonly out = new PassThrough();
  /** The drain the writes made while the buffer is full wait on. */
  private drained?: Promise<void>;

  private readonly stallMs: number;

  constructor(readonly reply: FastifyReply) {
    this.stallMs = reply.server.stalledReaderMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    // A write after the client has gone is dropped, not thrown at the process.
    this.out.on('error', () => {});
    void reply.send(this.out);
  }

  /** The client has gone, or the stream was ended. */
  get closed(): boolean {
    return this.out.destroyed || this.out.writableEnded || this.reply.raw.destroyed;
  }

  /**
   * Writes `text`; the promise resolves once it is taken (at once, or after the next drain or the close).
   * Every write made while the buffer is full waits on the same drain: one set of listeners, however many
   * writes a writer makes before it awaits one.
   */
  write(text: string): Promise<void> {
    if (this.closed || this.out.write(text)) return Promise.resolve();
    return (this.drained ??= new Promise((resolve) => {
      const stall = setTimeout(() => {
        noteStalled(this.reply.raw);
        this.reply.raw.destroy();
      }, this.stallMs);
      const done = () => {
        clearTimeout(stall);
        this.out.off('drain', done);
        this.out.off('close', done);
        this.reply.raw.off('close', done);
        this.drained = undefined;
        resolve();
      };
      this.out.on('drain', done);
      this.out.on('close', done);
      this.reply.raw.on('close', done);
    }));
  }

  end(text = ''): void {
    if (!this.closed) this.out.end(text);
  }
}

// Per-request listeners: listeners added for each request, on the request or its response, use `on`,
// never `once` (ESLint refuses `once` in the request path). `once` wraps the listener in a small state
// object (Node's `_onceWrap`) that points back at the emitter; V8 came to allocate those objects straight
// in the old generation, and from there each kept its response, its request and all they hold alive
// through every young-generation collection until the next full one. Measured on `GET /health/live`
// under load: 2.3 MB promoted per scavenge and 9 ms pauses with `once`, 0.3 MB and 2 ms with `on`. The
// events these listen for come once anyway.

/**
 * A step of the `onRequest` hook: a request with a body that has not all arrived `ms` after its headers is
 * answered 408 REQUEST_TIMEOUT on its socket (refuseClientError) and the connection closed. Node's own
 * requestTimeout stops counting once the headers are in, so a client that stalls mid-body would hold its
 * connection for ever. A request without a body costs nothing; one with a body, a timer.
 */
export function bodyDeadline(ms: number) {
  return (req: FastifyRequest, reply: FastifyReply): void => {
    const raw = req.raw;
    const length = raw.headers['content-length'];
    if ((length === undefined || length === '0') && raw.headers['transfer-encoding'] === undefined) return;
    const timer = setTimeout(() => {
      if (raw.complete || reply.raw.headersSent || raw.socket.destroyed) return;
      reply.raw.statusCode = 408;
      noteError(reply.raw, { statusCode: 408, code: 'REQUEST_TIMEOUT' });
      refuseClientError(
        Object.assign(new Error('the request body did not arrive in time'), {
          code: 'ERR_HTTP_REQUEST_TIMEOUT',
        }),
        raw.socket,
      );
    }, ms);
    timer.unref();
    reply.raw.on('close', () => clearTimeout(timer));
  };
}

/**
 * RFC 9110 section 10.1.1: an Expect other than 100-continue "MAY" be answered 417; Node does so with an
 * empty body unless a `checkExpectation` listener answers instead. This one answers in the error shape.
 */
export function refuseExpectation(req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify({
    statusCode: 417,
    code: 'EXPECTATION_FAILED',
    message: 'the only expectation this server meets is Expect: 100-continue',
    field: 'expect',
  });
  res.writeHead(417, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** What each of llhttp's refusals says of the request, and the part of it at fault. */
const PARSE_ERRORS: Record<string, [string, string?]> = {
  HPE_INVALID_METHOD: ['the request line does not start with a method', 'method'],
  HPE_INVALID_URL: ['the request target holds a character a URL may not', 'path'],
  HPE_INVALID_CONSTANT: ['the request line is not "METHOD target HTTP/1.1"'],
  HPE_INVALID_HEADER_TOKEN: ['a header line is not "name: value" in the characters HTTP allows', 'headers'],
  HPE_INVALID_CONTENT_LENGTH: ['Content-Length is not a number', 'content-length'],
  HPE_UNEXPECTED_CONTENT_LENGTH: ['Content-Length is sent more than once', 'content-length'],
  HPE_INVALID_TRANSFER_ENCODING: [
    'Transfer-Encoding cannot come with Content-Length, or does not end in chunked',
    'transfer-encoding',
  ],
  HPE_INVALID_CHUNK_SIZE: ['the chunked body is not valid chunked data', 'body'],
};

/** The start of a request line: a method and a space (RFC 9112 section 3). */
const REQUEST_LINE_START = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /;

/**
 * Whether Node's header overflow (it counts the request line with the headers) came before the request
 * line ended: RFC 9110 section 15.5.15's 414 URI Too Long rather than 431. Told from what the parser was
 * given when it overflowed (`rawPacket`, parsed up to `bytesParsed`): a read that starts the request and
 * has no line end before the overflow. A request line cut across several reads (a slow client sending it
 * in pieces) cannot be told from long headers that way, and stays 431.
 */
function requestLineOverflowed(err: Error & { rawPacket?: unknown; bytesParsed?: unknown }): boolean {
  const packet = err.rawPacket;
  if (!Buffer.isBuffer(packet)) return false;
  const parsed =
    typeof err.bytesParsed === 'number' ? Math.min(err.bytesParsed, packet.length) : packet.length;
  const start = packet.subarray(0, Math.min(parsed, 64)).toString('latin1');
  return REQUEST_LINE_START.test(start) && !packet.subarray(0, parsed).includes(0x0a);
}

/**
 * What Node's HTTP parser refuses before any request exists (a request line or headers that are
 * not HTTP, a request line or headers past the size limit, a client too slow to send them): answered
 * on the socket in the service's error shape, as Fastify's default handler would in its own, then
 * closed: after a parse error nothing more on the connection can be framed. `field` names the part at
 * fault where the parser says which (PARSE_ERRORS; `path` for a request line too long, `headers` for
 * headers too large); a version of HTTP it does not parse (`HTTP/1.2`, HTTP/2's preface) is 505, as
 * refuseHttpVersion refuses the ones it parses. Nothing is written when the answer to the request has begun (a
 * chunked body that breaks after its route answered): the socket is only closed. A refused request
 * pipelined behind one still being answered waits for that answer to end.
 */
export function refuseClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || refused.has(socket)) return;
  const current = (socket as Socket & { _httpMessage?: ServerResponse & { req?: IncomingMessage } })
    ._httpMessage;
  // A request pipelined behind one that arrived whole: that one's answer goes first, whole (its client
  // would read the refusal as the answer to it), then the refusal, written once Node is done with
  // the socket after that answer.
  const earlier = current?.req?.complete === true;
  if (current && earlier && !current.writableFinished)
    return void finished(current, () => setImmediate(() => refuseClientError(err, socket)));
  const answered = !earlier && current?.headersSent === true;
  const [status, code, message, field]: [number, string, string, string?] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', 'the request did not arrive in time']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? requestLineOverflowed(err)
          ? [414, 'URI_TOO_LONG', 'the request target is longer than the server takes', 'path']
          : [431, 'HEADERS_TOO_LARGE', 'the request headers are larger than the server takes', 'headers']
        : UNPARSED_VERSIONS.has(err.code ?? '')
          ? [
              VERSION_NOT_SUPPORTED.statusCode,
              VERSION_NOT_SUPPORTED.code,
              VERSION_NOT_SUPPORTED.message,
              'version',
            ]
          : [400, 'BAD_REQUEST', ...(PARSE_ERRORS[err.code ?? ''] ?? ['the request is not valid HTTP/1.1'])];
  if (!socket.writable || answered) return void socket.destroy(err);
  answerAndClose(socket, rawErrorAnswer(status, code, message, field));
}

/** Sockets answered by answerAndClose: a parser that goes on failing on what follows is not answered twice. */
const refused = new WeakSet<Socket>();
/** How long a refused connection waits for its client to close it after the answer. */
const CLOSE_GRACE_MS = 1000;

/** An answer in the error shape, as raw HTTP/1.1 that closes the connection, with `headers` besides. */
function rawErrorAnswer(
  status: number,
  code: string,
  message: string,
  field?: string,
  headers: Record<string, string> = {},
): string {
  const body = JSON.stringify({ statusCode: status, code, message, ...(field ? { field } : {}) });
  const more = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\n${more.join('')}Connection: close\r\n\r\n${body}`
  );
}

/**
 * Refuses, on its socket, a request Node handed to an `upgrade` listener (no Fastify reply exists for it):
 * the error shape, then the connection closed (answerAndClose).
 */
export function refuseOnSocket(
  socket: Socket,
  refusal: { statusCode: number; code: string; message: string; field?: string },
  headers?: Record<string, string>,
): void {
  const { statusCode, code, message, field } = refusal;
  answerAndClose(socket, rawErrorAnswer(statusCode, code, message, field, headers));
}

/** Writes `answer` on a connection refused before any request was made of it, and closes it (endGently). */
function answerAndClose(socket: Socket, answer: string): void {
  refused.add(socket);
  socket.on('error', () => socket.destroy());
  endGently(socket, answer);
}

/**
 * Ends the connection from this side, after `answer` when there is one, and leaves the client to close
 * it, reading and dropping what it still sends: a destroy with bytes the client sent after the answered
 * request still unread here resets the connection, and a reset can cost the client the answer. A client
 * that does not close is cut after CLOSE_GRACE_MS.
 */
export function endGently(socket: Socket, answer?: string): void {
  if (answer === undefined) socket.end();
  else socket.end(answer);
  socket.resume();
  const cut = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
  cut.unref();
  socket.on('close', () => clearTimeout(cut));
}

/**
 * Node hands every request that asks to switch protocols (`Connection: upgrade`) to the server's
 * `upgrade` listeners and nothing else; graphql-ws's takes those to `servedPath` and leaves the rest,
 * which then had no answer and held their connection (and a shutdown) for ever. This one answers them:
 * 400 BAD_REQUEST naming `upgrade`, in the error shape, and closes the connection.
 */
export function refuseUpgrade(servedPath: string) {
  return (req: IncomingMessage, socket: Socket): void => {
    // That path exactly (not /graphqlx, not /graphql/x); graphql-ws's server refuses a query string on it.
    if (req.url !== undefined && /^[^?]*/.exec(req.url)?.[0] === servedPath) return;
    refuseOnSocket(socket, {
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: `only ${servedPath} switches protocols (a graphql-transport-ws WebSocket); send this request without Upgrade`,
      field: 'upgrade',
    });
  };
}

/**
 * RFC 9112 section 3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1
 * request message that lacks a Host header field". Node did, with an empty body; the server is made
 * with `requireHostHeader: false` and this answers in the error shape, naming `host`, and closes the
 * connection after it as Node did. HTTP/1.0 needs no Host.
 */
export function refuseMissingHost(req: FastifyRequest, reply: FastifyReply): void {
  const { raw } = req;
  if (raw.headers.host !== undefined || raw.httpVersionMajor !== 1 || raw.httpVersionMinor < 1) return;
  void reply.header('connection', 'close');
  throw new AppError(400, 'BAD_REQUEST', 'an HTTP/1.1 request must send the Host header', 'host');
}

/** The methods a route may have: what a 405, OPTIONS and a CORS preflight look up for a path. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The methods (OPTIONS aside) the router has for the path of a request target, in METHODS' order; none
 * when no route has it. The one lookup behind a 405's Allow (refuseUnknownMethod), OPTIONS and CORS
 * preflights (common/cors.ts). OPTIONS is a method of every path that has another (cors.ts adds its route).
 */
export function methodsOfPath(fastify: FastifyInstance, url: string): string[] {
  const path = url.split('?')[0];
  return METHODS.filter((method) => fastify.findRoute({ method, url: path }) !== null);
}

/**
 * RFC 9110 section 15.5.6: a method the path does not have is 405, and "The origin server MUST
 * generate an Allow header field in a 405 response containing a list of the target resource's
 * currently supported methods"; a path no method has stays 404. Fastify answered both 404. Looked up
 * only for a request no route took: OPTIONS alone does not make a path exist.
 */
export function refuseUnknownMethod(
  fastify: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
): void {
  if (!req.is404) return;
  const methods = methodsOfPath(fastify, req.url);
  if (methods.length === 0) return;
  const allowed = [...methods, 'OPTIONS'].join(', ');
  void reply.header('allow', allowed);
  throw new AppError(
    405,
    'METHOD_NOT_ALLOWED',
    `${req.method} is not a method of ${req.url.split('?')[0]}; it takes ${allowed}`,
    'method',
  );
}
