import fc from 'fast-check';
import { narateer } from '@app/rules';
import { removeDir, sheet, startApp, TEST_ADMIN_KEY, TestApp } from './support/app';

/** Hostile input: random and malformed payloads never give a 5xx, and a refusal changes nothing. */
const FIELDS = [
  'attackerId',
  'targetId',
  'combatantId',
  'kind',
  'weaponId',
  'boost',
  'response',
  'dice',
  'rerollFaces',
  'followUpFaces',
  'allocation',
  'count',
  'order',
  'combatant',
  'text',
  'position',
  'path',
  'condition',
  'form',
  'harm',
  'wounds',
  'woundMargin',
  'edge',
  'distance',
  'reason',
  'expectedSeq',
  'commandId',
  'tieBreak',
  'lingeringHarmId',
  'ad',
  'md',
  'proactiveUse',
  'revealedSeed',
  'damageVital',
  'intensity',
  'rounds',
  '__proto__',
  'constructor',
];
const COMMANDS = [
  ...Object.keys(narateer.commands),
  'UndoCommands',
  'StartFight',
  'Nope',
  '',
  'toString',
  'constructor',
  '__proto__',
  'hasOwnProperty',
];

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    'mira',
    'orin',
    'sword',
    'melee',
    'ranged',
    'clash',
    'fullGuard',
    'none',
    'AD',
    'MD',
    -1,
    0,
    1,
    2,
    6,
    7,
    1e9,
    -1e9,
    0.5,
    NaN,
    '',
    null,
    [],
    {},
  ),
  fc.array(fc.integer({ min: -3, max: 9 }), { maxLength: 8 }),
  fc.record({ x: fc.integer({ min: -2, max: 12 }), y: fc.integer({ min: -2, max: 12 }) }),
);
const payload = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 });
const command = fc.tuple(fc.constantFrom(...COMMANDS), payload).map(([type, p]) => ({ ...p, type }));

const weapon = {
  id: 'sword',
  name: 'Sword',
  kind: 'melee',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitals: ['strength', 'agility'],
  damageVitalCap: 3,
  weight: 'light',
  reach: 1,
  harm: { domain: 'Physical', type: 'Slashing' },
};

describe('hostile input: property-based', () => {
  let t: TestApp;
  let fightId: string;
  const log = async () => JSON.stringify((await t.http.get(`/fights/${fightId}/events`).expect(200)).body);

  function assertClean(res: { status: number; body: any; text?: string }) {
    expect(res.status).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.body).toMatchObject({ statusCode: res.status });
      expect(res.body.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(typeof res.body.message).toBe('string');
      expect(JSON.stringify(res.body)).not.toMatch(/\bat .+:\d+:\d+|node_modules/);
    }
  }

  beforeAll(async () => {
    t = await startApp();
    const created = await t.http.post('/fights').send({
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants: [
        { id: 'mira', name: 'Mira', sheet: sheet(3, { weapons: [weapon] }) },
        { id: 'orin', name: 'Orin', sheet: sheet(1, { weapons: [weapon] }) },
      ],
    });
    if (created.status !== 201) throw new Error(`setup: ${JSON.stringify(created.body)}`);
    fightId = created.body.fightId;
    for (const cmd of [
      { type: 'SetInitiative', order: ['mira', 'orin'] },
      { type: 'StartRound' },
      { type: 'StartActivation' },
    ])
      await t.http.post(`/fights/${fightId}/commands`).send(cmd).expect(200);
  });
  afterAll(async () => {
    await t.close();
    removeDir(t.dataDir);
  });

  it('every command type with random fields: a 2xx, or a 4xx with a stable code that leaves the log byte for byte unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(command, async (body) => {
        const before = await log();
        const res = await t.http.post(`/fights/${fightId}/commands`).send(body);
        assertClean(res);
        if (res.status >= 400) expect(await log()).toBe(before);
      }),
      { numRuns: 400 },
    );
  }, 120000);

  it('random JSON bodies at every writing endpoint never give a 5xx', async () => {
    const endpoints: Array<[string, string, string?]> = [
      ['post', '/fights'],
      ['post', `/fights/${'{id}'}/commands`],
      ['post', `/fights/${'{id}'}/tokens`],
      ['post', '/audit/verify'],
      ['post', '/admin/tenants', TEST_ADMIN_KEY],
      ['post', '/graphql'],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints),
        fc.jsonValue({ maxDepth: 4 }),
        async ([method, path, key], body) => {
          const before = await log();
          const req = (t.http as any)
            [method](path.replace('{id}', fightId))
            .set('content-type', 'application/json');
          if (key) req.set('authorization', `Bearer ${key}`);
          const res = await req.send(JSON.stringify(body));
          if (path === '/graphql') expect(res.status).toBeLessThan(500);
          else assertClean(res);
          if (res.status >= 400) expect(await log()).toBe(before);
        },
      ),
      { numRuns: 300 },
    );
  }, 120000);

  it('random query strings and path ids on every reading endpoint never give a 5xx', async () => {
    const paths = [
      '/fights',
      '/fights/{id}',
      '/fights/{id}/events',
      '/fights/{id}/log',
      '/fights/{id}/combatants',
      '/fights/{id}/tokens',
      '/systems/{id}',
      '/projections',
    ];
    const key = fc.constantFrom(
      'limit',
      'offset',
      'after',
      'minSeq',
      'at',
      'format',
      'system',
      'status',
      'x',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.oneof(
          fc.constant(fightId),
          fc.string({ maxLength: 80 }),
          fc.constantFrom('toString', 'constructor', '__proto__', 'valueOf', 'narateer'),
        ),
        fc.dictionary(key, fc.string({ maxLength: 12 }), { maxKeys: 3 }),
        async (path, id, query) => {
          const res = await t.http.get(path.replace('{id}', encodeURIComponent(id) || 'x')).query(query);
          assertClean(res);
        },
      ),
      { numRuns: 300 },
    );
  }, 120000);

  it('random GraphQL command inputs never give a 5xx or change the log when refused', async () => {
    await fc.assert(
      fc.asyncProperty(command, async ({ type, ...rest }) => {
        const before = await log();
        const res = await t.gql(
          `mutation($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { seq } }`,
          { f: fightId, i: { type, payload: rest } },
        );
        if (res.errors) {
          expect(res.errors[0].extensions.statusCode).toBeLessThan(500);
          expect(await log()).toBe(before);
        }
      }),
      { numRuns: 200 },
    );
  }, 120000);
});
