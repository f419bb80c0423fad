import request from 'supertest';
import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { SUBSCRIPTION_OVER_HTTP } from '../apps/api/src/graphql/http-subscriptions';
import fc from 'fast-check';
import { buildClientSchema, getIntrospectionQuery } from 'graphql';
import { sheet, useApp } from './support/app';

const t = useApp();

const JSON_TYPE = 'application/json';
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/** POST /graphql as a client would: a JSON body (or a raw string), an accept header, with or without a key. */
function post(body: unknown, opts: { accept?: string; key?: string | null; raw?: boolean } = {}) {
  const req = request(t.app.getHttpServer())
    .post('/graphql')
    .set('content-type', 'application/json')
    .set('accept', opts.accept ?? JSON_TYPE);
  const key = opts.key === undefined ? t.apiKey : opts.key;
  if (key) req.set('authorization', `Bearer ${key}`);
  return req.send(opts.raw ? (body as string) : JSON.stringify(body));
}

/**
 * The one error shape, in every error's extensions, whose statusCode is `status`. The status line is
 * the same as application/graphql-response+json; as application/json (the legacy type) a GraphQL
 * request error (parse, validation, a query limit, a variable) answers 200, as the GraphQL-over-HTTP
 * spec says it SHOULD, and only a refusal of the HTTP request itself (BAD_REQUEST) keeps its 4xx.
 */
function expectErrorShape(res: request.Response, status: number, code?: string) {
  const legacy =
    /^application\/json/.test(String(res.headers['content-type'])) &&
    res.body.errors?.[0]?.extensions?.code !== 'BAD_REQUEST';
  expect(res.status).toBe(legacy ? 200 : status);
  expect(res.body.errors?.length).toBeGreaterThan(0);
  for (const e of res.body.errors) {
    expect(e.extensions).toEqual(
      expect.objectContaining({
        statusCode: expect.any(Number),
        code: expect.any(String),
        message: e.message,
      }),
    );
    expect(JSON.stringify(e)).not.toMatch(/at .*\.(ts|js):\d+/);
  }
  expect(res.body.errors[0].extensions.statusCode).toBe(status);
  if (code) expect(res.body.errors[0].extensions.code).toBe(code);
  return res.body.errors[0];
}

/** Fragments each spreading the next twice: `levels` lines, 2^levels fields. */
function fragmentBomb(levels: number): string {
  let doc = 'query Bomb { ...F0 } fragment F' + levels + ' on Query { systems { id } }';
  for (let i = levels - 1; i >= 0; i--) doc += ` fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`;
  return doc;
}

const ALL_OPTIONS = {
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
  oneOf: true,
};

describe('a document that would be expensive is refused, fast and with its own code', () => {
  it('a fragment bomb of 32 levels (1 KB, no key) is a 400 QUERY_TOO_COMPLEX, and the server answers at once after', async () => {
    const doc = fragmentBomb(32);
    expect(doc.length).toBeLessThan(1500);
    for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE]) {
      const res = await post({ query: doc }, { key: null, accept });
      const error = expectErrorShape(res, 400, 'QUERY_TOO_COMPLEX');
      expect(error.message).toBe(
        `the query selects ${2 ** 33} fields (each alias and each use of a fragment counted); the limit is 500`,
      );
      expect(res.body.data).toBeUndefined();
    }
    await request(t.app.getHttpServer()).get('/health/live').expect(200);
  });

  it('a 250 KB document is a 400 QUERY_TOO_LARGE, stopped at the token limit', async () => {
    const doc = '{' + ' systems { id name }'.repeat(12_500) + ' }';
    expect(doc.length).toBeGreaterThan(250_000);
    const res = await post({ query: doc }, { key: null });
    const error = expectErrorShape(res, 400, 'QUERY_TOO_LARGE');
    expect(error.message).toBe('the query has more than 2000 tokens; send large inputs as variables');
    await request(t.app.getHttpServer()).get('/health/live').expect(200);
  });

  it('a query nested deeper than 10 is a 400 QUERY_TOO_DEEP, before any other check of its fields', async () => {
    let q = 'id';
    for (let i = 0; i < 11; i++) q = `nope { ${q} }`;
    const error = expectErrorShape(await post({ query: `{ ${q} }` }), 400, 'QUERY_TOO_DEEP');
    expect(error.message).toBe('the query nests 12 levels deep; the limit is 10');
  });

  it('120 aliases of a list (600 fields) are a 400 QUERY_TOO_COMPLEX', async () => {
    const aliases = Array.from(
      { length: 120 },
      (_, i) => `a${i}: fights { items { fightId name status } }`,
    ).join(' ');
    expectErrorShape(await post({ query: `{ ${aliases} }` }), 400, 'QUERY_TOO_COMPLEX');
  });

  it('fightExport under 200 aliases (one answer of 200 logs) is a 400 QUERY_TOO_COMPLEX, before any log is read', async () => {
    const aliases = Array.from({ length: 200 }, (_, i) => `a${i}: fightExport(fightId: $f)`).join(' ');
    const error = expectErrorShape(
      await post({ query: `query($f: ID!) { ${aliases} }`, variables: { f: 'no-such-fight' } }),
      400,
      'QUERY_TOO_COMPLEX',
    );
    expect(error.message).toBe(
      'the query reads 200 fight logs or event pages (fightExport, events, eventsPage; each alias and each use of a fragment counted); the limit is 1: send one operation for each',
    );
  });

  it('two event pages, one through a fragment spread twice, are refused; one log read beside other fields is answered', async () => {
    const twice =
      'query($f: ID!) { ...E ...E } fragment E on Query { events(fightId: $f, limit: 10000) { seq } }';
    expectErrorShape(await post({ query: twice, variables: { f: 'x' } }), 400, 'QUERY_TOO_COMPLEX');
    const mixed = 'query($f: ID!) { eventsPage(fightId: $f) { items { seq } } fightExport(fightId: $f) }';
    expectErrorShape(await post({ query: mixed, variables: { f: 'x' } }), 400, 'QUERY_TOO_COMPLEX');
    const created = await post({
      query: 'mutation Create($i: CreateFightInput!) { createFight(input: $i) { fightId } }',
      variables: { i: { system: 'narateer', name: 'one log' } },
    });
    const fightId = created.body.data.createFight.fightId as string;
    const one = await post({
      query: 'query($f: ID!) { systems { id } fight(fightId: $f) { seq } fightExport(fightId: $f) }',
      variables: { f: fightId },
    });
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.fightExport).toEqual(expect.objectContaining({ fightId }));
  });

  it('an input value nested deeper than 64 in the document is a 400 INPUT_TOO_DEEP', async () => {
    const log = '{ a: '.repeat(65) + '1' + ' }'.repeat(65);
    expectErrorShape(
      await post({ query: `mutation { verifyFightLog(log: ${log}) }` }),
      400,
      'INPUT_TOO_DEEP',
    );
  });

  it('JSON nested 20,000 deep in a GraphQL body is a 400, never a 500', async () => {
    const deep = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
    const res = await post(
      `{"query":"mutation($l: JSONObject!) { verifyFightLog(log: $l) }","variables":{"l":${deep}}}`,
      { raw: true },
    );
    expect(res.status).toBe(400);
    const error = res.body.errors?.[0]?.extensions ?? res.body;
    expect(error).toEqual(
      expect.objectContaining({ statusCode: 400, code: expect.any(String), message: expect.any(String) }),
    );
  });
});

describe('standard introspection works; its own bound refuses what is not', () => {
  it.each([
    ['getIntrospectionQuery()', getIntrospectionQuery()],
    ['getIntrospectionQuery() with every option', getIntrospectionQuery(ALL_OPTIONS)],
  ])('%s answers a schema that graphql-js can rebuild', async (_name, query) => {
    for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE]) {
      const res = await post({ query, operationName: 'IntrospectionQuery' }, { key: null, accept });
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      const schema = buildClientSchema(res.body.data);
      expect(schema.getQueryType()?.getFields().fight).toBeDefined();
    }
  });

  it('introspection nested deeper than its bound is a 400 QUERY_TOO_DEEP', async () => {
    let q = 'name';
    for (let i = 0; i < 50; i++) q = `ofType { ${q} }`;
    const error = expectErrorShape(
      await post({ query: `{ __schema { types { fields { type { ${q} } } } } }` }),
      400,
      'QUERY_TOO_DEEP',
    );
    expect(error.message).toBe('the introspection query nests 55 levels deep; the limit is 20');
  });

  it('introspection whose lists multiply (types → fields → type → fields …) is a 400 QUERY_TOO_COMPLEX', async () => {
    const res = await post({
      query:
        '{ __schema { types { fields { type { fields { type { fields { type { fields { type { fields { name } } } } } } } } } } } }',
    });
    expectErrorShape(res, 400, 'QUERY_TOO_COMPLEX');
  });

  it('the standard query next to an ordinary field is an ordinary query: the depth limit of 10 applies', async () => {
    const query = getIntrospectionQuery().replace('__schema {', 'systems { id } __schema {');
    expectErrorShape(await post({ query }), 400, 'QUERY_TOO_DEEP');
  });
});

describe('hostile requests are 4xx with the one error shape, per GraphQL over HTTP', () => {
  const FIGHT = 'query Fight($f: ID!, $n: Int) { fight(fightId: $f, minSeq: $n) { seq } }';
  const CREATE = 'mutation Create($i: CreateFightInput!) { createFight(input: $i) { seq } }';
  const coercions: Array<[string, string, Record<string, unknown>, string]> = [
    ['null for an ID!', FIGHT, { f: null }, 'f'],
    ['Int 2147483648', FIGHT, { f: 'x', n: 2147483648 }, 'n'],
    ['an unknown input field', CREATE, { i: { system: 'narateer', name: 'x', bogus: 1 } }, 'i.bogus'],
    ['a number where an input object is expected', CREATE, { i: 5 }, 'i'],
    ['a missing required input field', CREATE, { i: { name: 'x' } }, 'i.system'],
  ];

  it.each(coercions)(
    'variable coercion, %s: 400 BAD_USER_INPUT naming the field, with either media type',
    async (_name, query, variables, field) => {
      for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE]) {
        const res = await post({ query, variables }, { accept });
        expect(res.headers['content-type']).toContain(accept);
        const error = expectErrorShape(res, 400, 'BAD_USER_INPUT');
        expect(error.extensions.field).toBe(field);
        expect(res.body.data).toBeUndefined();
      }
    },
  );

  it('an operationName matching no operation: 400 OPERATION_RESOLUTION_FAILURE', async () => {
    for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE]) {
      const res = await post({ query: '{ systems { id } }', operationName: 'Nope' }, { accept });
      expect(expectErrorShape(res, 400, 'OPERATION_RESOLUTION_FAILURE').message).toBe(
        'Unknown operation named "Nope".',
      );
    }
    const named = await post({
      query: 'query A { systems { id } } query B { systems { name } }',
      operationName: 'C',
    });
    expectErrorShape(named, 400, 'OPERATION_RESOLUTION_FAILURE');
  });

  it('a parse error and a validation error: 400 without data, with their codes, message in extensions', async () => {
    for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE]) {
      const parse = await post({ query: '{' }, { accept });
      expectErrorShape(parse, 400, 'GRAPHQL_PARSE_FAILED');
      expect(parse.body.data).toBeUndefined();
      const invalid = await post({ query: '{ 8f31403dfe404bccbb0e835f2629c6a7 }' }, { accept });
      expectErrorShape(invalid, 400);
      const unknownField = await post({ query: '{ systems { nope } }' }, { accept });
      expectErrorShape(unknownField, 400, 'GRAPHQL_VALIDATION_FAILED');
      expect(unknownField.body.data).toBeUndefined();
    }
  });

  it('given a subscription sent over HTTP, when it would run, then 400 GRAPHQL_VALIDATION_FAILED (it runs over the WebSocket), never a 500', async () => {
    const subscription = 'subscription Live($f: ID!) { fightEvents(fightId: $f) { seq } }';
    for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE])
      for (const f of ['some-fight', 2147483648]) {
        const res = await post({ query: subscription, variables: { f } }, { accept });
        expect(expectErrorShape(res, 400, 'GRAPHQL_VALIDATION_FAILED').message).toBe(SUBSCRIPTION_OVER_HTTP);
        expect(res.body.data).toBeUndefined();
      }
    // The operation that runs is judged: a query beside a subscription in one document still runs.
    const both = await post({
      query: `query Q { systems { id } } ${subscription}`,
      operationName: 'Q',
    });
    expect(both.status).toBe(200);
    expect(both.body.errors).toBeUndefined();
    expect(both.body.data.systems.length).toBeGreaterThan(0);
  });

  it('invalid request parameters (no query, a number, variables as a string): 400 BAD_REQUEST', async () => {
    for (const body of [
      { qeury: '{ __typename }' },
      { query: 5 },
      { query: '{ __typename }', variables: 'x' },
      { query: '{ __typename }', operationName: 5 },
    ]) {
      expectErrorShape(await post(body, { accept: GRAPHQL_RESPONSE }), 400, 'BAD_REQUEST');
    }
  });

  it('the CSRF refusal (a GET without a preflight header) has the one shape, message included', async () => {
    const res = await request(t.app.getHttpServer())
      .get('/graphql')
      .query({ query: '{ __typename }' })
      .set('accept', JSON_TYPE);
    const error = expectErrorShape(res, 400, 'BAD_REQUEST');
    expect(error.extensions.message).toMatch(/Cross-Site Request Forgery/);
  });

  it('given a malformed persisted-query extension (no key), when it is sent by POST or GET, then 400 BAD_REQUEST naming the field, nothing logged as an error', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error');
    try {
      const query = '{ systems { id } }';
      const cases: Array<[unknown, string]> = [
        [{ version: 1, sha256Hash: 'abc' }, 'extensions.persistedQuery.sha256Hash'],
        [{ version: 1, sha256Hash: 123 }, 'extensions.persistedQuery.sha256Hash'],
        [{ version: 2, sha256Hash: 'abc' }, 'extensions.persistedQuery.version'],
        ['x', 'extensions.persistedQuery.version'],
        [{}, 'extensions.persistedQuery.version'],
      ];
      for (const [persistedQuery, field] of cases) {
        for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE]) {
          const res = await post({ query, extensions: { persistedQuery } }, { key: null, accept });
          expect(expectErrorShape(res, 400, 'BAD_REQUEST').extensions.field).toBe(field);
        }
        const get = await request(t.app.getHttpServer())
          .get('/graphql')
          .query({ query, extensions: JSON.stringify({ persistedQuery }) })
          .set('apollo-require-preflight', 'true')
          .set('accept', JSON_TYPE);
        expect(expectErrorShape(get, 400, 'BAD_REQUEST').extensions.field).toBe(field);
      }
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it('given automatic persisted queries, when a hash comes alone, registered or not, then PERSISTED_QUERY_NOT_FOUND first and the query once registered', async () => {
    const query = '{ systems { id } }';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    for (const hash of [createHash('sha256').update('unregistered').digest('hex'), 123]) {
      const missing = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
      // A refusal of the HTTP request itself (as BAD_REQUEST): 400 with either media type.
      expect(missing.status).toBe(400);
      expect(missing.body.errors[0].extensions).toEqual({
        statusCode: 400,
        code: 'PERSISTED_QUERY_NOT_FOUND',
        message: 'PersistedQueryNotFound',
      });
    }
    const registered = await post({ query, extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect(registered.status).toBe(200);
    expect(registered.body.data.systems.length).toBeGreaterThan(0);
    const byHash = await post({ extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect(byHash.status).toBe(200);
    expect(byHash.body).toEqual(registered.body);
  });

  it('well-formed requests still answer 200, with either media type, null parameters allowed', async () => {
    for (const accept of [JSON_TYPE, GRAPHQL_RESPONSE, '*/*']) {
      const res = await post(
        { query: 'query Q { __typename }', operationName: 'Q', variables: null, extensions: null },
        { accept },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { __typename: 'Query' } });
    }
  });

  it('an error inside execution (with data) stays 200, its extensions in the one shape', async () => {
    const res = await post({ query: '{ system(id: "nope") { id } }' });
    expect(res.status).toBe(200);
    expect(res.body.errors[0].extensions).toEqual({
      statusCode: 404,
      code: 'SYSTEM_NOT_FOUND',
      message: 'no rule system nope',
      field: 'id',
    });
  });
});

describe('fuzz: random documents, variables and operation names built from real operations', () => {
  const OPERATIONS = [
    'query Systems { systems { id name } }',
    'query System($id: ID!) { system(id: $id) { id name } }',
    'query Fights($limit: Int, $offset: Int, $status: String) { fights(limit: $limit, offset: $offset, status: $status) { total items { fightId name status } } }',
    'query Fight($f: ID!, $minSeq: Int, $at: Int) { fight(fightId: $f, minSeq: $minSeq, at: $at) { seq } }',
    'query Events($f: ID!, $after: Int) { events(fightId: $f, after: $after) { seq type } }',
    'query EventsPage($f: ID!, $after: Int, $limit: Int, $c: String) { eventsPage(fightId: $f, after: $after, limit: $limit, cursor: $c) { items { seq } nextCursor } }',
    'query FightsPage($limit: Int, $c: String) { fights(limit: $limit, cursor: $c) { nextCursor offset items { fightId } } }',
    'query Combatants($f: ID!) { fightCombatants(fightId: $f) { combatantId } }',
    'query Projections { projections { name } }',
    'query Type($name: String!) { __type(name: $name) { name kind fields { name type { name kind ofType { name } } } } }',
    'mutation Create($i: CreateFightInput!) { createFight(input: $i) { seq fightId } }',
    'mutation Command($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { seq } }',
    'mutation Verify($l: JSONObject!) { verifyFightLog(log: $l) }',
    'query A { ...F } fragment F on Query { systems { ...G } } fragment G on SystemModel { id name }',
    'subscription Live($f: ID!) { fightEvents(fightId: $f) { seq } }',
    getIntrospectionQuery(),
  ];
  const PIECES = [
    '{',
    '}',
    '(',
    ')',
    ':',
    '$f',
    '$i',
    '...',
    '... on Query',
    'fragment X on Query',
    '@include(if: $f)',
    '@skip(if: true)',
    '"',
    '[',
    ']',
    'null',
    '2147483648',
    '-1',
    '1e400',
    'query',
    'mutation',
    'subscription',
    '__typename',
    '__schema',
    'systems',
    'id',
    '#',
    '\\u0000',
    ' ',
    '\n',
    '$',
    '=',
    '!',
    'ID!',
    '&',
  ];

  const document = fc.oneof(
    fc.constantFrom(...OPERATIONS),
    fc
      .tuple(
        fc.constantFrom(...OPERATIONS),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 12 }), fc.constantFrom(...PIECES), fc.boolean()), {
          minLength: 1,
          maxLength: 6,
        }),
      )
      .map(([doc, edits]) =>
        edits.reduce((d, [at, cut, piece, duplicate]) => {
          const i = at % (d.length + 1);
          return duplicate
            ? d.slice(0, i) + d.slice(i, i + cut * 4).repeat(3) + d.slice(i)
            : d.slice(0, i) + piece + d.slice(i + cut);
        }, doc),
      ),
    fc.string({ maxLength: 60 }),
  );
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.constantFrom(
      null,
      2147483648,
      -2147483649,
      1e308,
      '',
      'narateer',
      [],
      {},
      { system: 'narateer', name: 'x' },
      { type: 'StartRound' },
      { type: 'AddNote', payload: { text: 5 } },
    ),
    fc.constant({ system: 'narateer', name: 'fuzz', combatants: [{ id: 'a', name: 'A', sheet: sheet() }] }),
  );
  const variables = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.dictionary(
      fc.constantFrom('f', 'i', 'id', 'l', 'limit', 'offset', 'name', 'minSeq', 'at', 'after', 'x'),
      value,
      { maxKeys: 3 },
    ),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const operationName = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('Systems', 'Fight', 'Create', 'A', 'Nope', '', 'IntrospectionQuery', null),
    fc.string({ maxLength: 8 }),
    fc.jsonValue({ maxDepth: 1 }),
  );

  it('never a 5xx, and every error in the one shape with a 4xx status', async () => {
    await fc.assert(
      fc.asyncProperty(
        document,
        variables,
        operationName,
        fc.constantFrom(JSON_TYPE, GRAPHQL_RESPONSE, '*/*'),
        fc.boolean(),
        async (query, vars, name, accept, anonymous) => {
          const res = await post(
            { query, variables: vars, operationName: name },
            { accept, key: anonymous ? null : undefined },
          );
          expect(res.status).toBeLessThan(500);
          for (const e of res.body.errors ?? []) {
            expect(e.extensions).toEqual(
              expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
            );
            expect(e.extensions.statusCode).toBeLessThan(500);
          }
        },
      ),
      { numRuns: 400 },
    );
  }, 120_000);
});
