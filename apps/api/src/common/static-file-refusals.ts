import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { assertStorable } from './body-checks';

/*
 * Swagger UI's files under /docs/ are served by @fastify/static, which refuses a path it will not map
 * to a file (a dot segment, `%2e%2e` or `//` that would escape or alias its folder, U+0000) with its own
 * 403 FORBIDDEN, naming nothing. The service answers such paths as it answers any other: U+0000 is
 * INVALID_STRING naming `path`, and a path that names no file it serves is 404 NOT_FOUND.
 */

/**
 * A route's `preHandler`: U+0000 in the path (its escapes already checked as UTF-8 by
 * refuseUnstorableStrings) is 400 INVALID_STRING naming `path`, as in a path parameter.
 */
export function refuseUnstorablePath(
  req: FastifyRequest,
  _reply: FastifyReply,
  done: (e?: Error) => void,
): void {
  const path = req.url.split('?')[0];
  try {
    if (path.includes('%')) assertStorable(decodeURIComponent(path), 'path');
    done();
  } catch (e) {
    done(e as Error);
  }
}

type RouteErrorHandler = NonNullable<RouteOptions['errorHandler']>;

/**
 * A route's `errorHandler`, around the one it has (@fastify/static's own, which passes its errors on to
 * the app's): the file server's 403, a path it refuses to map (nothing else on these routes is a 403:
 * they are public), is answered as a file it does not have, by the 404 handler.
 */
export function staticRefusalNotFound(next: RouteErrorHandler | undefined): RouteErrorHandler {
  return function (error, req, reply) {
    if (error.statusCode === 403) return void reply.callNotFound();
    if (!next) throw error;
    next.call(this, error, req, reply);
  };
}
