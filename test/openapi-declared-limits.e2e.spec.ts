import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, startApp, TEST_ADMIN_KEY, TestApp } from './support/app';
import { duelFight } from './support/fight-calls';
import { base } from './support/archsoul-sheets';

/**
 * "What comes in is declared and checked": a client, linter or fuzzer that trusts schema/openapi.json never
 * gets a 400 or 422 for input the document calls valid. Each limit the server enforces is read here from the
 * document, and the server is asked at it (taken) and one past it (refused), so a limit that is enforced but
 * not declared, or declared other than enforced, fails.
 */
type Schema = {
  $ref?: string;
  type?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  items?: Schema;
  'x-propertyNames'?: Schema;
};
type Parameter = { name: string; in: string; schema: Schema };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};

const DOC = JSON.parse(readFileSync(join(__dirname, '../schema/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
const component = (s: Schema) => (s.$ref ? DOC.components.schemas[s.$ref.split('/').pop()!] : s);
const operation = (id: string) => {
  for (const [path, item] of Object.entries(DOC.paths))
    for (const [method, op] of Object.entries(item)) if (op.operationId === id) return { path, method, op };
  throw new Error(`no operation ${id}`);
};
const bodyProperty = (schemaName: string, field: string) => {
  const found = DOC.components.schemas[schemaName]?.properties?.[field];
  if (!found) throw new Error(`${schemaName} declares no ${field}`);
  return found;
};

describe('the OpenAPI document declares every limit the server enforces', () => {
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE;
  let t: TestApp;
  let fightId: string;
  let endpointId: string;
  const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
    t = await startApp();
    fightId = await duelFight(t);
    endpointId = (await t.http.post('/webhooks/endpoints').send({ url: 'http://localhost/hook' }).expect(201))
      .body.endpoint.id;
  });
  afterAll(async () => {
    await t.close();
    removeDir(t.dataDir);
    if (saved === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
    else process.env.WEBHOOK_ALLOW_PRIVATE = saved;
  });

  /** Each read operation with an integer query parameter, as a URL the test can call, and who may call it. */
  const READS: Array<[string, () => string, 'tenant' | 'admin']> = [
    ['listFights', () => '/fights', 'tenant'],
    ['getFight', () => `/fights/${fightId}`, 'tenant'],
    ['listCombatants', () => `/fights/${fightId}/combatants`, 'tenant'],
    ['listFightEvents', () => `/fights/${fightId}/events`, 'tenant'],
    ['listTenants', () => '/admin/tenants', 'admin'],
    ['listApiKeys', () => '/admin/keys', 'admin'],
    ['listFightTokens', () => `/fights/${fightId}/tokens`, 'tenant'],
    ['listWebhookEndpoints', () => '/webhooks/endpoints', 'tenant'],
    ['listWebhookDeliveries', () => `/webhooks/endpoints/${endpointId}/deliveries`, 'tenant'],
  ];

  it('every numeric query parameter of the document is one of the reads checked below, and declared integer', () => {
    const numeric: string[] = [];
    for (const item of Object.values(DOC.paths))
      for (const op of Object.values(item))
        for (const p of op.parameters ?? [])
          if (
            p.in === 'query' &&
            (p.schema.type === 'number' || p.schema.type === 'integer') &&
            op.operationId !== 'verifyFightLog'
          )
            numeric.push(`${op.operationId} ${p.name} ${p.schema.type}`);
    // The stream reads ?after= as the events list does; it answers with a stream, so it is not called here.
    // POST /audit/verify's ?events= is declared by hand, and checked in the audit suites.
    const checked = new Set([...READS.map(([id]) => id), 'streamFightEvents']);
    expect(numeric.filter((n) => !checked.has(n.split(' ')[0]))).toEqual([]);
    expect(numeric.filter((n) => !n.endsWith(' integer'))).toEqual([]);
  });

  it.each(READS)(
    '%s: each integer query parameter is taken at its declared bounds and refused past them, and as a fraction',
    async (id, url, who) => {
      const params = (operation(id).op.parameters ?? []).filter(
        (p) => p.in === 'query' && (p.schema.type === 'number' || p.schema.type === 'integer'),
      );
      expect(params.length).toBeGreaterThan(0);
      const get = (name: string, value: string | number) =>
        t.anon
          .get(`${url()}?${name}=${value}`)
          .set(who === 'admin' ? admin : { authorization: `Bearer ${t.apiKey}` });
      for (const { name, schema } of params) {
        expect([id, name, schema.type]).toEqual([id, name, 'integer']);
        // The server refuses a fraction: the document says integer, so no client sends one.
        const fraction = await get(name, 1.5);
        expect([name, fraction.status, fraction.body.code]).toEqual([name, 400, 'VALIDATION_FAILED']);
        // Every one has a lower bound: the server refuses -1 for each.
        expect([name, typeof schema.minimum]).toEqual([name, 'number']);
        const atMin = await get(name, schema.minimum!);
        expect([name, schema.minimum, atMin.status]).not.toEqual([name, schema.minimum, 400]);
        const belowMin = await get(name, schema.minimum! - 1);
        expect([name, schema.minimum! - 1, belowMin.status]).toEqual([name, schema.minimum! - 1, 400]);
        if (schema.maximum !== undefined) {
          const atMax = await get(name, schema.maximum);
          expect([name, schema.maximum, atMax.status]).not.toEqual([name, schema.maximum, 400]);
          const aboveMax = await get(name, String(BigInt(schema.maximum) + 1n));
          expect([name, aboveMax.status]).toEqual([name, 400]);
        }
      }
    },
  );

  it('every object a request body takes says additionalProperties: false (the server refuses an undeclared field, 422 UNKNOWN_FIELD)', () => {
    const open: string[] = [];
    const seen = new Set<Schema>();
    const walk = (schema: Schema | undefined, at: string): void => {
      if (!schema) return;
      const s = component(schema);
      if (!s || seen.has(s)) return;
      seen.add(s);
      if (s.properties && s.additionalProperties !== false) open.push(at);
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        walk(prop, `${at}.${name}`);
        for (const sub of prop.allOf ?? []) walk(sub, `${at}.${name}`);
        walk(prop.items, `${at}.${name}[]`);
      }
    };
    for (const [path, item] of Object.entries(DOC.paths))
      for (const [method, op] of Object.entries(item)) {
        const json = op.requestBody?.content['application/json']?.schema;
        // POST /audit/verify takes a fight log as exported, whatever it holds (the auditor judges it).
        if (json && op.operationId !== 'verifyFightLog') walk(json, `${method} ${path}`);
      }
    expect(open).toEqual([]);
  });

  it('an undeclared field is refused in each body the document closes', async () => {
    const sends: Array<[string, () => Promise<{ status: number; body: { code?: string } }>]> = [
      ['createFight', () => t.http.post('/fights').send({ system: 'narateer', zz: 1 })],
      ['createFight dice', () => t.http.post('/fights').send({ system: 'narateer', dice: { zz: 1 } })],
      ['createTenant', () => t.anon.post('/admin/tenants').set(admin).send({ name: 'x', zz: 1 })],
      ['issueApiKey', () => t.anon.post(`/admin/tenants/${t.tenantId}/keys`).set(admin).send({ zz: 1 })],
      ['issueFightToken', () => t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator', zz: 1 })],
      [
        'startLabRun',
        () => t.http.post('/lab/runs').send({ system: 'narateer', fights: 1, seed: 's', zz: 1 }),
      ],
      [
        'createWebhookEndpoint',
        () => t.http.post('/webhooks/endpoints').send({ url: 'http://localhost/', zz: 1 }),
      ],
      ['updateWebhookEndpoint', () => t.http.patch(`/webhooks/endpoints/${endpointId}`).send({ zz: 1 })],
      [
        'rotateWebhookSecret',
        () => t.http.post(`/webhooks/endpoints/${endpointId}/rotate-secret`).send({ zz: 1 }),
      ],
      [
        'redeliverWebhookDeliveriesSince',
        () =>
          t.http
            .post(`/webhooks/endpoints/${endpointId}/redeliver`)
            .send({ since: '2026-01-01T00:00:00Z', zz: 1 }),
      ],
    ];
    for (const [what, send] of sends) {
      const res = await send();
      expect([what, res.status, res.body.code]).toEqual([what, 422, 'UNKNOWN_FIELD']);
    }
  });

  /** A body field's declared length bounds, each tried at the bound (taken) and one past it (refused). */
  const LENGTHS: Array<{
    schema: string;
    field: string;
    send: (value: string) => Promise<{ status: number; body: { code?: string; field?: string } }>;
    /** A value of n characters the field's other rules take. */
    of?: (n: number) => string;
  }> = [
    {
      schema: 'CreateTenantDto',
      field: 'name',
      send: (name) => t.anon.post('/admin/tenants').set(admin).send({ name }),
    },
    {
      schema: 'IssueKeyDto',
      field: 'label',
      send: (label) => t.anon.post(`/admin/tenants/${t.tenantId}/keys`).set(admin).send({ label }),
    },
    {
      schema: 'IssueTokenDto',
      field: 'label',
      send: (label) => t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator', label }),
    },
    {
      schema: 'CreateFightInput',
      field: 'name',
      send: (name) => t.http.post('/fights').send({ system: 'narateer', name }),
    },
    {
      schema: 'CreateWebhookEndpointInput',
      field: 'url',
      send: (url) => t.http.post('/webhooks/endpoints').send({ url }),
      of: (n) => `http://localhost/${'a'.repeat(n - 'http://localhost/'.length)}`,
    },
    {
      schema: 'CreateWebhookEndpointInput',
      field: 'description',
      send: (description) =>
        t.http.post('/webhooks/endpoints').send({ url: 'http://localhost/', description }),
    },
    {
      schema: 'UpdateWebhookEndpointInput',
      field: 'description',
      send: (description) => t.http.patch(`/webhooks/endpoints/${endpointId}`).send({ description }),
    },
    {
      schema: 'StartLabRunInput',
      field: 'seed',
      send: (seed) =>
        t.http.post('/lab/runs').send({ system: 'narateer', fights: 1, seed, strategies: ['heavy'] }),
    },
  ];

  it.each(LENGTHS.map((c) => [`${c.schema}.${c.field}`, c] as const))(
    '%s: taken at its declared maxLength (and minLength), refused one past either',
    async (_, { schema, field, send, of = (n: number) => 'x'.repeat(n) }) => {
      const declared = bodyProperty(schema, field);
      expect(typeof declared.maxLength).toBe('number');
      const atMax = await send(of(declared.maxLength!));
      expect([field, declared.maxLength, atMax.status < 300]).toEqual([field, declared.maxLength, true]);
      const past = await send(of(declared.maxLength! + 1));
      expect([field, past.status, past.body.field]).toEqual([field, 422, field]);
      if (declared.minLength) {
        const short = await send(of(declared.minLength - 1));
        expect([field, short.status, short.body.field]).toEqual([field, 422, field]);
      }
    },
  );

  it('webhook eventTypes: each a declared event type, each once, so a list may name every one, as the server checks', async () => {
    const declared = bodyProperty('CreateWebhookEndpointInput', 'eventTypes');
    const known = declared.items!.enum as string[];
    expect(known.length).toBeGreaterThan(100);
    expect(declared).toMatchObject({ maxItems: known.length, uniqueItems: true });
    const send = (eventTypes: unknown[]) =>
      t.http.post('/webhooks/endpoints').send({ url: 'http://localhost/', eventTypes });
    // Every event type named once: the longest list there can be.
    expect((await send(known)).status).toBe(201);
    expect((await send([known[0], known[0]])).body).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'eventTypes[1]',
    });
    expect((await send(['NoSuchEvent'])).body).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'eventTypes[0]',
    });
    expect((await send([...known, known[0]])).body).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'eventTypes',
    });
  });

  it('token combatantIds and lab strategies are declared uniqueItems, and a repeat is refused', async () => {
    expect(bodyProperty('IssueTokenDto', 'combatantIds')).toMatchObject({ uniqueItems: true, maxItems: 50 });
    expect(bodyProperty('StartLabRunInput', 'strategies')).toMatchObject({ uniqueItems: true });
    const token = await t.http
      .post(`/fights/${fightId}/tokens`)
      .send({ role: 'player', combatantIds: ['mira', 'mira'] });
    expect([token.status, token.body.field]).toEqual([422, 'combatantIds[1]']);
    const lab = await t.http
      .post('/lab/runs')
      .send({ system: 'narateer', fights: 1, seed: 's', strategies: ['heavy', 'heavy'] });
    expect(lab.status).toBe(422);
  });

  it('the Archsoul sheet declares its skill names (x-propertyNames, OpenAPI 3.0 has no propertyNames), as the server checks them', async () => {
    const skills = bodyProperty('ArchsoulSheet', 'skills');
    const names = skills['x-propertyNames']!;
    expect(names).toMatchObject({ type: 'string', pattern: expect.any(String) });
    const pattern = new RegExp(names.pattern!);
    const builtIn = (names as { not?: { enum?: string[] } }).not?.enum ?? [];
    const create = (skill: string) =>
      t.http.post('/fights').send({
        system: 'archsoul',
        combatants: [{ name: 'K', sheet: { ...base, skills: { [skill]: 1 } } }],
      });
    for (const key of ['Fencing', 'a'.repeat(40), 'b9']) {
      expect([key, pattern.test(key) && !builtIn.includes(key)]).toEqual([key, true]);
      expect([key, (await create(key)).status]).toEqual([key, 201]);
    }
    for (const key of ['9lives', 'a'.repeat(41), 'two words', 'toString', 'constructor']) {
      expect([key, pattern.test(key) && !builtIn.includes(key)]).toEqual([key, false]);
      expect([key, (await create(key)).status]).toEqual([key, 422]);
    }
  });

  it('ids a sheet looks things up by say the names every object has are refused (not: enum), as the server refuses them', async () => {
    const weapons = bodyProperty('ArchsoulSheet', 'weapons');
    const id = (weapons.items as Schema).properties!.id as Schema & { not?: { enum?: string[] } };
    expect(id.not?.enum).toEqual(expect.arrayContaining(['toString', 'constructor', 'valueOf']));
  });
});
