import WebSocket from 'ws';
import { useApp, type TestApp } from './support/app';

/** Edges a black-box run of the service found: OPTIONS and CORS preflights, pages' 401s, GraphQL's envelope, webhook event types. */

const ORIGIN = 'https://ok.example';

const newFight = async (t: TestApp) =>
  (await t.http.post('/fights').send({ system: 'narateer' }).expect(201)).body.fightId as string;

describe('OPTIONS and CORS preflights answer with the path’s own methods', () => {
  const cors = useApp({ config: { corsOrigins: [ORIGIN] } });
  const plain = useApp();

  const preflight = (t: TestApp, path: string, method: string) =>
    t.anon.options(path).set('origin', ORIGIN).set('access-control-request-method', method);
  const allowed = (header: string | undefined) => (header ?? '').split(/\s*,\s*/);

  it('given CORS_ORIGINS, when a browser asks to DELETE a token or a key or to PATCH or DELETE a webhook endpoint, then the preflight allows that method', async () => {
    for (const [path, method] of [
      ['/fights/f1/tokens/t1', 'DELETE'],
      ['/admin/keys/k1', 'DELETE'],
      ['/webhooks/endpoints/ep1', 'PATCH'],
      ['/webhooks/endpoints/ep1', 'DELETE'],
    ]) {
      const res = await preflight(cors, path, method);
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(allowed(res.headers['access-control-allow-methods'])).toContain(method);
    }
  });

  it('given CORS_ORIGINS, when a preflight asks for a method the path does not have, then that method is not allowed; the path’s own are listed', async () => {
    const fights = await preflight(cors, '/fights', 'DELETE');
    expect(fights.status).toBe(204);
    expect(allowed(fights.headers['access-control-allow-methods'])).toEqual(['GET', 'HEAD', 'POST']);
    const endpoint = await preflight(cors, '/webhooks/endpoints/ep1', 'POST');
    expect(endpoint.status).toBe(204);
    expect(allowed(endpoint.headers['access-control-allow-methods'])).toEqual([
      'GET',
      'HEAD',
      'PATCH',
      'DELETE',
    ]);
  });

  it('given CORS_ORIGINS, when a preflight names a path no route has, then it is 404 NOT_FOUND in the error shape, allowing nothing', async () => {
    const res = await preflight(cors, '/nowhere/at/all', 'DELETE');
    expect(res.status).toBe(404);
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    expect(res.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  describe.each([
    ['with CORS on', cors],
    ['with CORS off', plain],
  ])('%s', (_, t) => {
    it('when OPTIONS comes without CORS headers, then 204 with Allow listing the path’s methods (RFC 9110 section 9.3.7)', async () => {
      const fightId = await newFight(t);
      const fight = await t.anon.options(`/fights/${fightId}`);
      expect(fight.status).toBe(204);
      expect(fight.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(fight.text).toBe('');
      const graphql = await t.anon.options('/graphql');
      expect(graphql.status).toBe(204);
      expect(graphql.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
      expect((await t.anon.options('/fights/f1/tokens/t1')).headers.allow).toBe('GET, HEAD, DELETE, OPTIONS');
    });

    it('when OPTIONS names a path no route has, then 404 NOT_FOUND in the error shape, without Allow', async () => {
      const res = await t.anon.options('/nowhere/at/all');
      expect(res.status).toBe(404);
      expect(res.headers.allow).toBeUndefined();
      expect(res.body).toEqual({
        statusCode: 404,
        code: 'NOT_FOUND',
        message: 'Cannot OPTIONS /nowhere/at/all',
        field: 'path',
      });
    });
  });
});

describe('conditional commands, 401 pages, GraphQL’s envelope, webhook event types', () => {
  const previous = process.env.WEBHOOK_ALLOW_PRIVATE;
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  const t = useApp({ listen: true });
  afterAll(() => {
    if (previous === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
    else process.env.WEBHOOK_ALLOW_PRIVATE = previous;
  });

  it('given an empty If-Match or If-None-Match on a command, then 400 VALIDATION_FAILED naming the header, and nothing is applied', async () => {
    const fightId = await newFight(t);
    const events = async () => (await t.http.get(`/fights/${fightId}/events`).expect(200)).body as unknown[];
    const before = (await events()).length;
    const note = { type: 'AddNote', text: 'should not land' };
    for (const header of ['if-match', 'if-none-match']) {
      const res = await t.http.post(`/fights/${fightId}/commands`).set(header, '').send(note);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', field: header });
    }
    expect(await events()).toHaveLength(before);
  });

  it('given a bad ?token=, when the overlay or the replay page answers 401, then it says how to authenticate: WWW-Authenticate: Bearer error="invalid_token"', async () => {
    const fightId = await newFight(t);
    for (const page of ['overlay', 'replay']) {
      const res = await t.anon.get(`/${page}/${fightId}?token=not-a-token`);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
  });

  describe('GraphQL over HTTP takes query, operationName, variables and extensions, nothing else', () => {
    it('given a POST body with another member, then 400 BAD_REQUEST naming it, and nothing runs', async () => {
      const res = await t.http.post('/graphql').send({ query: '{ __typename }', foo: 1 });
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors[0].extensions).toMatchObject({
        statusCode: 400,
        code: 'BAD_REQUEST',
        field: 'foo',
      });
      expect(res.body.errors[0].message).toContain('foo');
    });

    it('given a GET with another query parameter, then 400 BAD_REQUEST naming it; the four parameters alone still answer', async () => {
      const get = (search: string) =>
        t.http.get(`/graphql?${search}`).set('apollo-require-preflight', 'true');
      const refused = await get(`query=${encodeURIComponent('{ __typename }')}&foo=1`);
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].extensions).toMatchObject({
        statusCode: 400,
        code: 'BAD_REQUEST',
        field: 'foo',
      });
      const fine = await get(
        `query=${encodeURIComponent('query Q { __typename }')}&operationName=Q&variables=${encodeURIComponent('{}')}&extensions=${encodeURIComponent('{}')}`,
      );
      expect(fine.status).toBe(200);
      expect(fine.body).toEqual({ data: { __typename: 'Query' } });
    });

    it("given a POST with GET's parameters in its query string, then 400 BAD_REQUEST naming the first, and nothing runs", async () => {
      const created = `mutation { createFight(input: { system: "narateer" }) { seq } }`;
      const res = await t.http
        .post(`/graphql?query=${encodeURIComponent(created)}`)
        .send({ query: '{ __typename }' });
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors[0].extensions).toMatchObject({
        statusCode: 400,
        code: 'BAD_REQUEST',
        field: 'query',
      });
      expect(res.body.errors[0].message).toContain('a POST sends it in its body');
      const named = await t.http.post('/graphql?operationName=Q').send({ query: 'query Q { __typename }' });
      expect([named.status, named.body.errors?.[0].extensions.field]).toEqual([400, 'operationName']);
      const fine = await t.http
        .post('/graphql')
        .send({ query: 'query Q { __typename }', operationName: 'Q' });
      expect(fine.body).toEqual({ data: { __typename: 'Query' } });
    });

    it('given a graphql-ws subscribe payload with another member, then that operation ends with an error naming it, and the socket stays open', async () => {
      const socket = new WebSocket(t.url!.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
      const messages: Array<{ id?: string; type: string; payload?: any }> = [];
      let wake = () => {};
      socket.on('message', (data) => {
        messages.push(JSON.parse((data as Buffer).toString()));
        wake();
      });
      const next = (match: (m: (typeof messages)[number]) => boolean) =>
        new Promise<(typeof messages)[number]>((resolve) => {
          const look = () => {
            const found = messages.find(match);
            if (found) resolve(found);
          };
          wake = look;
          look();
        });
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      try {
        socket.send(
          JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${t.apiKey}` } }),
        );
        await next((m) => m.type === 'connection_ack');
        socket.send(
          JSON.stringify({ id: 'x', type: 'subscribe', payload: { query: '{ __typename }', foo: 1 } }),
        );
        const error = await next((m) => m.id === 'x');
        expect(error.type).toBe('error');
        expect(error.payload[0].extensions).toMatchObject({
          statusCode: 400,
          code: 'BAD_REQUEST',
          field: 'foo',
        });
        socket.send(JSON.stringify({ id: 'y', type: 'subscribe', payload: { query: '{ __typename }' } }));
        expect(await next((m) => m.id === 'y')).toMatchObject({
          type: 'next',
          payload: { data: { __typename: 'Query' } },
        });
      } finally {
        socket.close();
      }
    });

    it('given U+0000 in a string literal, then INVALID_STRING names the argument (and the place inside it), as a variable is named', async () => {
      const { errors } = await t.gql('{ fight(fightId: "\\u0000") { seq } }');
      expect(errors?.[0].extensions).toMatchObject({ code: 'INVALID_STRING', field: 'fightId' });
      const nested = await t.gql(
        'mutation { createWebhookEndpoint(input: { url: "http://127.0.0.1:9/h", eventTypes: ["FightStarted", "a\\u0000"] }) { secret } }',
      );
      expect(nested.errors?.[0].extensions).toMatchObject({
        code: 'INVALID_STRING',
        field: 'input.eventTypes[1]',
      });
    });
  });

  describe('a webhook endpoint’s eventTypes', () => {
    it('given a repeated entry, then 422 INVALID_FIELD naming the repeat, as a token’s combatantIds, over REST and GraphQL, on create and change', async () => {
      const twice = ['FightStarted', 'WoundsApplied', 'FightStarted'];
      const created = await t.http
        .post('/webhooks/endpoints')
        .send({ url: 'http://127.0.0.1:9/h', eventTypes: twice });
      expect(created.status).toBe(422);
      expect(created.body).toMatchObject({ code: 'INVALID_FIELD', field: 'eventTypes[2]' });
      expect(created.body.message).toBe('eventTypes[2] repeats FightStarted (eventTypes[0])');
      const ok = await t.http
        .post('/webhooks/endpoints')
        .send({ url: 'http://127.0.0.1:9/h', eventTypes: ['FightStarted'] })
        .expect(201);
      const id = ok.body.endpoint.id as string;
      const patched = await t.http.patch(`/webhooks/endpoints/${id}`).send({ eventTypes: twice });
      expect(patched.status).toBe(422);
      expect(patched.body).toMatchObject({ code: 'INVALID_FIELD', field: 'eventTypes[2]' });
      const gql = await t.gql(
        'mutation($id: ID!, $types: [String!]) { updateWebhookEndpoint(endpointId: $id, input: { eventTypes: $types }) { id } }',
        { id, types: twice },
      );
      expect(gql.errors?.[0].extensions).toMatchObject({ code: 'INVALID_FIELD', field: 'eventTypes[2]' });
      expect((await t.http.get(`/webhooks/endpoints/${id}`).expect(200)).body.eventTypes).toEqual([
        'FightStarted',
      ]);
    });
  });
});
