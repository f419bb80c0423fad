import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import { hash } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { noteError } from '../ops/logging';

/**
 * A weak ETag of a body's bytes, in the form Express gave every GET answer (the `etag` package:
 * its length in hex and 27 characters of its SHA-1 in base64), in one call to the hash.
 */
export function weakETag(body: string | Buffer): string {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return `W/"${length.toString(16)}-${hash('sha1', body, 'base64').slice(0, 27)}"`;
}

/**
 * RFC 9110 section 13.1.2: a GET or HEAD whose If-None-Match names the answer's ETag (weak
 * comparison) is answered 304 without a body. The answer's ETag is set by the route (a fight's
 * state, the replay script); `Cache-Control: no-cache` in the request asks for the body anyway.
 */
export function isFresh(req: FastifyRequest, etag: string): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && fresh(req.headers, { etag });
}

/**
 * Fastify `onSend` hook, for GET and HEAD: a 2xx body without an ETag of its own gets a weak one of
 * its bytes (weakETag, as Express gave), and an answer whose ETag the request already
 * has (If-None-Match) becomes a 304 without a body.
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
 * headers and hooks and pipes what is written, honouring the socket's backpressure.
 */
export class ReplyStream {
  private readonly out = new PassThrough();

  constructor(readonly reply: FastifyReply) {
    // A write after the client has gone is dropped, not thrown at the process.
    this.out.on('error', () => {});
    void reply.send(this.out);
  }

  /** The client has gone, or the stream was ended. */
  get closed(): boolean {
    return this.out.destroyed || this.out.writableEnded || this.reply.raw.destroyed;
  }

  /** Writes `text`; the promise resolves once it is taken (at once, or after the next drain or the close). */
  write(text: string): Promise<void> {
    if (this.closed || this.out.write(text)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.out.off('drain', done);
        this.out.off('close', done);
        this.reply.raw.off('close', done);
        resolve();
      };
      this.out.on('drain', done);
      this.out.on('close', done);
      this.reply.raw.on('close', done);
    });
  }

  end(text = ''): void {
    if (!this.closed) this.out.end(text);
  }
}

/**
 * Fastify `onRequest` hook: a request with a body that has not all arrived `ms` after its headers is
 * answered 408 REQUEST_TIMEOUT on its socket (refuseClientError) and the connection closed. Node's own
 * requestTimeout stops counting once the headers are in, so a client that stalls mid-body would hold its
 * connection for ever. A request without a body costs nothing; one with a body, a timer.
 */
export function bodyDeadline(ms: number) {
  return (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const raw = req.raw;
    const length = raw.headers['content-length'];
    if ((length === undefined || length === '0') && raw.headers['transfer-encoding'] === undefined)
      return done();
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
    reply.raw.once('close', () => clearTimeout(timer));
    done();
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

/**
 * What Node's HTTP parser refuses before any request exists (a request line or headers that are
 * not HTTP, headers past the size limit, a client too slow to send them): answered on the socket
 * in the service's error shape, as Fastify's default handler would in its own, then closed.
 */
export function refuseClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', 'the request did not arrive in time']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', 'the request headers are larger than the server takes']
        : [400, 'BAD_REQUEST', 'the request is not valid HTTP/1.1'];
  const body = JSON.stringify({ statusCode: status, code, message });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(err);
}
