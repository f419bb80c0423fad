import { sheet, TEST_ADMIN_KEY, useApp } from './support/app';
import { soloFight } from './support/fight-calls';

/**
 * The one rule for bad input (README "Errors"), on every REST route that takes a body and on the
 * GraphQL mutations that take the same input:
 * - 400: the request cannot be read — not JSON (INVALID_JSON), JSON that is not an object
 *   (VALIDATION_FAILED, field `body`), nested too deep (BODY_TOO_DEEP), a string no engine can store
 *   (INVALID_STRING), a bad query or path parameter (VALIDATION_FAILED naming it);
 * - 422: a readable JSON object whose fields break the route's declaration — UNKNOWN_FIELD, INVALID_FIELD,
 *   `field` the first failing one as a path, `issues` every one, unknown fields first — or a rule
 *   (its own code).
 */

const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };

interface Route {
  name: string;
  method: 'post' | 'patch';
  path: () => string;
  admin?: boolean;
  /** A body the route takes (the cases change one thing in it). */
  valid: Record<string, unknown>;
  /** A string field of that body, to carry a string no engine can store. */
  text: string;
  /** Fields of the wrong type, range or enum, each with the path `field` must name. */
  wrong: Array<[Record<string, unknown>, string]>;
  /** The code of a body that is JSON but not an object (VALIDATION_FAILED everywhere; the fight log's own code on /audit/verify). */
  notObject?: string;
  /** Whether the route refuses a field it does not declare (a fight log ignores what it does not read). */
  strict?: boolean;
}

describe('400 for a request that cannot be read, 422 for a readable body whose fields break its declaration (the rules review)', () => {
  const previous = process.env.WEBHOOK_ALLOW_PRIVATE;
  process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
  const t = useApp();
  afterAll(() => {
    if (previous === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
    else process.env.WEBHOOK_ALLOW_PRIVATE = previous;
  });

  const ids: Record<string, string> = {};
  /** A fight log as GET /fights/:id/log exports it: what POST /audit/verify reads. */
  const log: Record<string, unknown> = {};
  beforeAll(async () => {
    ids.fight = await soloFight(t);
    Object.assign(log, (await t.http.get(`/fights/${ids.fight}/log`).expect(200)).body);
    ids.tenant = t.tenantId;
    ids.endpoint = (
      await t.http.post('/webhooks/endpoints').send({ url: 'http://127.0.0.1:9/rule' }).expect(201)
    ).body.endpoint.id;
  });

  const routes: Route[] = [
    {
      name: 'POST /fights',
      method: 'post',
      path: () => '/fights',
      valid: { system: 'narateer', combatants: [{ id: 'a', name: 'A', sheet: sheet() }] },
      text: 'name',
      strict: true,
      wrong: [
        [{ name: 5 }, 'name'],
        [{ system: 42 }, 'system'],
        [{ combatants: 5 }, 'combatants'],
        [{ dice: { mode: 'loaded' } }, 'dice.mode'],
        [{ dice: { drawKey: 'x'.repeat(65) } }, 'dice.drawKey'],
        [{ combatants: [{ id: 'a', name: 'A', side: 5, sheet: sheet() }] }, 'combatants[0].side'],
        [{ combatants: [{ id: 'a', name: 7, sheet: sheet() }] }, 'combatants[0].name'],
        [
          { combatants: [{ id: 'a', name: 'A', sheet: { ...sheet(), maxVitality: -1 } }] },
          'combatants[0].sheet.maxVitality',
        ],
      ],
    },
    {
      name: 'POST /fights/:id/commands',
      method: 'post',
      path: () => `/fights/${ids.fight}/commands`,
      valid: { type: 'AddNote', text: 'a note' },
      text: 'text',
      strict: true,
      wrong: [
        [{ text: 5 }, 'text'],
        [{ type: 5 }, 'type'],
        [{ type: 'Add Note' }, 'type'],
        [{ commandId: '' }, 'commandId'],
        [{ expectedSeq: -1 }, 'expectedSeq'],
        [{ expectedSeq: 1.5 }, 'expectedSeq'],
      ],
    },
    {
      name: 'POST /admin/tenants',
      method: 'post',
      path: () => '/admin/tenants',
      admin: true,
      valid: { name: 'A table' },
      text: 'name',
      strict: true,
      wrong: [
        [{ name: 5 }, 'name'],
        [{ name: '' }, 'name'],
      ],
    },
    {
      name: 'POST /admin/tenants/:tenantId/keys',
      method: 'post',
      path: () => `/admin/tenants/${ids.tenant}/keys`,
      admin: true,
      valid: { label: 'bot' },
      text: 'label',
      strict: true,
      wrong: [[{ label: ['bot'] }, 'label']],
    },
    {
      name: 'POST /fights/:id/tokens',
      method: 'post',
      path: () => `/fights/${ids.fight}/tokens`,
      valid: { role: 'player', combatantIds: ['a'] },
      text: 'label',
      strict: true,
      wrong: [
        [{ role: 'boss' }, 'role'],
        [{ expiresAt: 'soon' }, 'expiresAt'],
        // A check of each item names the item it refused.
        [{ combatantIds: ['a', 5] }, 'combatantIds[1]'],
        // Past the DTO, judged by the service: the same answer.
        [{ combatantIds: [] }, 'combatantIds'],
        [{ expiresAt: '2000-01-01T00:00:00Z' }, 'expiresAt'],
      ],
    },
    {
      name: 'POST /webhooks/endpoints',
      method: 'post',
      path: () => '/webhooks/endpoints',
      valid: { url: 'http://127.0.0.1:9/hook' },
      text: 'description',
      strict: true,
      wrong: [
        [{ url: 'ftp://127.0.0.1/hook' }, 'url'],
        [{ enabled: 'yes' }, 'enabled'],
        [{ eventTypes: ['WoundsApplied', 'not a type'] }, 'eventTypes[1]'],
        // IsUrl takes it; the service's URL guard refuses it.
        [{ url: 'http://user:secret@127.0.0.1:9/hook' }, 'url'],
      ],
    },
    {
      name: 'PATCH /webhooks/endpoints/:endpointId',
      method: 'patch',
      path: () => `/webhooks/endpoints/${ids.endpoint}`,
      valid: { description: 'x' },
      text: 'description',
      strict: true,
      wrong: [
        [{ enabled: 1 }, 'enabled'],
        [{ description: 'x'.repeat(501) }, 'description'],
      ],
    },
    {
      name: 'POST /webhooks/endpoints/:endpointId/rotate-secret',
      method: 'post',
      path: () => `/webhooks/endpoints/${ids.endpoint}/rotate-secret`,
      valid: {},
      text: 'overlapSeconds',
      strict: true,
      wrong: [
        [{ overlapSeconds: -1 }, 'overlapSeconds'],
        [{ overlapSeconds: 'a day' }, 'overlapSeconds'],
      ],
    },
    {
      name: 'POST /webhooks/endpoints/:endpointId/redeliver',
      method: 'post',
      path: () => `/webhooks/endpoints/${ids.endpoint}/redeliver`,
      valid: { since: '2026-01-01T00:00:00Z' },
      text: 'since',
      strict: true,
      wrong: [[{ since: 'yesterday' }, 'since']],
    },
    {
      name: 'POST /lab/runs',
      method: 'post',
      path: () => '/lab/runs',
      valid: { system: 'narateer', fights: 1, seed: 's' },
      text: 'seed',
      strict: true,
      wrong: [
        [{ fights: 0 }, 'fights'],
        [{ fights: '10' }, 'fights'],
        [{ system: 'chess' }, 'system'],
        [{ strategies: 'heavy' }, 'strategies'],
        [{ strategies: ['heavy', ''] }, 'strategies[1]'],
        [{ sheets: [{}, 5] }, 'sheets[1]'],
        [{ roundCap: 1001 }, 'roundCap'],
      ],
    },
    {
      name: 'POST /audit/verify',
      method: 'post',
      path: () => '/audit/verify',
      valid: log,
      text: 'fightId',
      notObject: 'LOG_FORMAT_INVALID',
      wrong: [
        [{ entries: 5 }, 'entries'],
        [{ fightId: 5 }, 'fightId'],
        [{ entries: [{}] }, 'entries[0].fightId'],
      ],
    },
  ];

  const send = (route: Route, body: string) => {
    const req = route.admin
      ? t.anon[route.method](route.path()).set(admin)
      : t.http[route.method](route.path());
    return req.set('content-type', 'application/json').send(body);
  };

  /** The whole error: the one shape, nothing changed by the refusal. */
  const refused = async (route: Route, body: string, status: number, expected: Record<string, unknown>) => {
    const before = (await t.http.get(`/fights/${ids.fight}/events`).expect(200)).body.length;
    const res = await send(route, body);
    expect({ status: res.status, body: res.body }).toMatchObject({
      status,
      body: { statusCode: status, ...expected },
    });
    expect(typeof res.body.message).toBe('string');
    expect((await t.http.get(`/fights/${ids.fight}/events`).expect(200)).body.length).toBe(before);
    return res.body;
  };

  describe.each(routes.map((r) => [r.name, r] as const))('%s', (_name, route) => {
    it('given JSON that does not parse, when sent, then 400 INVALID_JSON', async () => {
      await refused(route, '{"a":', 400, { code: 'INVALID_JSON' });
    });

    it.each([
      ['an array', '[1, 2]'],
      ['an empty array', '[]'],
    ])('given JSON that is %s, not an object, when sent, then 400 naming the body', async (_kind, body) => {
      await refused(route, body, 400, { code: route.notObject ?? 'VALIDATION_FAILED', field: 'body' });
    });

    it('given a body nested deeper than 64 levels, when sent, then 400 BODY_TOO_DEEP', async () => {
      await refused(
        route,
        JSON.stringify({ ...route.valid, [route.text]: JSON.parse('['.repeat(70) + ']'.repeat(70)) }),
        400,
        { code: 'BODY_TOO_DEEP', field: 'body' },
      );
    });

    it('given a string holding U+0000, when sent, then 400 INVALID_STRING naming its field', async () => {
      await refused(route, JSON.stringify({ ...route.valid, [route.text]: 'a\u0000b' }), 400, {
        code: 'INVALID_STRING',
        field: route.text,
      });
    });

    if (route.strict) {
      it('given a field the route does not declare, when sent, then 422 UNKNOWN_FIELD naming it, in issues', async () => {
        const error = await refused(route, JSON.stringify({ ...route.valid, colour: 'red' }), 422, {
          code: 'UNKNOWN_FIELD',
          field: 'colour',
        });
        expect(error.issues).toEqual([
          { field: 'colour', code: 'UNKNOWN_FIELD', message: expect.stringContaining('colour') },
        ]);
      });

      it('given an unknown field and a wrong one, when sent, then 422 with both in issues, the unknown (likely a typo) first', async () => {
        const [patch, field] = route.wrong[0];
        const error = await refused(route, JSON.stringify({ ...route.valid, ...patch, colour: 'red' }), 422, {
          code: 'UNKNOWN_FIELD',
          field: 'colour',
        });
        expect(error.issues.map((i: { field: string; code: string }) => [i.field, i.code])).toEqual([
          ['colour', 'UNKNOWN_FIELD'],
          [field, 'INVALID_FIELD'],
        ]);
      });
    }

    it.each(route.wrong.map(([patch, field]) => [JSON.stringify(patch), patch, field] as const))(
      'given %s, when sent, then 422 naming the field',
      async (_shown, patch, field) => {
        const error = await refused(route, JSON.stringify({ ...route.valid, ...patch }), 422, { field });
        // A field of the wrong type, range or enum is INVALID_FIELD with issues; a check of the service's own keeps its code.
        if (error.code === 'INVALID_FIELD')
          expect(error.issues).toEqual([
            expect.objectContaining({
              field,
              code: 'INVALID_FIELD',
              message: expect.stringContaining(field),
            }),
          ]);
        else expect(error.code).toMatch(/^(LOG_FORMAT_INVALID|LAB_[A-Z_]+)$/);
      },
    );
  });

  describe('query and path parameters that cannot be read are 400 VALIDATION_FAILED (or INVALID_STRING) naming them, with a body where the route takes one', () => {
    it.each([
      ['post', '/audit/verify?events=ten', 'events', 'VALIDATION_FAILED'],
      ['post', '/audit/verify?headHash=abc', 'headHash', 'VALIDATION_FAILED'],
      ['get', '/fights?limit=0', 'limit', 'VALIDATION_FAILED'],
      ['get', '/fights?colour=red', 'colour', 'VALIDATION_FAILED'],
      ['get', '/fights/{fight}?at=0x10', 'at', 'VALIDATION_FAILED'],
      ['get', '/webhooks/endpoints/{endpoint}/deliveries?status=lost', 'status', 'VALIDATION_FAILED'],
      ['post', '/fights/a%00b/commands', 'id', 'INVALID_STRING'],
    ] as const)('%s %s → 400 %s naming %s', async (method, path, field, code) => {
      const req = t.http[method](path.replace('{fight}', ids.fight).replace('{endpoint}', ids.endpoint));
      // A GET with a body is 400 BODY_NOT_ALLOWED before its query is read (test/edge-leftovers.e2e.spec.ts).
      const res = await (method === 'post'
        ? req.send({ type: 'AddNote', text: 'x', format: 'combat-rules-fight-log/1', entries: [] })
        : req);
      expect({ status: res.status, body: res.body }).toMatchObject({
        status: 400,
        body: { statusCode: 400, code, field },
      });
    });
  });

  it('given a fight log in NDJSON whose line is not JSON, when verified, then 400 LOG_FORMAT_INVALID naming the line: it cannot be read', async () => {
    const res = await t.http
      .post('/audit/verify')
      .set('content-type', 'application/x-ndjson')
      .send('{"format":\nnot json\n');
    expect({ status: res.status, body: res.body }).toMatchObject({
      status: 400,
      body: { statusCode: 400, code: 'LOG_FORMAT_INVALID', field: expect.stringMatching(/^line \d+$/) },
    });
  });

  describe('GraphQL mutations answer the same input with the same code and field in extensions', () => {
    const CREATE = 'mutation($input: CreateFightInput!) { createFight(input: $input) { seq } }';
    const COMMAND =
      'mutation($id: ID!, $input: CommandInputGql!) { command(fightId: $id, input: $input) { seq } }';
    const LAB = 'mutation($input: StartLabRunInput!) { startLabRun(input: $input) { id } }';
    const HOOK =
      'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }';
    const REDELIVER =
      'mutation($id: ID!, $input: RedeliverSinceInput!) { redeliverWebhooksSince(endpointId: $id, input: $input) { requeued } }';
    const VERIFY = 'mutation($log: JSONObject!) { verifyFightLog(log: $log) }';
    const ROTATE =
      'mutation($id: ID!, $overlapSeconds: Int) { rotateWebhookSecret(endpointId: $id, overlapSeconds: $overlapSeconds) { secret } }';

    const cases: Array<
      [
        string,
        'post' | 'patch',
        () => string,
        Record<string, unknown> | (() => Record<string, unknown>),
        (body: Record<string, unknown>) => [string, Record<string, unknown>],
        string,
        string,
      ]
    > = [
      [
        'an empty fight name',
        'post',
        () => '/fights',
        { system: 'narateer', name: '' },
        (b) => [CREATE, { input: b }],
        'INVALID_FIELD',
        'name',
      ],
      [
        'a dice mode that is not one',
        'post',
        () => '/fights',
        { system: 'narateer', dice: { mode: 'loaded' } },
        (b) => [CREATE, { input: b }],
        'INVALID_FIELD',
        'dice.mode',
      ],
      [
        'a combatant side of the wrong type',
        'post',
        () => '/fights',
        { system: 'narateer', combatants: [{ name: 'A', side: 5, sheet: sheet() }] },
        (b) => [CREATE, { input: b }],
        'INVALID_FIELD',
        'combatants[0].side',
      ],
      [
        'a combatant field nobody declared',
        'post',
        () => '/fights',
        { system: 'narateer', combatants: [{ name: 'A', colour: 'red', sheet: sheet() }] },
        (b) => [CREATE, { input: b }],
        'UNKNOWN_FIELD',
        'combatants[0].colour',
      ],
      [
        'seeded dice without a seed (a rule)',
        'post',
        () => '/fights',
        { system: 'narateer', dice: { mode: 'seeded' } },
        (b) => [CREATE, { input: b }],
        'DICE_SEED_REQUIRED',
        'dice.seed',
      ],
      [
        'a negative expectedSeq',
        'post',
        () => `/fights/${ids.fight}/commands`,
        { type: 'AddNote', expectedSeq: -1 },
        ({ type, expectedSeq }) => [
          COMMAND,
          { id: ids.fight, input: { type, expectedSeq, payload: { text: 'x' } } },
        ],
        'INVALID_FIELD',
        'expectedSeq',
      ],
      [
        'a command type that is not a name',
        'post',
        () => `/fights/${ids.fight}/commands`,
        { type: 'Add Note' },
        ({ type }) => [COMMAND, { id: ids.fight, input: { type } }],
        'INVALID_FIELD',
        'type',
      ],
      [
        'a payload field of the wrong type',
        'post',
        () => `/fights/${ids.fight}/commands`,
        { type: 'AddNote', text: 5 },
        ({ type, ...payload }) => [COMMAND, { id: ids.fight, input: { type, payload } }],
        'INVALID_FIELD',
        'text',
      ],
      [
        'a lab run of no fights',
        'post',
        () => '/lab/runs',
        { system: 'narateer', fights: 0, seed: 's' },
        (b) => [LAB, { input: b }],
        'INVALID_FIELD',
        'fights',
      ],
      [
        'a lab strategy that does not exist (the lab’s own code)',
        'post',
        () => '/lab/runs',
        { system: 'narateer', fights: 1, seed: 's', strategies: ['nope'] },
        (b) => [LAB, { input: b }],
        'LAB_UNKNOWN_STRATEGY',
        'strategies[0]',
      ],
      [
        'a webhook URL that is not http(s)',
        'post',
        () => '/webhooks/endpoints',
        { url: 'ftp://127.0.0.1/hook' },
        (b) => [HOOK, { input: b }],
        'INVALID_FIELD',
        'url',
      ],
      [
        'a webhook event type list with one that is no event type (a check of each item)',
        'post',
        () => '/webhooks/endpoints',
        { url: 'http://127.0.0.1:9/hook', eventTypes: ['WoundsApplied', 'not a type'] },
        (b) => [HOOK, { input: b }],
        'INVALID_FIELD',
        'eventTypes[1]',
      ],
      [
        'a webhook URL with credentials',
        'post',
        () => '/webhooks/endpoints',
        { url: 'http://user:secret@127.0.0.1:9/hook' },
        (b) => [HOOK, { input: b }],
        'INVALID_FIELD',
        'url',
      ],
      [
        'a negative secret overlap',
        'post',
        () => `/webhooks/endpoints/${ids.endpoint}/rotate-secret`,
        { overlapSeconds: -1 },
        (b) => [ROTATE, { id: ids.endpoint, ...b }],
        'INVALID_FIELD',
        'overlapSeconds',
      ],
      [
        'a secret overlap over a week',
        'post',
        () => `/webhooks/endpoints/${ids.endpoint}/rotate-secret`,
        { overlapSeconds: 604_801 },
        (b) => [ROTATE, { id: ids.endpoint, ...b }],
        'INVALID_FIELD',
        'overlapSeconds',
      ],
      [
        'a redelivery since no date',
        'post',
        () => `/webhooks/endpoints/${ids.endpoint}/redeliver`,
        { since: 'yesterday' },
        (b) => [REDELIVER, { id: ids.endpoint, input: b }],
        'INVALID_FIELD',
        'since',
      ],
      [
        'a fight log whose fightId is not a string',
        'post',
        () => '/audit/verify',
        () => ({ ...log, fightId: 5 }),
        (b) => [VERIFY, { log: b }],
        'LOG_FORMAT_INVALID',
        'fightId',
      ],
    ];

    it.each(cases)(
      'given %s, REST and GraphQL both answer 422 with the same code and field',
      async (_name, method, path, input, gql, code, field) => {
        const body = typeof input === 'function' ? input() : input;
        const rest = await (method === 'post' ? t.http.post(path()) : t.http.patch(path())).send(body);
        expect({ status: rest.status, body: rest.body }).toMatchObject({
          status: 422,
          body: { statusCode: 422, code, field },
        });
        const [query, variables] = gql(body);
        const answer = await t.gql(query, variables);
        expect(answer.errors?.[0].extensions).toMatchObject({ statusCode: 422, code, field });
        if (rest.body.issues)
          expect(answer.errors?.[0].extensions.issues).toEqual(
            rest.body.issues.map((i: { field: string; code: string }) =>
              expect.objectContaining({ field: i.field, code: i.code }),
            ),
          );
        else expect(answer.errors?.[0].extensions.issues).toBeUndefined();
      },
    );
  });
});
