import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';

/** The request id pino gave this request (x-request-id): it is recorded in the events' metadata. */
export const RequestId = createParamDecorator((_: unknown, ctx: ExecutionContext): string | undefined => {
  type WithId = { id?: unknown };
  const req =
    ctx.getType<string>() === 'graphql'
      ? GqlExecutionContext.create(ctx).getContext<{ req?: WithId }>().req
      : ctx.switchToHttp().getRequest<WithId>();
  const id = req?.id;
  return typeof id === 'string' ? id : undefined;
});
