import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { AccessService, AppError, Principal } from '@app/fights';
import { bearerFrom, CredentialRequest } from './bearer';
import { IS_PUBLIC } from './public.decorator';

type GuardedRequest = CredentialRequest & { principal?: Principal };

/** Every route and operation needs a valid key or token unless marked @Public. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessService,
  ) {}

  canActivate(ctx: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [ctx.getHandler(), ctx.getClass()])) return true;
    if (ctx.getType<string>() === 'graphql') {
      const g = GqlExecutionContext.create(ctx).getContext<{ principal?: Principal; req: GuardedRequest }>();
      // Subscriptions authenticated on connect: check the principal is still valid for each operation.
      if (g.principal) {
        if (!this.access.registry.stillValid(g.principal)) throw revoked();
        return true;
      }
      g.req.principal = this.authenticate(g.req);
      return true;
    }
    const req = ctx.switchToHttp().getRequest<GuardedRequest>();
    req.principal = this.authenticate(req);
    return true;
  }

  private authenticate(req: CredentialRequest): Principal {
    const secret = bearerFrom(req);
    if (!secret)
      throw new AppError(
        401,
        'UNAUTHENTICATED',
        'send an API key or fight token: Authorization: Bearer <key>',
        'authorization',
      );
    const principal = this.access.registry.authenticate(secret);
    if (!principal)
      throw new AppError(
        401,
        'INVALID_CREDENTIALS',
        'this key or token is unknown, revoked or expired',
        'authorization',
      );
    return principal;
  }
}

export const revoked = () =>
  new AppError(
    401,
    'INVALID_CREDENTIALS',
    'this key or token has been revoked or has expired',
    'authorization',
  );
