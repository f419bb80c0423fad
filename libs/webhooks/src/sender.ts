import { IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, Socket } from 'node:net';
import { guardedLookup, PrivateTargetError, refusedRange } from './url-guard';

export interface SendResult {
  /** HTTP status, or undefined when no response arrived. */
  status?: number;
  retryAfter?: string;
  location?: string;
  excerpt: string;
  error?: string;
  latencyMs: number;
  /** The instance is stopping: the attempt does not count. */
  aborted?: boolean;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  signal?: AbortSignal;
}

export type Sender = (
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
) => Promise<SendResult>;

const EXCERPT = 1024;

/** One POST with node:http: redirects are never followed; the connected address is checked, not only the name. */
export const httpSender: Sender = (target, headers, body, options) => {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  return new Promise<SendResult>((settle) => {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return settle({ excerpt: '', error: 'invalid url', latencyMs: 0 });
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literalRange = isIP(host) ? refusedRange(host) : undefined;
    if (!options.allowPrivate && literalRange)
      return settle({
        excerpt: '',
        error: new PrivateTargetError(host, literalRange).message,
        latencyMs: 0,
      });
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    // Whatever the receiver does, the attempt ends: a promise that never settles would hold one of the
    // dispatcher's slots (and its clean stop) for ever. A margin past the timeout, for the abort to land first.
    const backstop = setTimeout(() => {
      req.destroy();
      if (finishAnswer) return finishAnswer();
      resolve(unanswered(`no response within ${options.timeoutMs} ms`));
    }, options.timeoutMs + 1000);
    backstop.unref();
    let answered = false;
    let finishAnswer: (() => void) | undefined;
    function resolve(r: SendResult): void {
      clearTimeout(backstop);
      settle(r);
    }
    const unanswered = (error: string): SendResult => ({
      excerpt: '',
      error,
      latencyMs: took(),
      aborted: options.signal?.aborted === true,
    });
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-length': Buffer.byteLength(body),
          'user-agent': 'combat-rules-service-webhooks/1',
        },
        signal,
        ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }),
      },
      (res) => {
        answered = true;
        finishAnswer = readAnswer(res, resolve, took);
      },
    );
    // 101 Switching Protocols: node:http emits no 'response' and, without this listener, closes the socket
    // with no 'error' either. A webhook is one POST: the attempt failed, with the status the receiver gave.
    req.on('upgrade', (res: IncomingMessage, socket: Socket) => {
      answered = true;
      socket.destroy();
      resolve({
        status: res.statusCode,
        excerpt: '',
        error: `HTTP ${res.statusCode}: the receiver switched protocols; a webhook is answered with a status, not an upgrade`,
        latencyMs: took(),
      });
    });
    req.on('error', (e: Error) => {
      // Past the status line the status stands: a body cut short or never ended (the timeout) ends with it.
      if (finishAnswer) return finishAnswer();
      resolve(unanswered(failure(e, timeout.aborted, options.timeoutMs)));
    });
    // Closed with neither an answer nor an error: still an attempt that failed.
    req.on('close', () => {
      if (!answered) resolve(unanswered('the connection closed without an answer'));
    });
    req.end(body);
  });
};

/**
 * The answer's status, its retry and redirect headers and an excerpt of its body, once it ends or breaks:
 * the status judges the attempt (a 2xx is the receiver's acknowledgement, as Standard Webhooks has it),
 * whether the body then ends, is cut short or never ends (the attempt's timeout ends the reading). Returns
 * what ends the reading now, with what was read.
 */
function readAnswer(res: IncomingMessage, resolve: (r: SendResult) => void, took: () => number): () => void {
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = () =>
    resolve({
      status: res.statusCode,
      retryAfter: header(res.headers['retry-after']),
      location: header(res.headers.location),
      excerpt: storableText(Buffer.concat(chunks).toString('utf8'), EXCERPT),
      latencyMs: took(),
    });
  res.on('data', (c: Buffer) => {
    if (size < EXCERPT) chunks.push(c);
    size += c.length;
    // Only an excerpt is kept: a huge answer is cut off rather than read.
    if (size > 64 * 1024) res.destroy();
  });
  res.on('end', finish);
  res.on('close', finish);
  res.on('error', finish);
  return finish;
}

/** Why a request got no answer: the timeout, a private address refused, or the socket's error. */
function failure(e: Error, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no response within ${timeoutMs} ms`;
  if (e instanceof PrivateTargetError || (e as { code?: string }).code === 'EPRIVATE') return e.message;
  return `${(e as { code?: string }).code ?? e.name}: ${e.message}`;
}

const header = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A receiver's text as the delivery log can keep it on every engine: at most `max` UTF-16 units, never cut inside a
 * surrogate pair, U+0000 (which PostgreSQL's text cannot hold: the attempt would never be recorded, and the
 * delivery sent again each time its lease ran out) and unpaired surrogates shown as U+FFFD.
 */
export function storableText(text: string, max = Infinity): string {
  let out = text.length > max ? text.slice(0, max) : text;
  if (out.length < text.length && /[\uD800-\uDBFF]$/.test(out)) out = out.slice(0, -1);
  return out.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}
