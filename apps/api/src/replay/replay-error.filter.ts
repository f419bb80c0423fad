import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply as Response } from 'fastify';
import { randomBytes } from 'node:crypto';
import { toApiError } from '../common/to-api-error';
import { challengeOn401, errorPage, ErrorTexts, sendHtml } from '../overlay/page';

const REPLAY_ERRORS: ErrorTexts = {
  titles: {
    400: 'This replay link is not valid',
    401: 'This token does not work',
    404: 'No such fight for this token',
    429: 'Too many requests',
    503: 'The replay page is not installed on this server',
  },
  hints: {
    503: 'Whoever runs this service can build it (npm run build). A fight log can still be checked with POST /audit/verify or the CLI.',
  },
  fallback: 'The replay could not load',
  accepted: 'Accepted: token (any token that may read the fight). Without a fight, /replay opens a log file.',
};

/** A person opened a link: errors on the replay routes are a page they can read, as on the overlay's. */
@Catch()
export class ReplayErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Replay');

  catch(exception: unknown, host: ArgumentsHost): void {
    const error = toApiError(exception);
    if (error.statusCode >= 500)
      this.logger.error(
        exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
      );
    const res = host.switchToHttp().getResponse<Response>();
    if (res.sent) return void res.raw.end();
    challengeOn401(res, error);
    const nonce = randomBytes(16).toString('base64');
    sendHtml(res, error.statusCode, nonce, errorPage(error, nonce, REPLAY_ERRORS));
  }
}
