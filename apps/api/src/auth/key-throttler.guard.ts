import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { createHash } from 'node:crypto';
import { AppError } from '@app/fights';
import { bearerOrNone, CredentialRequest } from './bearer';
import { connectionSecret, type ConnectionParams } from './connection-params';

/** Requests each key or token may make per window (RATE_LIMIT_PER_SECOND); only provided when it is above 0. */
export const RATE_LIMIT = Symbol('RATE_LIMIT');
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** The policy's name in `RateLimit-Policy` and `RateLimit`. */
const POLICY = '"per-key"';

interface Window {
  resetAt: number;
  hits: number;
}

/** A Fastify reply (REST, or GraphQL over HTTP: the context's `res`). */
type HeaderTarget = { header(name: string, value: string): unknown };
/** Fastify's request; over graphql-ws the context's `req` may carry no headers. */
type ThrottledRequest = Partial<CredentialRequest> & { ip?: string };

/**
 * Rate limits per key or token (README "Configuration"); callers without one are counted by address.
 * A fixed window per caller that starts at its first request: one counter per caller, so a hit costs
 * the same at any throughput, and the windows that have ended are dropped at most once per window.
 *
 * Headers: `RateLimit-Policy` and `RateLimit` as Structured Fields lists, the syntax of
 * draft-ietf-httpapi-ratelimit-headers-10 ("RateLimit header fields for HTTP", sections 3 and 4):
 * `RateLimit-Policy: "per-key";q=100;w=1` (quota q per window of w seconds) and
 * `RateLimit: "per-key";r=42;t=1` (r requests remaining, t seconds until the quota resets).
 * A refused request also gets `Retry-After` (RFC 9110 section 10.2.3) in seconds.
 */
@Injectable()
export class KeyThrottlerGuard implements CanActivate {
  private readonly windows = new Map<string, Window>();
  private sweptAt = 0;

  constructor(@Inject(RATE_LIMIT) private readonly policy: RateLimit) {}

  canActivate(context: ExecutionContext): boolean {
    const target = this.requestResponse(context);
    const { limit, windowMs } = this.policy;
    const now = Date.now();
    this.sweep(now);
    const tracker = trackerOf(target.req);
    let window = this.windows.get(tracker);
    if (!window || window.resetAt <= now) {
      window = { resetAt: now + windowMs, hits: 0 };
      this.windows.set(tracker, window);
    }
    window.hits++;
    const reset = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
    const res = target.res;
    res?.header('RateLimit-Policy', `${POLICY};q=${limit};w=${Math.ceil(windowMs / 1000)}`);
    res?.header('RateLimit', `${POLICY};r=${Math.max(0, limit - window.hits)};t=${reset}`);
    if (window.hits <= limit) return true;
    res?.header('Retry-After', String(reset));
    throw new AppError(
      429,
      'RATE_LIMITED',
      `at most ${limit} requests per ${windowMs / 1000} s with one key or token; retry in ${reset} s (Retry-After)`,
    );
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < this.policy.windowMs) return;
    this.sweptAt = now;
    for (const [tracker, window] of this.windows) if (window.resetAt <= now) this.windows.delete(tracker);
  }

  /**
   * Over HTTP, the request (its key, token or address) and the reply for the headers. Over graphql-ws each
   * operation (a query, a mutation, a subscription's start; not the events it pushes) counts against the
   * key or token of its connection (connection_init's `authorization`), in the same window as that key's
   * HTTP requests: a socket is no way around the limit. It has no headers to carry; its 429 is the
   * operation's `error`.
   */
  private requestResponse(context: ExecutionContext): { req: ThrottledRequest; res?: HeaderTarget } {
    if (context.getType<string>() === 'graphql') {
      const { req, res, connectionParams } = GqlExecutionContext.create(context).getContext<{
        req?: ThrottledRequest;
        res?: HeaderTarget;
        connectionParams?: ConnectionParams;
      }>();
      if (res) return { req: req ?? {}, res };
      // Read as connection_init was (a refusal there closed the socket), never as a second guess.
      const secret = connectionSecret(connectionParams);
      return { req: { headers: { authorization: secret && `Bearer ${secret}` } } };
    }
    const http = context.switchToHttp();
    return { req: http.getRequest<ThrottledRequest>(), res: http.getResponse<HeaderTarget>() };
  }
}

function trackerOf(req: ThrottledRequest): string {
  const secret = req.headers
    ? bearerOrNone({ method: req.method, headers: req.headers, query: req.query })
    : undefined;
  return secret
    ? `key:${createHash('sha256').update(secret).digest('hex').slice(0, 24)}`
    : `ip:${req.ip ?? 'unknown'}`;
}
