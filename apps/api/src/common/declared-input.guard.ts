import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { AppError } from '@app/fights';
import { ContractViolation } from '@app/rules';
import { unknownBodyField, unknownQueryParameter, ValidationFailed } from './validation';

/** Whether a handler takes a body (`@Body`) and a query (`@Query`), which the validation pipe judges. */
interface Declared {
  body: boolean;
  query: boolean;
}

/** What of a request this guard reads: Fastify's parsed query string and body. */
interface Input {
  query?: unknown;
  body?: unknown;
}

/**
 * A route sees a body only through `@Body` and a query only through `@Query`, where the validation pipe
 * judges them; a route that declares neither ignored whatever came (`POST …/ping` took `{"zz":1}`,
 * `GET /systems?zzz=1` was a 200). Here it is refused as the pipe refuses what a DTO does not declare:
 * a body that is not empty (none, or `{}`) is 422 UNKNOWN_FIELD naming its first key, or 400
 * VALIDATION_FAILED `body` when it is JSON but no object; any query parameter is 400 VALIDATION_FAILED
 * naming it, as the OpenAPI document declares none for such a route. A route that declares both costs a
 * map lookup; GraphQL answers for its own input.
 */
@Injectable()
export class DeclaredInputGuard implements CanActivate {
  private readonly declared = new WeakMap<object, Declared>();

  canActivate(ctx: ExecutionContext): boolean {
    if (ctx.getType() !== 'http') return true;
    const handler = ctx.getHandler();
    let declared = this.declared.get(handler);
    if (!declared) {
      declared = declaredBy(ctx.getClass(), handler.name);
      this.declared.set(handler, declared);
    }
    if (declared.body && declared.query) return true;
    const req = ctx.switchToHttp().getRequest<Input>();
    if (!declared.query) refuseQuery(req.query);
    if (!declared.body) refuseBody(req.body);
    return true;
  }
}

function declaredBy(controller: object, method: string): Declared {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as object;
  const takes = (type: RouteParamtypes) => Object.keys(args).some((key) => key.startsWith(`${type}:`));
  return { body: takes(RouteParamtypes.BODY), query: takes(RouteParamtypes.QUERY) };
}

/** Any query parameter, each named: for a route that declares none. */
export function refuseQuery(query: unknown): void {
  if (typeof query !== 'object' || query === null) return;
  const names = Object.keys(query);
  if (names.length === 0) return;
  throw new ValidationFailed(
    names.map((field) => ({
      field,
      code: 'UNKNOWN_FIELD',
      message: unknownQueryParameter(field),
    })),
  );
}

function refuseBody(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body))
    throw new AppError(400, 'VALIDATION_FAILED', 'this route takes no body: send none, or {}', 'body');
  const fields = Object.keys(body);
  if (fields.length === 0) return;
  throw new ContractViolation(
    fields.map((field) => ({
      field,
      code: 'UNKNOWN_FIELD',
      message: `${unknownBodyField(field)}: this route takes none`,
    })),
  );
}
