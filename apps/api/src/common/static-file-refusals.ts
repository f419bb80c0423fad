import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '@app/fights';
import { assertStorable } from './body-checks';
import { preconditionFailed } from './fight-etag';

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
 * they are public), is answered as a file it does not have, by the 404 handler; its 416 and 412 get their
 * codes and fields (namedRefusal).
 */
export function staticRefusalNotFound(next: RouteErrorHandler | undefined): RouteErrorHandler {
  return function (error, req, reply) {
    if (error.statusCode === 403) return void reply.callNotFound();
    const named = namedRefusal(error.statusCode, req.headers);
    if (!next) throw named ?? error;
    next.call(this, named ?? error, req, reply);
  };
}

/**
 * The file server's other refusals, which reached the error shape as BAD_REQUEST naming nothing, with the
 * code and field the service gives them: a Range outside the file (416), a precondition the file fails (412,
 * naming the header that failed, as a command's or a resource's precondition does).
 */
function namedRefusal(status: number | undefined, headers: FastifyRequest['headers']): AppError | undefined {
  if (status === 416)
    return new AppError(416, 'RANGE_NOT_SATISFIABLE', 'Range names no bytes of this file', 'range');
  if (status === 412)
    return preconditionFailed(
      'the file is not in the state the precondition names',
      headers['if-match'] !== undefined ? 'if-match' : 'if-unmodified-since',
    );
  return undefined;
}
