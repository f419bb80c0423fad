import request from 'supertest';
import WebSocket from 'ws';
import { removeDir, startApp, type TestApp, useApp, useEnv } from './support/app';
import { onEveryEngine } from './support/engines';
import { mira, orin } from './support/narateer-sheets';
import { projected } from './support/read-side';

useEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' });

const JSON_TYPE = 'application/json';
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/** A query whose `$v` reaches the event store as a filter (PostgreSQL refuses a NUL in it with an error of its own). */
const DELIVERIES =
  'query Page($e: ID!, $v: ID) { webhookDeliveriesPage(endpointId: $e, fightId: $v) { limit } }';

/** GET /graphql with these parameters as they are sent (`variables` as JSON text), with the header CSRF prevention asks for. */
function get(t: TestApp, params: Record<string, string>, accept = JSON_TYPE) {
  return request(t.app.getHttpServer())
    .get(`/graphql?${new URLSearchParams(params).toString()}`)
    .set('authorization', `Bearer ${t.apiKey}`)
    .set('accept', accept)
    .set('apollo-require-preflight', 'true');
}

/** POST /graphql whose body holds `variables` (and `extensions`) as this JSON text, byte for byte. */
function post(t: TestApp, query: string, members: Record<string, string>, accept = JSON_TYPE) {
  const rest = Object.entries(members).map(([name, text]) => `,${JSON.stringify(name)}:${text}`);
  return request(t.app.getHttpServer())
    .post('/graphql')
    .set('authorization', `Bearer ${t.apiKey}`)
    .set('accept', accept)
    .set('content-type', JSON_TYPE)
    .send(`{"query":${JSON.stringify(query)}${rest.join('')}}`);
}

/** What a refusal says: its status, media type and the one error shape's code and field. */
const answer = (res: request.Response) => ({
  status: res.status,
  type: String(res.headers['content-type']).split(';')[0],
  code: res.body.errors?.[0]?.extensions?.code,
  field: res.body.errors?.[0]?.extensions?.field,
});

onEveryEngine(
  (engine, opts, cleanup) => {
    describe(`README "Errors": GET /graphql reads its variables as POST reads its body (${engine})`, () => {
      let t: TestApp;
      let endpointId = '';
      let fightId = '';
      beforeAll(async () => {
        t = await startApp(opts);
        endpointId = (
          await t.http.post('/webhooks/endpoints').send({ url: 'http://127.0.0.1:9/hook' }).expect(201)
        ).body.endpoint.id;
        fightId = (await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201)).body
          .fightId;
      }, 60_000);
      afterAll(async () => {
        await t?.close();
        if (t) removeDir(t.dataDir);
        await cleanup?.();
      });

      it('given a NUL in a GET variable, then 400 INVALID_STRING naming the variable, on every engine (never a 500 or a 200)', async () => {
        for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE]) {
          const res = await get(
            t,
            { query: DELIVERIES, variables: `{"e":"${endpointId}","v":"a\\u0000"}` },
            accept,
          );
          expect(answer(res)).toEqual({ status: 400, type: accept, code: 'INVALID_STRING', field: 'v' });
          expect(res.body.errors[0].extensions.statusCode).toBe(400);
          expect(res.body.data).toBeUndefined();
        }
      });

      it('given a lone surrogate in a GET variable, then 400 INVALID_STRING naming it', async () => {
        const res = await get(t, { query: DELIVERIES, variables: `{"e":"${endpointId}","v":"x\\ud800"}` });
        expect(answer(res)).toMatchObject({ status: 400, code: 'INVALID_STRING', field: 'v' });
      });

      it('given a GET variable sent twice, then 400 DUPLICATE_KEY naming it, not the last one taken (RFC 7493)', async () => {
        const query = 'query Fight($f: ID!) { fight(fightId: $f) { seq } }';
        const res = await get(t, { query, variables: `{"f":"nope","f":"${fightId}"}` });
        expect(answer(res)).toMatchObject({ status: 400, code: 'DUPLICATE_KEY', field: 'f' });
        expect(res.body.data).toBeUndefined();
        // Once, it runs.
        const once = await get(t, { query, variables: `{"f":"${fightId}"}` }).expect(200);
        expect(once.body.data.fight.seq).toBeGreaterThanOrEqual(1);
      });

      it('given the same bad variables or extensions, then GET and POST answer the same status, code and field', async () => {
        const deep = `${'['.repeat(70)}${']'.repeat(70)}`;
        const cases: Array<[Record<string, string>, string, string]> = [
          [{ variables: `{"e":"${endpointId}","v":"a\\u0000"}` }, 'INVALID_STRING', 'v'],
          [{ variables: `{"e":"${endpointId}","v":"\\udc00"}` }, 'INVALID_STRING', 'v'],
          [{ variables: `{"e":"${endpointId}","v":"a","v":"b"}` }, 'DUPLICATE_KEY', 'v'],
          [{ variables: `{"e":"${endpointId}","v":{"a":1,"a":2}}` }, 'DUPLICATE_KEY', 'v.a'],
          [{ variables: `{"e":"${endpointId}","v":[{"x\\u0000":1}]}` }, 'INVALID_STRING', 'v[0].x\\u0000'],
          [{ variables: `{"e":"${endpointId}","v":${deep}}` }, 'BODY_TOO_DEEP', 'body'],
          [
            { variables: `{"e":"${endpointId}"}`, extensions: '{"a":1,"a":2}' },
            'DUPLICATE_KEY',
            'extensions.a',
          ],
          [
            { variables: `{"e":"${endpointId}"}`, extensions: '{"a":"\\u0000"}' },
            'INVALID_STRING',
            'extensions.a',
          ],
        ];
        for (const [members, code, field] of cases)
          for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE]) {
            const viaPost = answer(await post(t, DELIVERIES, members, accept));
            const viaGet = answer(await get(t, { query: DELIVERIES, ...members }, accept));
            expect([members, viaPost]).toEqual([members, { status: 400, type: accept, code, field }]);
            expect([members, viaGet]).toEqual([members, viaPost]);
          }
      });

      it('given good variables, then GET runs the query as before', async () => {
        const res = await get(t, { query: DELIVERIES, variables: `{"e":"${endpointId}","v":"${fightId}"}` });
        expect(res.status).toBe(200);
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data.webhookDeliveriesPage.limit).toBeGreaterThan(0);
      });
    });
  },
  { prefix: 'getvars', what: 'GET /graphql variables', title: 'GET /graphql reads its variables as POST' },
);

describe('README "Errors": an enum value written inside a JSON input is refused, never dropped', () => {
  const t = useApp();
  let fightId = '';
  const events = async (id: string) => (await t.http.get(`/fights/${id}/events`).expect(200)).body.length;
  /** The fights the tenant has, by id (their rows change as commands land; the ids only when one is created). */
  const fights = async () =>
    (await t.http.get('/fights').expect(200)).body.items.map((f: { fightId: string }) => f.fightId);
  const send = (payload: string) =>
    t.gql(
      `mutation Send($f: ID!) { command(fightId: $f, input: { type: "AddNote", payload: ${payload} }) { seq } }`,
      { f: fightId },
    );
  const refusal = (field: string) => ({
    statusCode: 400,
    code: 'GRAPHQL_VALIDATION_FAILED',
    field,
    message: expect.stringContaining(field),
  });

  beforeAll(async () => {
    const created = await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        combatants: [
          { id: 'mira', name: 'Mira', side: 'ford', sheet: mira },
          { id: 'orin', name: 'Orin', side: 'bandits', sheet: orin },
        ],
      })
      .expect(201);
    fightId = created.body.fightId;
    // The fight list is a read model: it is compared before and after once it holds this fight.
    await projected(t, fightId, created.body.seq);
  });

  it('given a command payload with an enum value, then 400 naming the member, and no event is appended', async () => {
    const before = await events(fightId);
    for (const [payload, field] of [
      ['{ text: "x", combatantId: FOO }', 'input.payload.combatantId'],
      ['{ text: "x", about: { who: [1, BAR] } }', 'input.payload.about.who[1]'],
    ]) {
      const res = await send(payload);
      expect([payload, res.errors?.[0].extensions]).toEqual([payload, refusal(field)]);
      expect(res.data).toBeUndefined();
    }
    expect(await events(fightId)).toBe(before);
    // Written as a string, the same note is taken with its combatantId.
    const taken = await send('{ text: "x", combatantId: "mira" }');
    expect(taken.errors).toBeUndefined();
    const log = (await t.http.get(`/fights/${fightId}/events`).expect(200)).body;
    expect(log).toHaveLength(before + 1);
    expect(log[before].data).toMatchObject({ text: 'x', combatantId: 'mira' });
  });

  it('given a combatant, its sheet or the options of createFight with an enum value, then 400 naming the member, and no fight is created', async () => {
    const before = await fights();
    for (const [input, field] of [
      [
        '{ system: "narateer", combatants: [{ id: "a", name: "A", sheet: {} }, { id: "b", name: "B", side: FOO, sheet: {} }] }',
        'input.combatants[1].side',
      ],
      [
        '{ system: "narateer", combatants: [{ id: "a", name: "A", sheet: { vitals: { strength: TWO } } }] }',
        'input.combatants[0].sheet.vitals.strength',
      ],
      ['{ system: "arcana-beast", options: { playerSides: FOO } }', 'input.options.playerSides'],
      ['{ system: "arcana-beast", options: { playerSides: ["a", FOO] } }', 'input.options.playerSides[1]'],
    ]) {
      const res = await t.gql(`mutation { createFight(input: ${input}) { fightId } }`);
      expect([input, res.errors?.[0].extensions]).toEqual([input, refusal(field)]);
      expect(res.data).toBeUndefined();
    }
    expect(await fights()).toEqual(before);
  });

  it('given a JSON value that is an enum value itself, then it is refused as before', async () => {
    const res = await send('FOO');
    expect(res.errors?.[0].extensions).toMatchObject({ statusCode: 400, code: 'GRAPHQL_VALIDATION_FAILED' });
    expect(res.data).toBeUndefined();
  });

  it('given the same mutation over graphql-ws, then its operation ends with the same error', async () => {
    const live = await startApp({ listen: true });
    try {
      const socket = new WebSocket(`${live.url!.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      const messages: Array<{ id?: string; type: string; payload?: unknown }> = [];
      const arrived = (match: (m: { id?: string; type: string }) => boolean) =>
        new Promise<{ type: string; payload?: unknown }>((resolve) => {
          const look = () => {
            const found = messages.find(match);
            return found ? resolve(found) : setTimeout(look, 20);
          };
          look();
        });
      socket.on('message', (data) => messages.push(JSON.parse((data as Buffer).toString())));
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      socket.send(
        JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${live.apiKey}` } }),
      );
      await arrived((m) => m.type === 'connection_ack');
      const query =
        'mutation { createFight(input: { system: "arcana-beast", options: { playerSides: FOO } }) { fightId } }';
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
      const answered = await arrived((m) => m.id === '1' && (m.type === 'next' || m.type === 'error'));
      expect(answered.type).toBe('error');
      expect(
        (answered.payload as Array<{ extensions: Record<string, unknown> }>)[0].extensions,
      ).toMatchObject({
        statusCode: 400,
        code: 'GRAPHQL_VALIDATION_FAILED',
        field: 'input.options.playerSides',
      });
      socket.close();
    } finally {
      await live.close();
      removeDir(live.dataDir);
    }
  });
});
