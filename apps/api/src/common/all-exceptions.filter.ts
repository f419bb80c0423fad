import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { GraphQLError } from 'graphql';
import type { Response } from 'express';
import { toApiError } from './to-api-error';

/** REST: the error JSON with its status. GraphQL: the same fields in `extensions`. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost) {
    const error = toApiError(exception);
    if (error.statusCode >= 500) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    if (host.getType<string>() === 'graphql') {
      return new GraphQLError(error.message, { extensions: { ...error } });
    }
    const res = host.switchToHttp().getResponse<Response>();
    res.status(error.statusCode).json(error);
  }
}
