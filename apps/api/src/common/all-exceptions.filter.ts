import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { GraphQLError } from 'graphql';
import type { FastifyReply as Response, FastifyRequest } from 'fastify';
import { toApiError } from './to-api-error';
import { isNoFault, noteError, noteGraphql } from '../ops/logging';
import { graphqlTransportError } from '../graphql/graphql-errors';
import { OverlayErrorFilter } from '../overlay/overlay-error.filter';
import { ReplayErrorFilter } from '../replay/replay-error.filter';

/**
 * Every 503 is for now: a lost database connection is usually back within a second (the pools
 * reconnect on demand), and a busy verifier takes about that for a 5 MiB log.
 */
const STORE_RETRY_AFTER_SECONDS = '1';

/**
 * REST: the error JSON with its status. GraphQL: the same fields in `extensions`, for a resolver's
 * error and for a request to /graphql refused before GraphQL reads it (graphqlTransportError).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');
  /**
   * The pages a person opens (the overlay in OBS, the replay in a browser) answer their errors as a page
   * they can read, also those refused before their route runs (a request the hooks refuse, a path under
   * them no route has), which reach this filter rather than the page's own.
   */
  private readonly pages: ReadonlyArray<[RegExp, { catch(e: unknown, host: ArgumentsHost): void }]> = [
    [/^\/overlay(?:[/?]|$)/, new OverlayErrorFilter()],
    [/^\/replay(?:[/?]|$)/, new ReplayErrorFilter()],
  ];

  catch(exception: unknown, host: ArgumentsHost) {
    if (host.getType<string>() === 'http') {
      const { url } = host.switchToHttp().getRequest<FastifyRequest>();
      const page = this.pages.find(([path]) => path.test(url))?.[1];
      if (page) {
        noteError(host.switchToHttp().getResponse<Response>(), toApiError(exception));
        page.catch(exception, host);
        return;
      }
    }
    const error = toApiError(exception);
    if (error.statusCode >= 500 && !isNoFault(error.statusCode, error.code)) {
      const text = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
      // The request's id (accessLog's), so the stack can be found from the request's access line.
      const id =
        host.getType<string>() === 'http' ? host.switchToHttp().getRequest<{ id?: unknown }>().id : undefined;
      this.logger.error(typeof id === 'string' ? { msg: text, req: { id } } : text);
    }
    if (host.getType<string>() === 'graphql') {
      return new GraphQLError(error.message, { extensions: { ...error } });
    }
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    if (error.statusCode === 503) void res.header('Retry-After', STORE_RETRY_AFTER_SECONDS);
    // RFC 6750 section 3: the scheme to authenticate with; `invalid_token` only when credentials were sent.
    if (error.statusCode === 401)
      void res.header(
        'WWW-Authenticate',
        error.code === 'UNAUTHENTICATED' ? 'Bearer' : 'Bearer error="invalid_token"',
      );
    if (isGraphqlPath(req.url)) {
      const { type, body } = graphqlTransportError(error, req.headers);
      noteGraphql(res, null, body.errors);
      void res.status(error.statusCode).type(type).send(body);
      return;
    }
    noteError(res, error);
    void res.status(error.statusCode).send(error);
  }
}

/** /graphql, with a trailing slash or a query string or not. */
const isGraphqlPath = (url: string) => /^\/graphql\/?(?:\?|$)/.test(url);
