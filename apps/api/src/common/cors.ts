import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyCorsOptions } from '@fastify/cors';
import { AppError } from '@app/fights';
import { methodsOfPath } from './http-reply';

/**
 * The options of `app.enableCors()`, decided for each request: a preflight (Origin and
 * Access-Control-Request-Method) for a path that exists is answered 204 allowing that path's own
 * methods, so that a browser may send DELETE or PATCH where the route has it, and not where it does
 * not (the method asked for is not in Access-Control-Allow-Methods, and the browser stops). Any other
 * OPTIONS (no preflight, or a path no route has) is left to answerOptions, with the CORS headers.
 * answerOptions answers the preflight too, so that it has its log line and headers like any answer.
 */
export function corsOptions(fastify: FastifyInstance, base: FastifyCorsOptions): FastifyCorsOptions {
  const other: FastifyCorsOptions = { ...base, preflight: false };
  return {
    delegator: (req, cb) => {
      if (req.method !== 'OPTIONS' || !req.headers.origin || !req.headers['access-control-request-method'])
        return cb(null, other);
      const methods = methodsOfPath(fastify, req.url);
      // preflightContinue: @fastify/cors's hook runs before every other (the Nest adapter adds it first),
      // and a preflight it answered skipped the access log, the request id and the security headers;
      // it now adds its headers and answerOptions' hook answers, after them.
      cb(null, methods.length > 0 ? { ...base, methods, preflightContinue: true } : other);
    },
  };
}

/**
 * RFC 9110 section 9.3.7: OPTIONS on a path is 204 with `Allow` listing its methods, OPTIONS among
 * them (as a 405 lists them); on a path no route has, 404 NOT_FOUND in the error shape. Whether or not
 * CORS is on: with it, preflights are corsOptions', and @fastify/cors's route makes OPTIONS a method of
 * every path; without it, `ownRoute` adds that route (after the app's, as @fastify/cors does), so that
 * OPTIONS is no 405. The hook answers before any route's handler runs.
 */
export function answerOptions(fastify: FastifyInstance, ownRoute: boolean): void {
  const answer = (req: FastifyRequest, reply: FastifyReply): void => {
    const methods = methodsOfPath(fastify, req.url);
    if (methods.length === 0)
      throw new AppError(404, 'NOT_FOUND', `Cannot OPTIONS ${req.url.split('?')[0]}`, 'path');
    void reply
      .code(204)
      .header('allow', [...methods, 'OPTIONS'].join(', '))
      .send();
  };
  if (ownRoute)
    void fastify.register(
      Object.assign(
        async (instance: FastifyInstance) => {
          instance.options('*', (req, reply) => answer(req, reply));
        },
        { [Symbol.for('skip-override')]: true },
      ),
    );
  fastify.addHook('onRequest', (req, reply, done) => {
    if (req.method !== 'OPTIONS') return done();
    try {
      answer(req, reply);
    } catch (e) {
      done(e as Error);
    }
  });
}
