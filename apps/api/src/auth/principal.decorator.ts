import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { Principal } from '@app/fights';

/** The caller the guard authenticated (REST or GraphQL). */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal =>
  principalOf(ctx)!,
);

export function principalOf(ctx: ExecutionContext): Principal | undefined {
  if (ctx.getType<string>() === 'graphql') {
    const g = GqlExecutionContext.create(ctx).getContext<{
      principal?: Principal;
      req?: { principal?: Principal };
    }>();
    return g.principal ?? g.req?.principal;
  }
  return ctx.switchToHttp().getRequest<{ principal?: Principal }>().principal;
}
