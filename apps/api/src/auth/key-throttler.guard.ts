import { ExecutionContext, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { ThrottlerGuard } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { bearerFrom } from './bearer';

/** Rate limits per key or token (issue "Access control"); callers without one are counted by address. */
@Injectable()
export class KeyThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, any>): Promise<string> {
    const secret = req.headers ? bearerFrom(req as { headers: Record<string, unknown> }) : undefined;
    return secret ? `key:${createHash('sha256').update(secret).digest('hex').slice(0, 24)}` : `ip:${req.ip ?? 'unknown'}`;
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    // Subscriptions (over WebSocket) are limited by the connection, not per message.
    if (context.getType<string>() !== 'graphql') return false;
    const g = GqlExecutionContext.create(context).getContext();
    return !g.res && !g.req?.res;
  }

  protected override getRequestResponse(context: ExecutionContext) {
    if (context.getType<string>() === 'graphql') {
      const { req, res } = GqlExecutionContext.create(context).getContext();
      return { req, res: res ?? req.res };
    }
    return super.getRequestResponse(context);
  }
}
