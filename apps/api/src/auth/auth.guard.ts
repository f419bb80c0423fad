import { CanActivate, ExecutionContext, Injectable, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { AccessService, AppError, Principal } from '@app/fights';
import { bearerFrom, CredentialRequest } from './bearer';
import { IS_PUBLIC } from './public.decorator';

type GuardedRequest = CredentialRequest & {
  principal?: Principal;
  params?: Record<string, unknown>;
  body?: unknown;
  routeOptions?: { url?: string };
};

/**
 * Every route and operation needs a valid key or token unless marked @Public. With several instances on one
 * store, what another instance has just issued or created is looked for in the store before it is refused
 * (AccessService.authenticate, knowFight): a known key and a known fight cost no read and no promise.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  /** @Public of each handler, by its class: read once (metadata is fixed at boot), not on every request. */
  private readonly publicRoutes = new WeakMap<Type, WeakMap<object, boolean>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessService,
  ) {}

  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    if (this.isPublic(ctx.getClass(), ctx.getHandler())) return true;
    if (ctx.getType<string>() === 'graphql') {
      const gql = GqlExecutionContext.create(ctx);
      const g = gql.getContext<{ principal?: Principal; req: GuardedRequest }>();
      const named = asFightId(gql.getArgs<{ fightId?: unknown }>().fightId);
      // Subscriptions authenticated on connect: check the principal is still valid for each operation.
      if (g.principal) {
        if (!this.access.registry.stillValid(g.principal)) throw revoked();
        return this.knowing(g.principal, named);
      }
      return this.after(this.authenticate(g.req, named), (p) => {
        g.req.principal = p;
        return this.knowing(p, named);
      });
    }
    const req = ctx.switchToHttp().getRequest<GuardedRequest>();
    const named = fightNamed(req);
    return this.after(this.authenticate(req, named), (p) => {
      req.principal = p;
      return this.knowing(p, named);
    });
  }

  private isPublic(type: Type, handler: ReturnType<ExecutionContext['getHandler']>): boolean {
    let handlers = this.publicRoutes.get(type);
    if (!handlers) this.publicRoutes.set(type, (handlers = new WeakMap()));
    let open = handlers.get(handler);
    if (open === undefined) {
      open = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, type]) === true;
      handlers.set(handler, open);
    }
    return open;
  }

  /** `next` on the principal, at once when there is no read to wait for. */
  private after(
    p: Principal | Promise<Principal>,
    next: (p: Principal) => boolean | Promise<boolean>,
  ): boolean | Promise<boolean> {
    return p instanceof Promise ? p.then(next) : next(p);
  }

  /** True once the owner of the fight a tenant names is known here, if the store knows it (AccessService.knowFight). */
  private knowing(p: Principal, named: string | undefined): boolean | Promise<boolean> {
    if (p.kind !== 'tenant' || named === undefined) return true;
    const read = this.access.knowFight(named);
    return read ? read.then(() => true) : true;
  }

  /** The principal of the request's secret; `named`, the fight it names, is where a token unknown here is looked for. */
  private authenticate(req: CredentialRequest, named: string | undefined): Principal | Promise<Principal> {
    const secret = bearerFrom(req);
    if (!secret)
      throw new AppError(
        401,
        'UNAUTHENTICATED',
        'send an API key or fight token: Authorization: Bearer <key>',
        'authorization',
      );
    const principal = this.access.authenticate(secret, named);
    return principal instanceof Promise ? principal.then(knownPrincipal) : knownPrincipal(principal);
  }
}

/** The principal of a key or token, or 401 INVALID_CREDENTIALS when the store knows none (HTTP and graphql-ws alike). */
export function knownPrincipal(principal: Principal | undefined): Principal {
  if (!principal)
    throw new AppError(
      401,
      'INVALID_CREDENTIALS',
      'this key or token is unknown, revoked or expired',
      'authorization',
    );
  return principal;
}

/** A fight id as the service makes them (a UUID): nothing else is looked for in the store. */
const FIGHT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const asFightId = (value: unknown): string | undefined =>
  typeof value === 'string' && FIGHT_ID.test(value) ? value : undefined;

/** The fight a REST request names: `:id` of a route under /fights, or a webhook's `fightId`. */
function fightNamed(req: GuardedRequest): string | undefined {
  if (req.routeOptions?.url?.startsWith('/fights/:id')) return asFightId(req.params?.id);
  const body = req.body;
  return body && typeof body === 'object' ? asFightId((body as { fightId?: unknown }).fightId) : undefined;
}

export const revoked = () =>
  new AppError(
    401,
    'INVALID_CREDENTIALS',
    'this key or token has been revoked or has expired',
    'authorization',
  );
