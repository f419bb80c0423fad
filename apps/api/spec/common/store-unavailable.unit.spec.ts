import { type ArgumentsHost, Logger } from '@nestjs/common';
import { AllExceptionsFilter } from '../../src/common/all-exceptions.filter';
import { toApiError } from '../../src/common/to-api-error';
import { AppError } from '@app/fights';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

/** The REST side of the filter, recording what it sends. */
function restHost() {
  const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
  // What the filter uses of a Fastify reply.
  const res = {
    header: (name: string, value: string) => ((sent.headers[name.toLowerCase()] = value), res),
    status: (status: number) => ((sent.status = status), res),
    send: (body: unknown) => ((sent.body = body), res),
  };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ id: 'req-1' }) }),
  } as unknown as ArgumentsHost;
  return { host, sent };
}

describe('a lost database connection is a 503 STORE_UNAVAILABLE with Retry-After', () => {
  // The filter logs every 5xx; the test only reads the answers.
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));
  afterAll(() => jest.restoreAllMocks());

  it.each([
    [
      '57P01, pg_terminate_backend or a restart',
      pgError('57P01', 'terminating connection due to administrator command'),
    ],
    ['08006, connection failure', pgError('08006', 'connection failure')],
    ['ECONNREFUSED, the server is down', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a socket ended mid-statement', new Error('Connection terminated unexpectedly')],
  ])('%s', (_name, error) => {
    expect(toApiError(error)).toMatchObject({ statusCode: 503, code: 'STORE_UNAVAILABLE' });
    expect(toApiError(error).message).not.toContain(error.message);
    const { host, sent } = restHost();
    new AllExceptionsFilter().catch(error, host);
    expect(sent).toMatchObject({
      status: 503,
      headers: { 'retry-after': '1' },
      body: { code: 'STORE_UNAVAILABLE' },
    });
  });

  it('other database errors stay a 500 without Retry-After', () => {
    const error = pgError('42P01', 'relation "events" does not exist');
    expect(toApiError(error)).toMatchObject({ statusCode: 500, code: 'INTERNAL' });
    const { host, sent } = restHost();
    new AllExceptionsFilter().catch(error, host);
    expect(sent.status).toBe(500);
    expect(sent.headers).toEqual({});
  });
});

describe('a busy verifier is a 503 VERIFIER_BUSY with Retry-After, and no stack in the log', () => {
  afterEach(() => jest.restoreAllMocks());

  it('given the AppError the verifier refuses with, sends it as it is and logs nothing', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { host, sent } = restHost();
    new AllExceptionsFilter().catch(new AppError(503, 'VERIFIER_BUSY', 'the verifier is busy'), host);
    expect(sent).toEqual({
      status: 503,
      headers: { 'retry-after': '1' },
      body: { statusCode: 503, code: 'VERIFIER_BUSY', message: 'the verifier is busy' },
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it('given a lost connection, still logs its stack', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    new AllExceptionsFilter().catch(pgError('57P01', 'terminating connection'), restHost().host);
    expect(logged).toHaveBeenCalledTimes(1);
  });
});
