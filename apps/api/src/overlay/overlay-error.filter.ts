import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply as Response } from 'fastify';
import { randomBytes } from 'node:crypto';
import { toApiError } from '../common/to-api-error';
import { challengeOn401, errorPage, sendHtml } from './page';

/** OBS shows whatever the URL returns: errors on the overlay route are a page a streamer can read, not JSON. */
@Catch()
export class OverlayErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Overlay');

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
    sendHtml(res, error.statusCode, nonce, errorPage(error, nonce));
  }
}
