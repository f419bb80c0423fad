import { RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { LOCATION_METADATA } from '../apps/api/src/common/location';
import { sheet, TEST_ADMIN_KEY, useApp } from './support/app';
import { projected } from './support/read-side';

const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };

describe('HTTP conventions a client library expects', () => {
  const previous = process.env.WEBHOOK_ALLOW_PRIVATE;
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  const t = useApp();
  afterAll(() => {
    if (previous === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
    else process.env.WEBHOOK_ALLOW_PRIVATE = previous;
  });

  const newFight = async () =>
    await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        dice: { mode: 'manual' },
        combatants: [{ id: 'a', name: 'A', sheet: sheet() }],
      })
      .expect(201);

  describe('Location on 201 and 202', () => {
    it('POST /fights: Location is the fight, which answers there', async () => {
      const created = await newFight();
      expect(created.headers.location).toBe(`/fights/${created.body.fightId}`);
      expect((await t.http.get(created.headers.location).expect(200)).body.fightId).toBe(
        created.body.fightId,
      );
    });

    it('tenants, keys (issued and rotated) and tokens name what they created', async () => {
      const tenant = await t.anon.post('/admin/tenants').set(admin).send({ name: 'Located' }).expect(201);
      expect(tenant.headers.location).toBe(`/admin/tenants/${tenant.body.tenantId}`);
      const key = await t.anon
        .post(`/admin/tenants/${tenant.body.tenantId}/keys`)
        .set(admin)
        .send({ label: 'bot' })
        .expect(201);
      expect(key.headers.location).toBe(`/admin/keys/${key.body.keyId}`);
      const rotated = await t.anon.post(`/admin/keys/${key.body.keyId}/rotate`).set(admin).expect(201);
      expect(rotated.headers.location).toBe(`/admin/keys/${rotated.body.keyId}`);
      await t.anon.delete(rotated.headers.location).set(admin).expect(204);
      const fightId = (await newFight()).body.fightId;
      const token = await t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator' }).expect(201);
      expect(token.headers.location).toBe(`/fights/${fightId}/tokens/${token.body.tokenId}`);
    });

    it('webhook endpoints (201) and redeliveries (202) point at the endpoint and its deliveries', async () => {
      const ep = await t.http
        .post('/webhooks/endpoints')
        .send({ url: 'http://127.0.0.1:9/hook' })
        .expect(201);
      expect(ep.headers.location).toBe(`/webhooks/endpoints/${ep.body.endpoint.id}`);
      await t.http.get(ep.headers.location).expect(200);
      const again = await t.http
        .post(`/webhooks/endpoints/${ep.body.endpoint.id}/redeliver`)
        .send({ since: '2020-01-01T00:00:00Z' })
        .expect(202);
      expect(again.headers.location).toBe(`/webhooks/endpoints/${ep.body.endpoint.id}/deliveries`);
      await t.http.get(again.headers.location).expect(200);
    });

    it('a lab run (202) points at its progress', async () => {
      const run = await t.http
        .post('/lab/runs')
        .send({ system: 'narateer', fights: 2, seed: '7', strategies: ['heavy', 'guard'] })
        .expect(202);
      expect(run.headers.location).toBe(`/lab/runs/${run.body.id}`);
      expect((await t.http.get(run.headers.location).expect(200)).body.id).toBe(run.body.id);
    });

    it('every POST answering 201 or 202 declares its Location', () => {
      const missing: string[] = [];
      for (const module of t.app.get(ModulesContainer).values()) {
        for (const { metatype } of module.controllers.values()) {
          const proto = (metatype as { prototype: Record<string, unknown> }).prototype;
          for (const name of Object.getOwnPropertyNames(proto)) {
            const handler = proto[name];
            if (
              typeof handler !== 'function' ||
              Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.POST
            )
              continue;
            const code = Reflect.getMetadata(HTTP_CODE_METADATA, handler) ?? 201;
            if ((code === 201 || code === 202) && !Reflect.getMetadata(LOCATION_METADATA, handler))
              missing.push(`${(metatype as { name: string }).name}.${name}`);
          }
        }
      }
      expect(missing).toEqual([]);
    });
  });

  describe('405 for a method the path does not have (RFC 9110 section 15.5.6)', () => {
    it.each([
      ['delete', '/fights', 'GET, HEAD, POST, OPTIONS'],
      ['put', '/health/live', 'GET, HEAD, OPTIONS'],
      ['patch', '/systems', 'GET, HEAD, OPTIONS'],
    ] as const)('%s %s is 405 METHOD_NOT_ALLOWED with Allow: %s', async (method, path, allow) => {
      const res = await t.http[method](path);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe(allow);
      expect(res.body).toEqual({
        statusCode: 405,
        code: 'METHOD_NOT_ALLOWED',
        message: `${method.toUpperCase()} is not a method of ${path}; it takes ${allow}`,
        field: 'method',
      });
    });

    it('a path with parameters is matched as its route: POST /fights/:id is 405 with Allow: GET, HEAD, and nothing runs', async () => {
      const fightId = (await newFight()).body.fightId as string;
      const res = await t.http.post(`/fights/${fightId}`).send({ type: 'AddNote', text: 'not here' });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect((await t.http.get(`/fights/${fightId}/events`).expect(200)).body).toHaveLength(2);
    });

    it('a path no method has stays 404 NOT_FOUND, without Allow', async () => {
      for (const method of ['get', 'delete'] as const) {
        const res = await t.http[method]('/nowhere/at/all');
        expect(res.status).toBe(404);
        expect(res.headers.allow).toBeUndefined();
        expect(res.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
      }
    });

    it('PUT /graphql is 405 in the GraphQL error shape, with Allow', async () => {
      const res = await t.http.put('/graphql');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toMatch(/^GET, HEAD, POST\b/);
      expect(res.body.errors[0].extensions).toMatchObject({ statusCode: 405, code: 'METHOD_NOT_ALLOWED' });
    });
  });

  describe('415 for a body that is not JSON', () => {
    it('text/plain and form bodies are 415 UNSUPPORTED_MEDIA_TYPE naming content-type, and append nothing', async () => {
      const fightId = (await newFight()).body.fightId;
      const plain = await t.http
        .post(`/fights/${fightId}/commands`)
        .set('content-type', 'text/plain')
        .send('{"type":"AddNote","text":"x"}')
        .expect(415);
      expect(plain.body).toEqual({
        statusCode: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'the body must be application/json, not text/plain',
        field: 'content-type',
      });
      const form = await t.http.post('/fights').type('form').send({ system: 'narateer' }).expect(415);
      expect(form.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const bare = await t.http
        .post('/fights')
        .set('content-type', '')
        .send(Buffer.from('{"system":"narateer"}'))
        .expect(415);
      expect(bare.body.message).toMatch(/send Content-Type/);
      expect((await t.http.get(`/fights/${fightId}/events`).expect(200)).body).toHaveLength(2);
    });

    it('JSON with a charset, +json, NDJSON on /audit/verify and a POST without a body all pass', async () => {
      const fightId = (await newFight()).body.fightId;
      await t.http
        .post(`/fights/${fightId}/commands`)
        .set('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ type: 'AddNote', text: 'x' }))
        .expect(200);
      await t.http
        .post(`/fights/${fightId}/commands`)
        .set('content-type', 'application/merge-patch+json')
        .send(JSON.stringify({ type: 'AddNote', text: 'y' }))
        .expect((r) => expect(r.status).not.toBe(415));
      const ndjson = (await t.http.get(`/fights/${fightId}/log?format=ndjson`).expect(200)).text;
      const verified = await t.http
        .post('/audit/verify')
        .set('content-type', 'application/x-ndjson')
        .send(ndjson);
      expect(verified.status).toBe(200);
      await t.http.post('/audit/verify').set('content-type', 'text/csv').send('a,b').expect(415);
      const key = await t.anon.post(`/admin/tenants/${t.tenantId}/keys`).set(admin).send({}).expect(201);
      await t.anon.post(`/admin/keys/${key.body.keyId}/rotate`).set(admin).expect(201);
    });
  });

  describe('ETag on answers that are a fight’s state, POST as GET', () => {
    it('a command’s answer carries the ETag GET /fights/:id gives that state; If-None-Match is 304 until the fight moves on', async () => {
      const created = await newFight();
      const made = created.headers.etag;
      expect(made).toBe(`W/"${created.body.seq}-${created.body.view.headHash}"`);
      const read = await t.http.get(`/fights/${created.body.fightId}?minSeq=${created.body.seq}`).expect(200);
      expect(read.headers.etag).toBe(made);
      const answered = await t.http
        .post(`/fights/${created.body.fightId}/commands`)
        .send({ type: 'AddNote', text: 'tagged' })
        .expect(200);
      const after = answered.headers.etag;
      expect(after).toBe(`W/"${answered.body.seq}-${answered.body.view.headHash}"`);
      expect(after).not.toBe(made);
      const now = await t.http
        .get(`/fights/${created.body.fightId}?minSeq=${answered.body.seq}`)
        .set('if-none-match', after)
        .expect(304);
      expect(now.headers.etag).toBe(after);
      // The tag of the state before the command is stale: the whole view comes back, with the new tag.
      const stale = await t.http
        .get(`/fights/${created.body.fightId}?minSeq=${answered.body.seq}`)
        .set('if-none-match', made)
        .expect(200);
      expect(stale.headers.etag).toBe(after);
      expect(stale.body.seq).toBe(answered.body.seq);
      // Time travel names the state it shows: the tag of seq 1 is the creation's.
      expect(
        (await t.http.get(`/fights/${created.body.fightId}?at=${created.body.seq}`).expect(200)).headers.etag,
      ).toBe(made);
      // A replayed command answers with the first result, and its tag.
      const again = await t.http
        .post(`/fights/${created.body.fightId}/commands`)
        .send({ type: 'AddNote', text: 'once', commandId: 'etag-once' })
        .expect(200);
      const replay = await t.http
        .post(`/fights/${created.body.fightId}/commands`)
        .send({ type: 'AddNote', text: 'once', commandId: 'etag-once' })
        .expect(200);
      expect(replay.body.replayed).toBe(true);
      expect(replay.headers.etag).toBe(again.headers.etag);
    });

    it('given If-Match on a command: applied in the state it names, else 412 PRECONDITION_FAILED and nothing appended', async () => {
      const created = await newFight();
      const fightId = created.body.fightId as string;
      const command = (ifMatch: string, body: Record<string, unknown> = { type: 'AddNote', text: 'if' }) =>
        t.http.post(`/fights/${fightId}/commands`).set('if-match', ifMatch).send(body);
      const count = async () =>
        (await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length as number;
      const first = await command(created.headers.etag).expect(200);
      expect(first.body.seq).toBe(created.body.seq + 1);
      // The tag compares by the state it names: without its W/ it is the same tag.
      const strong = await command(first.headers.etag.replace(/^W\//, '')).expect(200);
      expect(strong.body.seq).toBe(first.body.seq + 1);
      // The tag of the state before that command is stale now; so is a forged hash at an earlier seq.
      const forged = `W/"${first.body.seq}-${'0'.repeat(64)}"`;
      // The tag of the state now with its seq written with a leading zero is no tag of the fight's: it names
      // no state (as If-None-Match, which compares tags as text, judges it too).
      const now = (await t.http.get(`/fights/${fightId}?minSeq=${strong.body.seq}`).expect(200)).headers.etag;
      const padded = now.replace(/^W\/"(\d+)-/, 'W/"0$1-');
      expect(padded).not.toBe(now);
      for (const stale of [created.headers.etag, forged, '"not-a-fight-tag"', padded]) {
        const before = await count();
        const res = await command(stale);
        expect([stale, res.status, res.body.code, res.body.field]).toEqual([
          stale,
          412,
          'PRECONDITION_FAILED',
          'if-match',
        ]);
        expect(await count()).toBe(before);
      }
      // * is any state; a resend of a commandId replays whatever If-Match says.
      const any = await command('*').expect(200);
      const once = await command(first.headers.etag, { type: 'AddNote', text: 'once', commandId: 'if-once' });
      expect(once.status).toBe(412);
      // The tag of the state now is the last answer's (GET /fights/:id reads the read side, which may lag).
      const sent = await command(any.headers.etag, {
        type: 'AddNote',
        text: 'once',
        commandId: 'if-once',
      }).expect(200);
      expect(
        (
          await command(created.headers.etag, { type: 'AddNote', text: 'once', commandId: 'if-once' }).expect(
            200,
          )
        ).body.replayed,
      ).toBe(true);
      expect(sent.body.replayed).toBe(false);
      // Two tags, no tag syntax, or an expectedSeq naming another state: the request cannot be read.
      for (const [value, body] of [
        [`${first.headers.etag}, ${created.headers.etag}`, undefined],
        ['W/abc', undefined],
        [sent.headers.etag, { type: 'AddNote', text: 'x', expectedSeq: 1 }],
      ] as const) {
        const res = await command(value, body);
        expect([value, res.status, res.body.code, res.body.field]).toEqual([
          value,
          400,
          'VALIDATION_FAILED',
          'if-match',
        ]);
      }
    });
  });

  describe('If-None-Match on a command (RFC 9110 section 13.1.2)', () => {
    it('given *, or the tag of the state now, then 412 naming if-none-match and nothing appended; another state’s tag applies', async () => {
      const created = await newFight();
      const fightId = created.body.fightId as string;
      const command = (ifNoneMatch: string) =>
        t.http
          .post(`/fights/${fightId}/commands`)
          .set('if-none-match', ifNoneMatch)
          .send({ type: 'AddNote', text: 'none' });
      const count = async () =>
        (await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length as number;
      const before = await count();
      for (const value of ['*', created.headers.etag, `W/"1-${'0'.repeat(64)}", ${created.headers.etag}`]) {
        const res = await command(value);
        expect([value, res.status, res.body.code, res.body.field]).toEqual([
          value,
          412,
          'PRECONDITION_FAILED',
          'if-none-match',
        ]);
      }
      expect(await count()).toBe(before);
      // The tag of the state now with a leading zero in its seq names no state (If-Match judges it so too): it goes on.
      const padded = created.headers.etag.replace(/^W\/"(\d+)-/, 'W/"0$1-');
      const goesOn = await command(padded).expect(200);
      expect(goesOn.body.seq).toBe(created.body.seq + 1);
      const applied = await command(`W/"1-${'0'.repeat(64)}"`).expect(200);
      expect(applied.body.seq).toBe(created.body.seq + 2);
      // The state it was sent in is the old one now: excluding it no longer stops a command.
      await command(created.headers.etag).expect(200);
      const bad = await command('no-tag');
      expect([bad.status, bad.body.code, bad.body.field]).toEqual([
        400,
        'VALIDATION_FAILED',
        'if-none-match',
      ]);
    });
  });

  describe('the response headers OpenAPI declares are the ones sent', () => {
    type Doc = {
      paths: Record<
        string,
        Record<
          string,
          { operationId?: string; responses: Record<string, { headers?: Record<string, unknown> }> }
        >
      >;
    };
    const declared = (doc: Doc, operationId: string, status: number) => {
      for (const item of Object.values(doc.paths))
        for (const op of Object.values(item))
          if (op.operationId === operationId)
            return Object.keys(op.responses[String(status)]?.headers ?? {})
              .map((h) => h.toLowerCase())
              .sort();
      throw new Error(`no operation ${operationId}`);
    };

    it('each answer carries every header its status declares (Location, ETag, Link, X-Next-Cursor, WWW-Authenticate, X-Request-Id)', async () => {
      const doc = (await t.http.get('/openapi.json').expect(200)).body as Doc;
      const created = await newFight();
      for (let i = 0; i < 3; i++)
        await t.http
          .post(`/fights/${created.body.fightId}/commands`)
          .send({ type: 'AddNote', text: `n${i}` })
          .expect(200);
      const command = await t.http
        .post(`/fights/${created.body.fightId}/commands`)
        .send({ type: 'AddNote', text: 'last' })
        .expect(200);
      await t.http.get(`/fights/${created.body.fightId}?minSeq=${command.body.seq}`).expect(200);
      const other = await t.tenant('headers');
      const as = { authorization: `Bearer ${other.apiKey}` };
      let last = { fightId: '', seq: 0 };
      for (let i = 0; i < 2; i++)
        last = (await t.anon.post('/fights').set(as).send({ system: 'narateer' }).expect(201)).body;
      // The list is the read model: once it holds the second fight, a page of one has a next.
      await projected(t, last.fightId, last.seq);
      const fights = await t.anon.get('/fights?limit=1').set(as).expect(200);
      const cases: Array<[string, number, { headers: Record<string, unknown> }]> = [
        ['createFight', 201, created],
        ['sendCommand', 200, command],
        ['getFight', 200, await t.http.get(`/fights/${created.body.fightId}`).expect(200)],
        [
          'listFightEvents',
          200,
          await t.http.get(`/fights/${created.body.fightId}/events?limit=2`).expect(200),
        ],
        ['listFights', 200, fights],
        ['listFights', 401, await t.anon.get('/fights').expect(401)],
        [
          'sendCommand',
          401,
          await t.anon
            .post(`/fights/${created.body.fightId}/commands`)
            .set('authorization', 'Bearer nope')
            .send({ type: 'AddNote', text: 'x' })
            .expect(401),
        ],
      ];
      for (const [operationId, status, res] of cases) {
        const names = declared(doc, operationId, status);
        expect([operationId, status, names.length > 0]).toEqual([operationId, status, true]);
        // Sent only when the read side is behind (fight-list-own-writes.e2e.spec.ts).
        const always = names.filter((h) => h !== 'x-read-model-stale');
        expect([operationId, status, always.filter((h) => res.headers[h] === undefined)]).toEqual([
          operationId,
          status,
          [],
        ]);
      }
      expect(declared(doc, 'listFights', 200)).toEqual([
        'etag',
        'link',
        'x-next-cursor',
        'x-read-model-stale',
        'x-request-id',
      ]);
      expect(declared(doc, 'createFight', 201)).toEqual(['etag', 'location', 'x-request-id']);
      expect(declared(doc, 'listFights', 429)).toEqual([
        'ratelimit',
        'ratelimit-policy',
        'retry-after',
        'x-request-id',
      ]);
      expect(declared(doc, 'getFight', 503)).toEqual(['retry-after', 'x-request-id']);
    });
  });

  describe('WWW-Authenticate on every 401', () => {
    it('no credentials: Bearer; unknown ones: Bearer error="invalid_token"', async () => {
      const none = await t.anon.get('/fights').expect(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      const bad = await t.anon
        .post('/fights')
        .set('authorization', 'Bearer nope')
        .send({ system: 'narateer' })
        .expect(401);
      expect(bad.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect(bad.body.code).toBe('INVALID_CREDENTIALS');
      await t.anon
        .get('/systems')
        .expect(200)
        .expect((r) => expect(r.headers['www-authenticate']).toBeUndefined());
    });
  });

  describe('validation reports every failing field', () => {
    it('field names the first; issues lists each with its code, as a refused command does', async () => {
      const fightId = (await newFight()).body.fightId;
      const res = await t.http
        .post(`/fights/${fightId}/tokens`)
        .send({ role: 'boss', expiresAt: 'soon', label: 5, colour: 'red' })
        .expect(422);
      // An unknown field first, as the contract puts a likely typo first: the code is the first issue's.
      expect(res.body).toMatchObject({ statusCode: 422, code: 'UNKNOWN_FIELD', field: 'colour' });
      expect(res.body.issues).toEqual([
        { field: 'colour', code: 'UNKNOWN_FIELD', message: expect.stringMatching(/colour/) },
        { field: 'role', code: 'INVALID_FIELD', message: expect.stringMatching(/role/) },
        { field: 'expiresAt', code: 'INVALID_FIELD', message: expect.stringMatching(/expiresAt/) },
        { field: 'label', code: 'INVALID_FIELD', message: expect.stringMatching(/label/) },
      ]);
      expect(res.body.message).toBe(`${res.body.issues[0].message} (and 3 more: see issues)`);
    });

    it('nested fields are named by their path', async () => {
      const res = await t.http
        .post('/fights')
        .send({ system: 'narateer', dice: { mode: 'loaded', seed: 7 } })
        .expect(422);
      expect(res.body.issues.map((i: { field: string }) => i.field)).toEqual(['dice.mode', 'dice.seed']);
    });
  });
});
