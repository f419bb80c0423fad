import WebSocket from 'ws';
import { sheet, useApp } from './support/app';
import { stoppedClock } from './support/clock';

interface Outcome {
  acknowledged: boolean;
  closed?: { code: number; reason: string };
}

/**
 * A refused connection_init says why in its close: the code graphql-ws gives a rejected init (4403), or
 * the one for a message it cannot read (4400), and a reason that starts with the error code HTTP answers
 * the same credentials with.
 */
describe('graphql-ws: a refused connection_init closes with the code of its refusal', () => {
  const t = useApp({ listen: true });
  let fightId = '';
  beforeAll(async () => {
    fightId = (
      await t.http
        .post('/fights')
        .send({ system: 'narateer', combatants: [{ id: 'a', name: 'A', sheet: sheet() }] })
        .expect(201)
    ).body.fightId;
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  /** Sends connection_init with `payload`, then waits for the ack or the close (a bound on a hang only). */
  async function init(payload: unknown): Promise<Outcome> {
    const socket = new WebSocket(`${t.url!.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    socket.on('error', () => undefined);
    try {
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      return await new Promise<Outcome>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('neither an ack nor a close')), 60_000);
        socket.on('message', (data) => {
          if ((JSON.parse((data as Buffer).toString()) as { type: string }).type !== 'connection_ack') return;
          clearTimeout(timer);
          resolve({ acknowledged: true });
        });
        socket.on('close', (code, reason) => {
          clearTimeout(timer);
          resolve({ acknowledged: false, closed: { code, reason: String(reason) } });
        });
        socket.send(JSON.stringify({ type: 'connection_init', payload }));
      });
    } finally {
      socket.terminate();
    }
  }

  /** The code GET /fights/:id answers with this Authorization header (none when undefined). */
  async function httpCode(authorization: string | undefined): Promise<string> {
    const req = t.anon.get(`/fights/${fightId}`);
    const res = await (authorization === undefined ? req : req.set('authorization', authorization));
    expect(res.status).toBe(401);
    return res.body.code as string;
  }

  const token = async (expiresAt?: string) =>
    (
      await t.http
        .post(`/fights/${fightId}/tokens`)
        .send({ role: 'spectator', ...(expiresAt ? { expiresAt } : {}) })
        .expect(201)
    ).body as { token: string; tokenId: string };

  it.each([
    ['no payload', undefined, undefined],
    ['no authorization', {}, undefined],
    ['an empty authorization', { authorization: '' }, ''],
    ['a key without the Bearer scheme', { authorization: 'ck_not-a-bearer' }, 'ck_not-a-bearer'],
    ['an unknown key', { authorization: 'Bearer ck_unknown' }, 'Bearer ck_unknown'],
  ])(
    'given %s, then 4403 whose reason starts with the code HTTP gives the same credentials',
    async (_, payload, authorization) => {
      const outcome = await init(payload);
      const code = await httpCode(authorization);
      expect(outcome.closed?.code).toBe(4403);
      expect(outcome.closed?.reason).toMatch(new RegExp(`^${code}: .+`));
      expect(Buffer.byteLength(outcome.closed!.reason)).toBeLessThanOrEqual(123);
    },
  );

  it('given no key, then UNAUTHENTICATED; given a wrong one, INVALID_CREDENTIALS: a client can tell them apart', async () => {
    expect((await init({})).closed?.reason).toMatch(/^UNAUTHENTICATED: /);
    expect((await init({ authorization: 'Bearer ck_wrong' })).closed?.reason).toMatch(
      /^INVALID_CREDENTIALS: /,
    );
  });

  it('given a revoked token, then 4403 INVALID_CREDENTIALS, as HTTP answers it', async () => {
    const { token: secret, tokenId } = await token();
    expect(await init({ authorization: `Bearer ${secret}` })).toEqual({ acknowledged: true });
    await t.http.delete(`/fights/${fightId}/tokens/${tokenId}`).expect(204);
    const outcome = await init({ authorization: `Bearer ${secret}` });
    expect(outcome.closed).toEqual({ code: 4403, reason: expect.stringMatching(/^INVALID_CREDENTIALS: /) });
    expect(await httpCode(`Bearer ${secret}`)).toBe('INVALID_CREDENTIALS');
  });

  it('given an expired token, then 4403 INVALID_CREDENTIALS, as HTTP answers it', async () => {
    const { token: secret } = await token(new Date(Date.now() + 60_000).toISOString());
    expect(await init({ authorization: `Bearer ${secret}` })).toEqual({ acknowledged: true });
    stoppedClock().pass(120_000);
    const outcome = await init({ authorization: `Bearer ${secret}` });
    expect(outcome.closed).toEqual({ code: 4403, reason: expect.stringMatching(/^INVALID_CREDENTIALS: /) });
    expect(await httpCode(`Bearer ${secret}`)).toBe('INVALID_CREDENTIALS');
  });

  it.each([
    ['authorization', 'Authorization'],
    ['Authorization', 'authorization'],
    ['authorization', 'AUTHORIZATION'],
  ])(
    'given %s and %s both, then 4400 BAD_REQUEST naming both, as a header sent twice: neither is taken',
    async (first, second) => {
      const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      const outcome = await init({ [first]: `Bearer ${t.apiKey}`, [second]: 'Bearer ck_other' });
      expect(outcome.acknowledged).toBe(false);
      expect(outcome.closed?.code).toBe(4400);
      expect(outcome.closed?.reason).toMatch(/^BAD_REQUEST: authorization is sent more than once/);
      expect(outcome.closed?.reason).toContain(`${first}, ${second}`);
      expect(logged).not.toHaveBeenCalled();
    },
  );

  it.each([
    ['a number', 42],
    ['null', null],
    ['an array', [`Bearer key`]],
    ['an object', { scheme: 'Bearer' }],
    ['a boolean', true],
  ])(
    'given an authorization that is %s, then 4400 INVALID_FIELD saying it must be a string',
    async (type, value) => {
      const outcome = await init({ authorization: value });
      expect(outcome.closed).toEqual({
        code: 4400,
        reason: `INVALID_FIELD: authorization must be a string ("Bearer <key or token>"), not ${type}`,
      });
    },
  );

  it.each(['authorization', 'Authorization', 'AUTHORIZATION'])(
    'given the key as %s alone, then the connection is acknowledged, as a header name in any case is read',
    async (name) => {
      expect(await init({ [name]: `Bearer ${t.apiKey}` })).toEqual({ acknowledged: true });
    },
  );
});
