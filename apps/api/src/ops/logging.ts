import { randomUUID } from 'node:crypto';
import { format } from 'node:util';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { destination, stdSerializers, type DestinationStream, type Level, type Logger } from 'pino';
import { Params } from 'nestjs-pino';
import type { Principal } from '@app/fights';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** Probes and scrapes: every few seconds, all alike. Logged at debug while they succeed. */
const QUIET = /^\/(health\/(live|ready)|metrics)\/?(\?|$)/;

/** An error answer as the access log records it: its stable code, never its message (it may quote input). */
export interface LoggedError {
  statusCode: number;
  code: string;
  field?: string;
}

/** What the answer to a request was, noted where errors become answers (the exception filter, Apollo). */
interface Noted {
  error?: LoggedError;
  /** The answer was cut because its client took nothing for too long (ReplyStream). */
  stalled?: true;
  graphql?: { operation: string | null; errors: string[] };
}

const NOTED = Symbol('access log notes');
type Notable = { [NOTED]?: Noted };

/** Notes live on the raw response (a Fastify reply's `raw`), where the access log's close hook finds them. */
function notesOf(res: object): Noted {
  const raw = (res as { raw?: object }).raw ?? res;
  return ((raw as Notable)[NOTED] ??= {});
}

/** Called with the error a REST answer (a Fastify reply, or its raw response) carries. */
export function noteError(res: object, error: LoggedError): void {
  const notes = notesOf(res);
  notes.error = {
    statusCode: error.statusCode,
    code: error.code,
    ...(error.field !== undefined ? { field: error.field } : {}),
  };
}

/** Called when an answer is cut because its client stopped reading (common/http-reply.ts ReplyStream). */
export function noteStalled(res: object): void {
  notesOf(res).stalled = true;
}

/** Called with a GraphQL answer: its operation's name and its errors' codes; the worst error is the line's `err`. */
export function noteGraphql(
  res: object,
  operation: string | null | undefined,
  errors: ReadonlyArray<{ extensions?: Record<string, unknown> }>,
): void {
  const notes = notesOf(res);
  const logged = errors.map((e) => ({
    statusCode: typeof e.extensions?.statusCode === 'number' ? e.extensions.statusCode : 500,
    code: typeof e.extensions?.code === 'string' ? e.extensions.code : 'INTERNAL',
    field: typeof e.extensions?.field === 'string' ? e.extensions.field : undefined,
  }));
  notes.graphql = { operation: operation ?? null, errors: logged.map((e) => e.code) };
  const worst = logged.reduce<LoggedError | undefined>(
    (w, e) => (!w || e.statusCode > w.statusCode ? e : w),
    undefined,
  );
  if (worst) noteError(res, worst);
}

/** Looks up the tenant owning a fight: a fight token's tenant. */
export type TenantOfFight = (fightId: string) => string | undefined;

/**
 * 5xx codes that are no fault of the service, and have no stack worth logging: load refused on purpose
 * (VERIFIER_BUSY, 503: the answer says to retry, Retry-After), a request in a transfer coding the
 * service does not implement (NOT_IMPLEMENTED, 501: RFC 9112 names the status; the client chose it), and
 * one in a version of HTTP it does not speak (HTTP_VERSION_NOT_SUPPORTED, 505: the client chose it).
 */
export const NO_FAULT_CODES: ReadonlyMap<string, number> = new Map([
  ['VERIFIER_BUSY', 503],
  ['NOT_IMPLEMENTED', 501],
  ['HTTP_VERSION_NOT_SUPPORTED', 505],
]);

/** Whether an answer is one of NO_FAULT_CODES, with its own status. */
export const isNoFault = (status: number, code: string | undefined): boolean =>
  code !== undefined && NO_FAULT_CODES.get(code) === status;

/**
 * The level of a request's line. The rule: 5xx is `error` (ours to fix); 401, 403 and 429 are `warn`
 * (credentials that fail, a caller reaching for what it may not, a client over its rate: worth a look
 * when they pile up), and so is a 5xx that is no fault of ours (NO_FAULT_CODES: `code`, the error's); every
 * other 4xx is `info` (expected refusals: a 422 rule refusal, a 404, a 409 conflict, a 400 that names
 * the bad field); the rest `info`, except health probes and metrics scrapes that succeed, at
 * `debug`. A GraphQL answer is judged by its worst error, whatever its status line.
 */
export function levelOf(url: string, status: number, failed = false, code?: string): Level {
  if (!failed && isNoFault(status, code)) return 'warn';
  if (failed || status >= 500) return 'error';
  if (status === 401 || status === 403 || status === 429) return 'warn';
  if (status >= 400) return 'info';
  return QUIET.test(url) ? 'debug' : 'info';
}

/** Who called: kind and id (a key's or token's id, never its secret), and the tenant it acts for. */
export function callerOf(
  p: Principal | undefined,
  tenantOfFight?: TenantOfFight,
): { tenant?: string; principal?: { kind: Principal['kind']; id: string; fightId?: string } } {
  if (!p) return {};
  switch (p.kind) {
    case 'admin':
      return { principal: { kind: 'admin', id: p.keyId } };
    case 'tenant':
      return { tenant: p.tenantId, principal: { kind: 'tenant', id: p.keyId } };
    default: {
      const tenant = tenantOfFight?.(p.fightId);
      return {
        ...(tenant ? { tenant } : {}),
        principal: { kind: p.kind, id: p.tokenId, fightId: p.fightId },
      };
    }
  }
}

function statusOf(res: ServerResponse): number {
  return Math.max(res.statusCode, (res as Notable)[NOTED]?.error?.statusCode ?? 0);
}

/**
 * The application's pino logger (nestjs-pino's root), at `level`. No per-request middleware: the
 * access log is one line written by accessLog's close hook, and nothing per request runs inside an
 * AsyncLocalStorage context (which would tax every promise of the request). The tenant lookup,
 * once the line's, is accessLog's now; the parameter stays for the module that passes it.
 */
export function loggingOptions(level: string, _tenantOfFight?: TenantOfFight): Params {
  // pino-http's serializers expect a live request and response; the line's `req` and `res` are plain already.
  const options = { level, wrapSerializers: false, serializers: { err: stdSerializers.err } };
  const stream = logStream();
  return { pinoHttp: stream ? [options, stream] : options, forRoutes: [] };
}

/**
 * Where the lines go: stdout, written asynchronously by pino's own SonicBoom as pino's default stream
 * is, but handed to it once per turn of the event loop (TurnBatch). When stdout has been replaced (a test
 * that captures it), pino's default (process.stdout) stays, as pino would choose it.
 */
function logStream(): DestinationStream | undefined {
  const stdout = process.stdout;
  const replaced = stdout.write !== (stdout.constructor as { prototype: { write: unknown } }).prototype.write;
  if (replaced || stdout.fd === undefined) return undefined;
  return new TurnBatch(destination({ dest: stdout.fd, sync: false, minLength: 0 }));
}

/** Every TurnBatch with lines not yet handed on, for the process's exit. */
const unwritten = new Set<TurnBatch>();

// Registered as this module loads, before pino registers its own exit flush for a destination it builds:
// a process that exits at once (main.ts after "shutdown done") hands its last turn's lines on first.
process.on('exit', () => {
  for (const batch of unwritten) batch.flushSync();
});

/**
 * A line stream that gathers the lines of one turn of the event loop and hands them to SonicBoom in
 * one write, at setImmediate. SonicBoom takes a line at a time dearly: each write measures the UTF-8
 * length of the text it has gathered, which flattens it (a copy of up to a write's worth of text per
 * line), and a write that finds none in flight starts one. Under load a turn answers tens of requests;
 * their access lines now cost one measure and at most one write (about 9 µs of CPU less per logged
 * request, GET /fights/:id at 50 connections). A line keeps the time it was logged at (pino stamps it);
 * only its write waits, for the rest of the turn.
 */
export class TurnBatch {
  private lines: string[] = [];

  constructor(
    private readonly sink: {
      write(text: string): unknown;
      flush?(cb?: (e?: Error) => void): void;
      flushSync?(): void;
    },
  ) {}

  write(line: string): boolean {
    if (this.lines.length === 0) {
      unwritten.add(this);
      setImmediate(this.handOn);
    }
    this.lines.push(line);
    return true;
  }

  /** pino's logger.flush(): what is gathered, then SonicBoom's own flush. */
  flush(cb?: (e?: Error) => void): void {
    this.handOn();
    if (!this.sink.flush) return cb?.();
    try {
      this.sink.flush(cb);
    } catch (e) {
      // A destination destroyed: said to the caller, never thrown at it.
      cb?.(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /** What is gathered, written before the call returns (the process's exit). */
  flushSync(): void {
    this.handOn();
    try {
      this.sink.flushSync?.();
    } catch {
      // A destination not open yet, or one destroyed: nothing more can be written to it.
    }
  }

  private readonly handOn = (): void => {
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? this.lines[0] : this.lines.join('');
    this.lines = [];
    unwritten.delete(this);
    try {
      this.sink.write(text);
    } catch {
      // A destination destroyed (SonicBoom after a failed write): the lines are lost, the service stays up.
    }
  };
}

/** The `req` of a request's line: its id, method and url, the url without any `?token=`. */
export function loggedReq(req: { id: string; method?: string; url: string }): {
  id: string;
  method?: string;
  url: string;
} {
  return { id: req.id, method: req.method, url: withoutToken(req.url) };
}

/** The request's id: a sane `x-request-id` it came with, else a new UUID (Fastify's genReqId). */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The part of Fastify's request and reply the access log reads; `principal` is the auth guard's. */
type HookRequest = { id: string; raw: IncomingMessage; principal?: Principal };
type HookReply = {
  raw: ServerResponse;
  header(name: string, value: string): unknown;
  getHeader(name: string): unknown;
};

/**
 * An event stream (SSE) has no end of its own: its client leaving is how it ends. Such a close is
 * the line `stream closed` at its status's level, not an aborted request at `error`.
 */
export function isEventStream(status: number, contentType: unknown): boolean {
  return status === 200 && typeof contentType === 'string' && /^text\/event-stream\b/i.test(contentType);
}
/**
 * The client closed the connection before the answer had all gone: its end came (EOF, or EPIPE on the
 * next write) or it reset the connection (ECONNRESET). Not ours to fix: a client that has read what it
 * wanted, or gave up. A response the service cut itself (a stream that failed, a destroy) leaves no such
 * trace on its socket.
 */
export function clientLeft(socket: Socket | null | undefined): boolean {
  if (!socket) return false;
  if (socket.readableEnded) return true;
  const { code } = (socket.errored ?? {}) as { code?: unknown };
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/**
 * How a response ended: `finished` (all of it written), or cut before its end by whom. A cut is, in
 * this order: `stalled`, the service's doing because its client took nothing for too long
 * (noteStalled, an event stream too); `left`, an event stream its client left (isEventStream): how
 * such a stream ends; `abandoned`, a request its client left before it had all arrived (mid-body, or
 * a body that timed out); `dropped`, an answer its client stopped reading (clientLeft); otherwise
 * `aborted`, cut by the service.
 */
type Ending = 'finished' | 'stalled' | 'left' | 'abandoned' | 'dropped' | 'aborted';

const MESSAGES: Readonly<Record<Ending, string>> = {
  finished: 'request completed',
  stalled: 'response stalled',
  left: 'stream closed',
  abandoned: 'request abandoned',
  dropped: 'response abandoned',
  aborted: 'request aborted',
};

function endingOf(
  res: ServerResponse,
  raw: IncomingMessage,
  status: number,
  contentType: unknown,
  notes: Noted | undefined,
): Ending {
  if (res.writableFinished) return 'finished';
  if (notes?.stalled === true) return 'stalled';
  if (isEventStream(status, contentType)) return 'left';
  if (!raw.complete) return 'abandoned';
  if (clientLeft(raw.socket)) return 'dropped';
  return 'aborted';
}

/** A step of the service's one `onRequest` hook (create-app.ts): it runs, then the next. */
type Step = (req: HookRequest, reply: HookReply) => void;

/**
 * Structured JSON logs (pino): a request id per request (requestIdOf), echoed back in
 * `x-request-id`, and no secrets. One line per request, written when its response closes: its
 * status (`res.statusCode`), the stable code of its error (`err.code`), the caller (tenant,
 * principal kind and id) and, for GraphQL, the operation's name and its errors' codes; its level
 * follows levelOf, and a line whose level is off (a probe at debug) is never built. A response cut
 * before its end (endingOf) is `request aborted` at `error`, except where its client did it: an answer
 * cut because its client took nothing for too long (noteStalled), an event stream's too, is `response
 * stalled` at `warn`; an event stream its client left, `stream closed`; a request its client left
 * before it had all arrived, `request abandoned`, or `request errored` with its 408; an answer its
 * client stopped reading (a long export it hung up on), `response abandoned`; each at its status's
 * level. The first step of the `onRequest` hook: no middleware layer, nothing per request but this
 * closure.
 */
export function accessLog(logger: Logger, tenantOfFight?: TenantOfFight): Step {
  return (req, reply) => {
    const started = performance.now();
    const { id, raw } = req;
    const res = reply.raw;
    reply.header('x-request-id', id);
    // `on`, not `once`: see "Per-request listeners" in common/http-reply.ts.
    res.on('close', () => {
      const url = raw.url ?? '';
      const status = statusOf(res);
      const notes = (res as Notable)[NOTED];
      const ending = endingOf(res, raw, status, reply.getHeader('content-type'), notes);
      const aborted = ending === 'aborted';
      const level = ending === 'stalled' ? 'warn' : levelOf(url, status, aborted, notes?.error?.code);
      if (!logger.isLevelEnabled(level)) return;
      // A 5xx or a cut response without a noted error still says why, as pino-http did.
      const err =
        notes?.error ??
        (aborted
          ? { type: 'Error', message: 'request aborted' }
          : status >= 500
            ? { type: 'Error', message: `failed with status code ${status}` }
            : undefined);
      logger[level](
        {
          req: loggedReq({ id, method: raw.method, url }),
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
          ...callerOf(req.principal, tenantOfFight),
          ...(notes?.graphql ? { graphql: notes.graphql } : {}),
          ...(err ? { err } : {}),
        },
        aborted || ending === 'left' || !err ? MESSAGES[ending] : 'request errored',
      );
    });
  };
}

/**
 * `?token=` carries a key or token for EventSource and OBS: never write it down. A parameter's name is
 * judged as the query parser reads it (percent-decoded, `+` a space, any `[…]` suffix dropped, any
 * case), so `?tok%65n=` or `?TOKEN[]=` is redacted too; so is a name that does not decode.
 */
export function withoutToken(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return secretName(name) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return url.slice(0, q + 1) + redacted + (hash < 0 ? '' : url.slice(hash));
}

function secretName(raw: string): boolean {
  let name: string;
  try {
    name = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return true;
  }
  return /^\s*token\s*(\[.*)?$/i.test(name);
}

/**
 * What the libraries report with console.warn or console.error while the service runs (a pool's connection
 * dropped under it, a snapshot not saved) goes into the JSON log at that level, as every other line does,
 * rather than as plain text beside it. The service's own process only (main.ts): tests keep their console.
 */
export function consoleToLog(logger: Pick<Logger, 'warn' | 'error'>): void {
  console.warn = (...args: unknown[]) => logger.warn(format(...args));
  console.error = (...args: unknown[]) => logger.error(format(...args));
}
