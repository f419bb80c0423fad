import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_EVENT_TYPES } from '@app/webhooks';
import { removeDir, sheet, startApp, TestApp } from './support/app';
import { onEveryEngine } from './support/engines';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** A real receiver on 127.0.0.1: `answer` decides each status; every request is kept. */
async function receiver(answer: (n: number, body: string) => number) {
  const requests: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const answered = answer(requests.length, body);
      requests.push({ headers: req.headers, body, answered });
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 60000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Verifies every request with the standardwebhooks package and returns the accepted ones, deduplicated by webhook-id, in arrival order. */
function acceptedOnce(requests: Received[], secret: string) {
  const wh = new Webhook(secret);
  const seen = new Set<string>();
  const out: Array<{ id: string; payload: any }> = [];
  for (const r of requests) {
    const payload = wh.verify(r.body, r.headers as Record<string, string>) as any;
    const id = String(r.headers['webhook-id']);
    if (r.answered >= 300 || seen.has(id)) continue;
    seen.add(id);
    out.push({ id, payload });
  }
  return out;
}

async function fightWithEvents(t: TestApp, notes: number): Promise<{ fightId: string; seq: number }> {
  const created = await t.http
    .post('/fights')
    .send({
      system: 'narateer',
      name: 'Duel at the ford',
      dice: { mode: 'manual' },
      combatants: [
        { name: 'Mira', sheet: sheet() },
        { name: 'Torvald', sheet: sheet(3) },
      ],
    })
    .expect(201);
  const fightId = created.body.fightId as string;
  let seq = created.body.seq as number;
  for (let i = 0; i < notes; i++)
    seq = (
      await t.http
        .post(`/fights/${fightId}/commands`)
        .send({ type: 'AddNote', text: `note ${i}` })
        .expect(200)
    ).body.seq;
  return { fightId, seq };
}

const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: '0,150,150,150,150,150,150,150',
  WEBHOOK_POLL_MS: '40',
};
const saved = Object.fromEntries(Object.keys({ ...ENV }).map((k) => [k, process.env[k]]));
beforeAll(() => Object.assign(process.env, ENV));
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('webhooks', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  it('a receiver that fails its first three attempts then recovers gets every event of the fight, in order, each webhook-id once, all signed', async () => {
    const hook = await receiver((n) => (n < 3 ? 500 : 204));
    const t = await startApp();
    dirs.push(t.dataDir);
    try {
      const ep = await t.http
        .post('/webhooks/endpoints')
        .send({ url: hook.url, description: 'OBS overlay' })
        .expect(201);
      const secret = ep.body.secret as string;
      expect(secret).toMatch(/^whsec_/);
      expect(ep.body.endpoint).toMatchObject({ url: hook.url, enabled: true, fightId: null, eventTypes: [] });
      const listed = await t.http.get('/webhooks/endpoints').expect(200);
      expect(JSON.stringify(listed.body)).not.toContain(secret);

      const { fightId, seq } = await fightWithEvents(t, 4);
      await until(() => acceptedOnce(hook.requests, secret).length === seq);
      const got = acceptedOnce(hook.requests, secret);
      expect(got.map((g) => g.payload.data.seq)).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
      expect(got.every((g) => g.payload.data.fightId === fightId)).toBe(true);
      // The first three answers were failures of the same first delivery, resent byte for byte.
      const firstId = hook.requests[0].headers['webhook-id'];
      expect(hook.requests.slice(0, 4).map((r) => [r.headers['webhook-id'], r.answered])).toEqual([
        [firstId, 500],
        [firstId, 500],
        [firstId, 500],
        [firstId, 204],
      ]);
      expect(new Set(hook.requests.slice(0, 4).map((r) => r.body)).size).toBe(1);
      // What an overlay needs, without a second call.
      const last = got[got.length - 1].payload;
      expect(last.data.event).toMatchObject({ type: last.type, seq });
      expect(last.data.overlay.combatants.map((c: any) => c.name)).toEqual(['Mira', 'Torvald']);
      expect(last.data.overlay.combatants[0]).toMatchObject({ vitality: 6, maxVitality: 6, conditions: [] });
      expect(last.data.overlay).toHaveProperty('activeCombatantId');

      const deliveries = () =>
        t.http.get(`/webhooks/endpoints/${ep.body.endpoint.id}/deliveries`).query({ limit: 100 }).expect(200);
      // The receiver holds the last request before its answer is back and recorded as delivered.
      await until(async () => (await deliveries()).body.every((d: any) => d.status === 'delivered'));
      const log = await deliveries();
      expect(log.body).toHaveLength(seq);
      expect(log.body.every((d: any) => d.status === 'delivered')).toBe(true);
      const first = log.body.find((d: any) => d.seq === 1);
      const detail = await t.http
        .get(`/webhooks/endpoints/${ep.body.endpoint.id}/deliveries/${first.id}`)
        .expect(200);
      expect(detail.body.attempts.map((a: any) => a.status)).toEqual([500, 500, 500, 204]);
      expect(detail.body.attempts[0]).toMatchObject({ responseExcerpt: 'not now' });

      // Rotation: during the overlap both secrets sign; a test ping shows its first attempt.
      const rotated = await t.http
        .post(`/webhooks/endpoints/${ep.body.endpoint.id}/rotate-secret`)
        .send({ overlapSeconds: 60 })
        .expect(200);
      expect(rotated.body.secret).not.toBe(secret);
      const ping = await t.http.post(`/webhooks/endpoints/${ep.body.endpoint.id}/ping`).expect(200);
      expect(ping.body.delivery).toMatchObject({ eventType: 'webhook.ping', status: 'delivered' });
      expect(ping.body.attempts[0].status).toBe(204);
      const pinged = hook.requests[hook.requests.length - 1];
      for (const s of [secret, rotated.body.secret])
        expect(new Webhook(s).verify(pinged.body, pinged.headers as Record<string, string>)).toMatchObject({
          type: 'webhook.ping',
        });
    } finally {
      await t.close();
      await hook.close();
    }
  });

  it('restarting the service in the middle of retries loses no delivery', async () => {
    let down = true;
    const hook = await receiver(() => (down ? 503 : 200));
    const first = await startApp();
    dirs.push(first.dataDir);
    const ep = await first.http.post('/webhooks/endpoints').send({ url: hook.url }).expect(201);
    const secret = ep.body.secret as string;
    const { fightId, seq } = await fightWithEvents(first, 3);
    await until(() => hook.requests.length >= 2);
    await first.close();

    const second = await startApp({
      dataDir: first.dataDir,
      reuse: { apiKey: first.apiKey, tenantId: first.tenantId },
    });
    try {
      const more = await second.http
        .post(`/fights/${fightId}/commands`)
        .send({ type: 'AddNote', text: 'after the restart' })
        .expect(200);
      down = false;
      await until(() => acceptedOnce(hook.requests, secret).length === more.body.seq);
      expect(more.body.seq).toBe(seq + 1);
      expect(acceptedOnce(hook.requests, secret).map((g) => g.payload.data.seq)).toEqual(
        Array.from({ length: seq + 1 }, (_, i) => i + 1),
      );
    } finally {
      await second.close();
      await hook.close();
    }
  });

  it('manages endpoints over GraphQL too; only the tenant may: a spectator token gets 403', async () => {
    const t = await startApp();
    dirs.push(t.dataDir);
    try {
      const { fightId } = await fightWithEvents(t, 0);
      const created = await t.gql(
        `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { id fightId eventTypes } } }`,
        {
          input: { url: 'http://127.0.0.1:9/hook', fightId, eventTypes: ['GmNoteAdded'] },
        },
      );
      expect(created.errors).toBeUndefined();
      expect(created.data.createWebhookEndpoint.endpoint).toMatchObject({
        fightId,
        eventTypes: ['GmNoteAdded'],
      });
      const listed = await t.gql(`{ webhookEndpoints { id } }`);
      expect(listed.data.webhookEndpoints).toHaveLength(1);

      const token = (await t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator' }).expect(201))
        .body.token as string;
      const denied = await t.anon
        .get('/webhooks/endpoints')
        .set('authorization', `Bearer ${token}`)
        .expect(403);
      expect(denied.body.code).toBe('TENANT_ONLY');
      const other = await t.tenant('other table');
      await t.anon
        .get(`/webhooks/endpoints/${created.data.createWebhookEndpoint.endpoint.id}`)
        .set('authorization', `Bearer ${other.apiKey}`)
        .expect(404);
      await t.anon
        .post('/webhooks/endpoints')
        .set('authorization', `Bearer ${other.apiKey}`)
        .send({ url: 'http://127.0.0.1:9/x', fightId })
        .expect(404);
    } finally {
      await t.close();
    }
  });

  it('create and update validate every endpoint field alike, naming the field', async () => {
    const t = await startApp();
    dirs.push(t.dataDir);
    try {
      const id = (
        await t.http.post('/webhooks/endpoints').send({ url: 'http://127.0.0.1:9/hook' }).expect(201)
      ).body.endpoint.id as string;
      const bad: Array<[string, Record<string, unknown>]> = [
        ['url', { url: 'ftp://example.com/x' }],
        ['eventTypes[0]', { eventTypes: ['Wounds Applied'] }],
        ['eventTypes', { eventTypes: 'WoundsApplied' }],
        ['fightId', { fightId: '' }],
        ['description', { description: 'x'.repeat(501) }],
        ['enabled', { enabled: 'yes' }],
      ];
      for (const [field, body] of bad) {
        const created = await t.http
          .post('/webhooks/endpoints')
          .send({ url: 'http://127.0.0.1:9/hook', ...body });
        const updated = await t.http.patch(`/webhooks/endpoints/${id}`).send(body);
        expect([
          created.status,
          created.body.code,
          created.body.field,
          updated.status,
          updated.body.code,
          updated.body.field,
        ]).toEqual([422, 'INVALID_FIELD', field, 422, 'INVALID_FIELD', field]);
      }
      await t.http
        .post('/webhooks/endpoints')
        .send({ eventTypes: ['WoundsApplied'] })
        .expect(422);
      const patched = await t.http
        .patch(`/webhooks/endpoints/${id}`)
        .send({ eventTypes: ['WoundsApplied'], description: 'overlay', enabled: false })
        .expect(200);
      expect(patched.body).toMatchObject({
        url: 'http://127.0.0.1:9/hook',
        eventTypes: ['WoundsApplied'],
        description: 'overlay',
        enabled: false,
      });
    } finally {
      await t.close();
    }
  });

  it('a URL pointing at a private address is refused with a clear error when not allowed', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = 'false';
    const t = await startApp();
    dirs.push(t.dataDir);
    try {
      for (const url of [
        'http://127.0.0.1:8080/hook',
        'http://10.0.0.7/hook',
        'http://169.254.169.254/latest',
        'http://[::1]/hook',
        'http://[::127.0.0.1]/hook',
        'http://[::ffff:10.0.0.7]/hook',
        'http://0x7f000001/hook',
        'http://localhost:3000/hook',
      ]) {
        const res = await t.http.post('/webhooks/endpoints').send({ url }).expect(422);
        expect(res.body).toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED', field: 'url' });
        expect(res.body.message).toMatch(/WEBHOOK_ALLOW_PRIVATE/);
      }
      const bad = await t.http.post('/webhooks/endpoints').send({ url: 'ftp://example.com/x' }).expect(422);
      expect(bad.body).toMatchObject({ code: 'INVALID_FIELD', field: 'url' });
      expect(
        (
          await t.http
            .post('/webhooks/endpoints')
            .send({ url: 'https://example.com/x', secret: 'mine' })
            .expect(422)
        ).body,
      ).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'secret' });
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
      await t.close();
    }
  });

  it('a tenant has at most WEBHOOK_ENDPOINTS_PER_TENANT endpoints: the next is 409 WEBHOOK_ENDPOINT_LIMIT, on REST and GraphQL, until one is deleted', async () => {
    process.env.WEBHOOK_ENDPOINTS_PER_TENANT = '2';
    const t = await startApp();
    dirs.push(t.dataDir);
    try {
      const url = 'https://example.com/hook';
      const first = await t.http.post('/webhooks/endpoints').send({ url }).expect(201);
      await t.http.post('/webhooks/endpoints').send({ url }).expect(201);
      const refused = await t.http.post('/webhooks/endpoints').send({ url }).expect(409);
      expect(refused.body).toMatchObject({ statusCode: 409, code: 'WEBHOOK_ENDPOINT_LIMIT' });
      expect(refused.body.message).toMatch(/2 webhook endpoints/);
      const gql = await t.http
        .post('/graphql')
        .send({ query: `mutation { createWebhookEndpoint(input: { url: "${url}" }) { secret } }` })
        .expect(200);
      expect(gql.body.errors[0].extensions).toMatchObject({
        code: 'WEBHOOK_ENDPOINT_LIMIT',
        statusCode: 409,
      });
      expect((await t.http.get('/webhooks/endpoints').expect(200)).body).toHaveLength(2);
      // Another tenant has its own count; a deletion makes room.
      const other = await t.tenant('Another table');
      await t.anon
        .post('/webhooks/endpoints')
        .set({ authorization: `Bearer ${other.apiKey}` })
        .send({ url })
        .expect(201);
      await t.http.delete(`/webhooks/endpoints/${first.body.endpoint.id}`).expect(204);
      await t.http.post('/webhooks/endpoints').send({ url }).expect(201);
    } finally {
      delete process.env.WEBHOOK_ENDPOINTS_PER_TENANT;
      await t.close();
    }
  });
});

function endpointFieldsSuite(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup?: () => Promise<void>,
) {
  describe(`an endpoint's fields are what they say (${engine})`, () => {
    let t: TestApp;
    let id: string;
    beforeAll(async () => {
      t = await startApp(opts);
      id = (await t.http.post('/webhooks/endpoints').send({ url: 'https://93.184.216.34/hook' }).expect(201))
        .body.endpoint.id;
    });
    afterAll(async () => {
      if (!t) return;
      await t.close();
      removeDir(t.dataDir);
      await cleanup?.();
    });

    it.each([
      [['Nope'], 'eventTypes[0]'],
      [['fightstarted'], 'eventTypes[0]'],
      [['WoundsApplied', 'Bogus'], 'eventTypes[1]'],
      [['webhook.ping'], 'eventTypes[0]'],
    ])(
      'docs/webhooks.md Filters: given eventTypes %j, then create, update and GraphQL answer 422 INVALID_FIELD naming %s and the known types, and nothing changes',
      async (eventTypes, field) => {
        const count = (await t.http.get('/webhooks/endpoints').expect(200)).body.length;
        const created = await t.http
          .post('/webhooks/endpoints')
          .send({ url: 'https://93.184.216.34/x', eventTypes });
        const updated = await t.http.patch(`/webhooks/endpoints/${id}`).send({ eventTypes });
        for (const res of [created, updated]) {
          expect([res.status, res.body.code, res.body.field]).toEqual([422, 'INVALID_FIELD', field]);
          expect(res.body.message).toContain(`the event types are ${WEBHOOK_EVENT_TYPES.join(', ')}`);
          expect(res.body.issues[0]).toMatchObject({ field, code: 'INVALID_FIELD' });
        }
        const gql = await t.gql(
          'mutation($e: ID!, $types: [String!]) { updateWebhookEndpoint(endpointId: $e, input: { eventTypes: $types }) { id } }',
          { e: id, types: eventTypes },
        );
        expect(gql.errors?.[0]?.extensions).toMatchObject({ statusCode: 422, code: 'INVALID_FIELD', field });
        expect((await t.http.get('/webhooks/endpoints').expect(200)).body).toHaveLength(count);
        expect((await t.http.get(`/webhooks/endpoints/${id}`).expect(200)).body.eventTypes).toEqual([]);
      },
    );

    it('given event types of every system and the lifecycle, then they are taken as sent', async () => {
      const eventTypes = ['FightStarted', 'GmNoteAdded', 'WoundsApplied', 'DiceRequested'];
      for (const type of eventTypes) expect(WEBHOOK_EVENT_TYPES).toContain(type);
      const created = await t.http
        .post('/webhooks/endpoints')
        .send({ url: 'https://93.184.216.34/ok', eventTypes })
        .expect(201);
      expect(created.body.endpoint.eventTypes).toEqual(eventTypes);
      await t.http.delete(`/webhooks/endpoints/${created.body.endpoint.id}`).expect(204);
    });

    it('given a URL of 1,522 characters that is 9,022 as stored (each é percent-encoded), then create and update answer 422 INVALID_FIELD naming url', async () => {
      const url = `https://93.184.216.34/${'é'.repeat(1500)}`;
      const count = (await t.http.get('/webhooks/endpoints').expect(200)).body.length;
      for (const res of [
        await t.http.post('/webhooks/endpoints').send({ url }),
        await t.http.patch(`/webhooks/endpoints/${id}`).send({ url }),
      ]) {
        expect([res.status, res.body.code, res.body.field]).toEqual([422, 'INVALID_FIELD', 'url']);
        expect(res.body.message).toMatch(/^url must be at most 2000 characters as stored/);
      }
      expect((await t.http.get('/webhooks/endpoints').expect(200)).body).toHaveLength(count);
      expect((await t.http.get(`/webhooks/endpoints/${id}`).expect(200)).body.url).toBe(
        'https://93.184.216.34/hook',
      );
      // 300 of them, 1,822 characters as stored, are within it.
      const within = await t.http
        .post('/webhooks/endpoints')
        .send({ url: `https://93.184.216.34/${'é'.repeat(300)}` })
        .expect(201);
      expect(within.body.endpoint.url).toHaveLength(22 + 300 * 6);
      await t.http.delete(`/webhooks/endpoints/${within.body.endpoint.id}`).expect(204);
    });

    it("the OpenAPI document declares an endpoint's fightId as a string or null, in and out", async () => {
      const schemas = (await t.anon.get('/openapi.json').expect(200)).body.components.schemas;
      for (const name of ['CreateWebhookEndpointInput', 'UpdateWebhookEndpointInput', 'WebhookEndpointModel'])
        expect([name, schemas[name].properties.fightId]).toMatchObject([
          name,
          { type: 'string', nullable: true },
        ]);
    });
  });
}

onEveryEngine(endpointFieldsSuite, {
  prefix: 'webhook_fields',
  what: "webhook endpoints' fields",
  title: "an endpoint's fields are what they say",
});
