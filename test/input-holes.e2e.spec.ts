import type { FightEvent } from '@app/fights';
import { endpointMatches } from '@app/webhooks';
import type { EndpointRow } from '../libs/webhooks/src/store/types';
import { WEBHOOK_STORE } from '../apps/api/src/webhooks/webhooks.module';
import { removeDir, sheet, startApp, TEST_ADMIN_KEY, TestApp, useEnv } from './support/app';
import { onEveryEngine } from './support/engines';
import { soloFight } from './support/fight-calls';

/**
 * Holes a black-box fuzzer found in the one rule for bad input (README "Errors"): an explicit `null`
 * taken as "absent", an array taken for an object, keys named like Object.prototype's members dropped
 * unseen, bodies and query parameters a route does not declare ignored, and query escapes that are not
 * UTF-8. Each is refused as the rule says, alike on every engine, over REST and GraphQL.
 */

const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };
useEnv({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '40' });

const PROTO_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'];

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 40));
  }
}

function holesSuite(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup: () => Promise<void> = async () => undefined,
) {
  describe(`input holes the fuzzer found (${engine})`, () => {
    let t: TestApp;
    let fightId: string;
    let endpointId: string;
    const endpoint = async () => (await t.http.get(`/webhooks/endpoints/${endpointId}`).expect(200)).body;

    beforeAll(async () => {
      t = await startApp(opts);
      fightId = await soloFight(t);
      endpointId = (
        await t.http
          .post('/webhooks/endpoints')
          .send({ url: 'http://127.0.0.1:9/holes', eventTypes: ['GmNoteAdded'], description: 'd' })
          .expect(201)
      ).body.endpoint.id;
    });
    afterAll(async () => {
      if (!t) return;
      await t.close();
      removeDir(t.dataDir);
      await cleanup();
    });

    const raw = (method: 'post' | 'patch' | 'delete', path: string, text: string, headers = {}) =>
      t.http[method](path).set(headers).set('content-type', 'application/json').send(text);

    describe('1. an optional body field is absent or a valid value: null is 422 INVALID_FIELD naming it', () => {
      const cases: Array<[string, 'post' | 'patch', () => string, Record<string, unknown>, string]> = [
        [
          'PATCH endpoint eventTypes',
          'patch',
          () => `/webhooks/endpoints/${endpointId}`,
          { eventTypes: null },
          'eventTypes',
        ],
        [
          'PATCH endpoint description',
          'patch',
          () => `/webhooks/endpoints/${endpointId}`,
          { description: null },
          'description',
        ],
        [
          'PATCH endpoint enabled',
          'patch',
          () => `/webhooks/endpoints/${endpointId}`,
          { enabled: null },
          'enabled',
        ],
        ['PATCH endpoint url', 'patch', () => `/webhooks/endpoints/${endpointId}`, { url: null }, 'url'],
        [
          'POST endpoint description',
          'post',
          () => '/webhooks/endpoints',
          { url: 'http://127.0.0.1:9/n', description: null },
          'description',
        ],
        [
          'POST endpoint eventTypes',
          'post',
          () => '/webhooks/endpoints',
          { url: 'http://127.0.0.1:9/n', eventTypes: null },
          'eventTypes',
        ],
        [
          'POST endpoint enabled',
          'post',
          () => '/webhooks/endpoints',
          { url: 'http://127.0.0.1:9/n', enabled: null },
          'enabled',
        ],
        [
          'rotate-secret overlapSeconds',
          'post',
          () => `/webhooks/endpoints/${endpointId}/rotate-secret`,
          { overlapSeconds: null },
          'overlapSeconds',
        ],
        [
          'POST /fights combatants',
          'post',
          () => '/fights',
          { system: 'narateer', combatants: null },
          'combatants',
        ],
        ['POST /fights dice', 'post', () => '/fights', { system: 'narateer', dice: null }, 'dice'],
        [
          'POST /fights dice.mode',
          'post',
          () => '/fights',
          { system: 'narateer', dice: { mode: null } },
          'dice.mode',
        ],
        [
          'token label',
          'post',
          () => `/fights/${fightId}/tokens`,
          { role: 'spectator', label: null },
          'label',
        ],
        [
          'token combatantIds',
          'post',
          () => `/fights/${fightId}/tokens`,
          { role: 'player', combatantIds: null },
          'combatantIds',
        ],
        [
          'token expiresAt',
          'post',
          () => `/fights/${fightId}/tokens`,
          { role: 'spectator', expiresAt: null },
          'expiresAt',
        ],
        [
          'lab run roundCap',
          'post',
          () => '/lab/runs',
          { system: 'narateer', fights: 1, seed: 's', roundCap: null },
          'roundCap',
        ],
      ];
      it.each(cases)(
        'given %s: null, then 422 INVALID_FIELD naming it, and nothing changed',
        async (_, method, path, body, field) => {
          const before = await endpoint();
          const res = await t.http[method](path()).send(body);
          expect(res.status).toBe(422);
          expect(res.body).toMatchObject({ code: 'INVALID_FIELD', field });
          expect(res.body.message).toMatch(new RegExp(`^${field.replace('.', '\\.')} must be .*, not null$`));
          expect(await endpoint()).toEqual(before);
        },
      );

      it('given an API key label: null, then 422 INVALID_FIELD label', async () => {
        const res = await t.anon.post(`/admin/tenants/${t.tenantId}/keys`).set(admin).send({ label: null });
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ code: 'INVALID_FIELD', field: 'label' });
      });

      it('given fightId: null, which docs/webhooks.md documents ("all the tenant’s fights"), then it is still taken', async () => {
        const res = await t.http
          .patch(`/webhooks/endpoints/${endpointId}`)
          .send({ fightId: null })
          .expect(200);
        expect(res.body.fightId).toBeNull();
      });

      const gql: Array<[string, string, string]> = [
        [
          'updateWebhookEndpoint eventTypes',
          `updateWebhookEndpoint(endpointId: $e, input: { eventTypes: null }) { id }`,
          'eventTypes',
        ],
        [
          'updateWebhookEndpoint description',
          `updateWebhookEndpoint(endpointId: $e, input: { description: null }) { id }`,
          'description',
        ],
        [
          'updateWebhookEndpoint enabled',
          `updateWebhookEndpoint(endpointId: $e, input: { enabled: null }) { id }`,
          'enabled',
        ],
        [
          'createWebhookEndpoint description',
          `createWebhookEndpoint(input: { url: "http://127.0.0.1:9/g", description: null }) { secret }`,
          'description',
        ],
        [
          'rotateWebhookSecret overlapSeconds',
          `rotateWebhookSecret(endpointId: $e, overlapSeconds: null) { secret }`,
          'overlapSeconds',
        ],
        ['createFight dice', `createFight(input: { system: "narateer", dice: null }) { seq }`, 'dice'],
        [
          'createFight combatants',
          `createFight(input: { system: "narateer", combatants: null }) { seq }`,
          'combatants',
        ],
      ];
      it.each(gql)(
        'given GraphQL %s: null, then the same INVALID_FIELD and field as REST, and nothing changed',
        async (_, op, field) => {
          const before = await endpoint();
          const res = op.includes('$e')
            ? await t.gql(`mutation($e: ID!) { ${op} }`, { e: endpointId })
            : await t.gql(`mutation { ${op} }`);
          expect(res.errors?.[0].extensions).toMatchObject({ statusCode: 422, code: 'INVALID_FIELD', field });
          expect(await endpoint()).toEqual(before);
        },
      );
    });

    describe('1. the webhook worker survives a malformed endpoint row', () => {
      it('given one tenant’s endpoint stored with event_types null, when another tenant’s fight moves, then its endpoint still gets deliveries', async () => {
        const other = await t.tenant('Other table');
        const as = (path: string) => t.anon.get(path).set('authorization', `Bearer ${other.apiKey}`);
        const theirs = (
          await t.anon
            .post('/webhooks/endpoints')
            .set('authorization', `Bearer ${other.apiKey}`)
            .send({ url: 'http://127.0.0.1:9/other' })
            .expect(201)
        ).body.endpoint.id as string;
        const store = t.app.get<{ db: { run(sql: string, params: unknown[]): Promise<number> } }>(
          WEBHOOK_STORE,
        );
        await store.db.run(`UPDATE webhook_endpoints SET event_types = 'null' WHERE id = $1`, [endpointId]);
        const created = await t.anon
          .post('/fights')
          .set('authorization', `Bearer ${other.apiKey}`)
          .send({ system: 'narateer', combatants: [{ id: 'a', name: 'A', sheet: sheet() }] })
          .expect(201);
        await until(
          async () => (await as(`/webhooks/endpoints/${theirs}/deliveries`).expect(200)).body.length > 0,
        );
        const fightStarted = (await as(`/webhooks/endpoints/${theirs}/deliveries`)).body.map(
          (d: { fightId: string }) => d.fightId,
        );
        expect(fightStarted).toContain(created.body.fightId);
        // The malformed row reads as the default, all event types.
        expect((await endpoint()).eventTypes).toEqual([]);
      });
    });

    describe('2. a nested object field takes an object only', () => {
      it.each([[[]], [[1]], [[{ mode: 'zz' }]], ['manual']])(
        'given dice: %j, then 422 INVALID_FIELD dice',
        async (dice) => {
          const res = await t.http.post('/fights').send({ system: 'narateer', dice });
          expect(res.status).toBe(422);
          expect(res.body).toMatchObject({
            code: 'INVALID_FIELD',
            field: 'dice',
            message: 'dice must be an object',
          });
        },
      );
    });

    describe('3. keys named like Object.prototype members are unknown fields, never dropped', () => {
      const key = (name: string) => JSON.stringify(name);
      it.each(PROTO_NAMES)(
        'given %s on POST /fights (top, dice, a sheet), then 422 UNKNOWN_FIELD naming it',
        async (name) => {
          const top = await raw(
            'post',
            '/fights',
            `{"system":"narateer","dice":{"mode":"manual"},${key(name)}:1}`,
          );
          expect(top.status).toBe(422);
          expect(top.body).toMatchObject({ code: 'UNKNOWN_FIELD', field: name });
          const dice = await raw(
            'post',
            '/fights',
            `{"system":"narateer","dice":{"mode":"manual",${key(name)}:1}}`,
          );
          expect(dice.body).toMatchObject({ code: 'UNKNOWN_FIELD', field: `dice.${name}` });
          const sheetText = JSON.stringify(sheet()).replace(/^\{/, `{${key(name)}:1,`);
          const inSheet = await raw(
            'post',
            '/fights',
            `{"system":"narateer","combatants":[{"id":"a","name":"A","sheet":${sheetText}}]}`,
          );
          expect(inSheet.status).toBe(422);
          expect(inSheet.body).toMatchObject({ code: 'UNKNOWN_FIELD', field: `combatants[0].sheet.${name}` });
        },
      );

      const routes: Array<[string, 'post' | 'patch', () => string, string, Record<string, string>]> = [
        ['tenants', 'post', () => '/admin/tenants', '"name":"T"', admin],
        ['API keys', 'post', () => `/admin/tenants/${t.tenantId}/keys`, '"label":"k"', admin],
        ['tokens', 'post', () => `/fights/${fightId}/tokens`, '"role":"spectator"', {}],
        ['webhook create', 'post', () => '/webhooks/endpoints', '"url":"http://127.0.0.1:9/p"', {}],
        ['webhook patch', 'patch', () => `/webhooks/endpoints/${endpointId}`, '"description":"p"', {}],
        [
          'rotate-secret',
          'post',
          () => `/webhooks/endpoints/${endpointId}/rotate-secret`,
          '"overlapSeconds":1',
          {},
        ],
        [
          'redeliver',
          'post',
          () => `/webhooks/endpoints/${endpointId}/redeliver`,
          '"since":"2026-01-01T00:00:00Z"',
          {},
        ],
        ['lab runs', 'post', () => '/lab/runs', '"system":"narateer","fights":1,"seed":"s"', {}],
      ];
      it.each(routes)(
        'given constructor and __proto__ on %s, then 422 UNKNOWN_FIELD naming each',
        async (_, method, path, valid, headers) => {
          for (const name of ['constructor', '__proto__', 'toString']) {
            const res = await raw(method, path(), `{${valid},${key(name)}:1}`, headers);
            expect(res.status).toBe(422);
            expect(res.body).toMatchObject({ code: 'UNKNOWN_FIELD', field: name });
          }
        },
      );

      it('given GraphQL command payload { text, constructor }, then 422 UNKNOWN_FIELD constructor as REST, and nothing applied', async () => {
        const events = async () => (await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length;
        const before = await events();
        const rest = await t.http
          .post(`/fights/${fightId}/commands`)
          .send({ type: 'AddNote', text: 'x', constructor: 1 });
        const res = await t.gql(
          `mutation($f: ID!) { command(fightId: $f, input: { type: "AddNote", payload: { text: "x", constructor: 1 } }) { seq } }`,
          { f: fightId },
        );
        expect(res.errors?.[0].extensions).toMatchObject({ code: rest.body.code, field: rest.body.field });
        expect(rest.body).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'constructor' });
        expect(await events()).toBe(before);
      });

      it.each(['__proto__', 'constructor', 'toString'])(
        'given ?%s=1 on a GET with a query DTO, then 400 VALIDATION_FAILED naming it',
        async (name) => {
          for (const path of ['/fights', `/fights/${fightId}`, `/fights/${fightId}/events`]) {
            const res = await t.http.get(`${path}?${name}=1`);
            expect(res.status).toBe(400);
            expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', field: name });
          }
        },
      );
    });

    describe('4. a route that takes no body refuses one', () => {
      const routes: Array<['post' | 'delete', () => string, Record<string, string>]> = [
        ['post', () => `/webhooks/endpoints/${endpointId}/ping`, {}],
        ['post', () => `/webhooks/endpoints/${endpointId}/deliveries/msg_none/redeliver`, {}],
        ['delete', () => `/fights/${fightId}/tokens/tok_none`, {}],
        ['delete', () => `/admin/keys/key_none`, admin],
      ];
      it.each(routes)(
        'given %s %s with {"zz":1} or [1,2], then 422 UNKNOWN_FIELD zz or 400 VALIDATION_FAILED body',
        async (method, path, headers) => {
          const keyed = await raw(method, path(), '{"zz":1,"constructor":2}', headers);
          expect(keyed.status).toBe(422);
          expect(keyed.body).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'zz' });
          expect(keyed.body.issues.map((i: { field: string }) => i.field)).toEqual(['zz', 'constructor']);
          const list = await raw(method, path(), '[1,2]', headers);
          expect(list.status).toBe(400);
          expect(list.body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'body' });
        },
      );

      it('given ping with no body or {}, then it pings', async () => {
        await t.http.post(`/webhooks/endpoints/${endpointId}/ping`).expect(200);
        await raw('post', `/webhooks/endpoints/${endpointId}/ping`, '{}').expect(200);
      });
    });

    describe('5. a query parameter a route does not declare is 400 VALIDATION_FAILED naming it', () => {
      const routes: Array<[string, () => string]> = [
        ['combatants', () => `/fights/${fightId}/combatants`],
        ['systems', () => '/systems'],
        ['a system', () => '/systems/narateer'],
        ['asyncapi', () => '/asyncapi.json'],
        ['projections', () => '/projections'],
        ['live', () => '/health/live'],
        ['ready', () => '/health/ready'],
        ['metrics', () => '/metrics'],
        ['a lab run', () => '/lab/runs/run_none'],
        ['an endpoint', () => `/webhooks/endpoints/${endpointId}`],
        ['a delivery', () => `/webhooks/endpoints/${endpointId}/deliveries/msg_none`],
      ];
      it.each(routes)('given GET %s?zzz=1, then 400 VALIDATION_FAILED zzz', async (_, path) => {
        const res = await t.http.get(`${path()}?zzz=1`);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'zzz' });
      });

      it('given ?token= on the authenticated GETs that had no query DTO, then it still authenticates', async () => {
        await t.anon.get(`/fights/${fightId}/combatants?token=${t.apiKey}`).expect(200);
        await t.anon.get(`/webhooks/endpoints/${endpointId}?token=${t.apiKey}`).expect(200);
        await t.anon.get(`/projections?token=${t.apiKey}`).expect(200);
      });

      it.each([
        ['the same key twice', (k: string) => `token=${k}&token=${k}`],
        ['two keys', (k: string) => `token=${k}&token=nope`],
      ])('given ?token= as %s, then 400 VALIDATION_FAILED token, not a 401', async (_, query) => {
        for (const path of [`/fights/${fightId}/stream`, `/fights/${fightId}`, '/fights']) {
          const res = await t.anon.get(`${path}?${query(t.apiKey)}`);
          expect([path, res.status, res.body.code, res.body.field]).toEqual([
            path,
            400,
            'VALIDATION_FAILED',
            'token',
          ]);
        }
      });

      it('given GraphQL over GET with ?query=, then it runs', async () => {
        const res = await t.http
          .get('/graphql?query=%7Bsystems%7Bid%7D%7D')
          .set('apollo-require-preflight', 'true');
        expect(res.status).toBe(200);
        expect(res.body.data.systems.length).toBeGreaterThan(0);
      });
    });

    describe('6. a query escape that is not UTF-8 is 400 VALIDATION_FAILED naming the parameter', () => {
      it.each([
        ['/fights?system=%ZZ', 'system'],
        ['/fights?system=%ED%A0%80', 'system'],
        ['/fights?token=%ZZ', 'token'],
        ['/admin/keys?tenantId=%ZZ', 'tenantId'],
        [`/webhooks/endpoints/{ep}/deliveries?fightId=%ZZ`, 'fightId'],
        ['/fights?%ZZ=1', '%ZZ'],
        ['/graphql?query=%ZZ', 'query'],
      ])('given GET %s, then 400 naming %s', async (path, field) => {
        const res = await t.http.get(path.replace('{ep}', endpointId)).set(admin);
        expect(res.status).toBe(400);
        // /graphql answers in the GraphQL error shape, the same fields in `extensions`.
        expect(path.startsWith('/graphql') ? res.body.errors[0].extensions : res.body).toMatchObject({
          code: 'VALIDATION_FAILED',
          field,
          message: `${field} is not valid percent-encoded UTF-8`,
        });
      });

      it('given %00, then still 400 INVALID_STRING; a valid escape still reads', async () => {
        expect((await t.http.get('/fights?system=%00')).body).toMatchObject({
          code: 'INVALID_STRING',
          field: 'system',
        });
        await t.http.get('/fights?system=n%61rateer').expect(200);
      });
    });
  });
}

onEveryEngine(holesSuite, { prefix: 'holes', what: 'input holes', title: 'input holes the fuzzer found' });

describe('endpointMatches (libs/webhooks outbox)', () => {
  const event = { fightId: 'f1', type: 'NoteAdded', at: new Date(2).toISOString() } as FightEvent;
  const row = (eventTypes: unknown) =>
    ({ enabled: true, fightId: null, eventTypes, createdAt: 1 }) as unknown as EndpointRow;
  it('given an endpoint whose event types are null, then it takes every type (the default) rather than throwing', () => {
    expect(endpointMatches(row(null), event)).toBe(true);
    expect(endpointMatches(row(undefined), event)).toBe(true);
    expect(endpointMatches(row(['Other']), event)).toBe(false);
  });
});
