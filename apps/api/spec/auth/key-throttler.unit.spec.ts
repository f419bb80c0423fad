import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { AppError } from '@app/fights';
import { KeyThrottlerGuard } from '../../src/auth/key-throttler.guard';

/** A graphql-ws operation: its GraphQL context carries the connection's connection_init payload. */
function wsOperation(connectionParams: Record<string, unknown>): ExecutionContextHost {
  const context = new ExecutionContextHost([{}, {}, { connectionParams }, {}]);
  context.setType('graphql');
  return context;
}

/** A REST request with this Authorization header, and a reply that takes the rate-limit headers. */
function httpRequest(authorization: string): ExecutionContextHost {
  const context = new ExecutionContextHost([
    { method: 'GET', headers: { authorization } },
    { header: () => undefined },
  ]);
  context.setType('http');
  return context;
}

const refusal = (run: () => unknown): AppError => {
  try {
    run();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('not refused');
};

describe('the rate limiter reads a graphql-ws connection’s key as connection_init was read', () => {
  it('given authorization in two cases, then BAD_REQUEST naming it, never the lowercase one taken unsaid', () => {
    const guard = new KeyThrottlerGuard({ limit: 10, windowMs: 1000 });
    const e = refusal(() =>
      guard.canActivate(wsOperation({ authorization: 'Bearer ck_a', Authorization: 'Bearer ck_b' })),
    );
    expect([e.status, e.code, e.field]).toEqual([400, 'BAD_REQUEST', 'authorization']);
  });

  it('given an authorization that is no string, then INVALID_FIELD naming it', () => {
    const guard = new KeyThrottlerGuard({ limit: 10, windowMs: 1000 });
    const e = refusal(() => guard.canActivate(wsOperation({ authorization: ['Bearer ck_a'] })));
    expect([e.code, e.field]).toEqual(['INVALID_FIELD', 'authorization']);
  });

  it('given the key as AUTHORIZATION, then its operations count in the window of its HTTP requests', () => {
    const guard = new KeyThrottlerGuard({ limit: 1, windowMs: 60_000 });
    expect(guard.canActivate(httpRequest('Bearer ck_same'))).toBe(true);
    expect(refusal(() => guard.canActivate(wsOperation({ AUTHORIZATION: 'Bearer ck_same' }))).code).toBe(
      'RATE_LIMITED',
    );
  });
});
