import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply as Response, FastifyRequest as Request } from 'fastify';
import { map, Observable } from 'rxjs';

export const LOCATION_METADATA = 'crs:location';

type LocationOf<R> = (result: R, req: { params: Record<string, string> }) => string;

/**
 * RFC 9110 sections 10.2.2, 15.3.2 and 15.3.3: a 201 names the resource it created in `Location`; a
 * 202 names where to watch the accepted work. Every `@Post` answering 201 or 202 carries this. The
 * interceptor is the route's own: routes without a Location pay for no interceptor (and no rxjs).
 */
export const Location = <R>(of: LocationOf<R>) =>
  applyDecorators(SetMetadata(LOCATION_METADATA, of), UseInterceptors(LocationInterceptor));

/** Sets `Location` from a handler's result; a path parameter or an id is percent-encoded by the caller with `seg`. */
@Injectable()
export class LocationInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler<unknown>): Observable<unknown> {
    const of =
      context.getType() === 'http'
        ? this.reflector.get<LocationOf<unknown> | undefined>(LOCATION_METADATA, context.getHandler())
        : undefined;
    if (!of) return next.handle();
    const http = context.switchToHttp();
    return next.handle().pipe(
      map((result) => {
        void http
          .getResponse<Response>()
          .header('Location', of(result, http.getRequest<Request & { params: Record<string, string> }>()));
        return result;
      }),
    );
  }
}

/** One path segment, percent-encoded. */
export const seg = (value: unknown) => encodeURIComponent(String(value));
