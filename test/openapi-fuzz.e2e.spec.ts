import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { removeDir, startApp, TEST_ADMIN_KEY, TestApp } from './support/app';
import { duelFight } from './support/fight-calls';
import { onEveryEngine } from './support/engines';

/**
 * Every route of the service's own OpenAPI document, with valid credentials and hostile everything
 * else: path parameters, query strings, bodies (deep, odd numbers, U+0000 and lone surrogates, wrong
 * types, unknown fields, not JSON at all). Whatever comes in, the answer is never a 5xx, and a refusal
 * has the one error shape. Bounded and repeatable: a fixed seed (FUZZ_SEED overrides it, printed with
 * any failure) and a fixed number of requests. GraphQL is not in the document and not fuzzed here.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
/** Requests per property run, sent together (also shakes out races between them). */
const BATCH = 8;
const RUNS = 250;
/** Generous: an answer slower than this is a hang, not a slow machine. */
const ANSWER_WITHIN_MS = 15_000;

interface Operation {
  method: string;
  path: string;
  params: Array<{ name: string; in: string }>;
  bodyFields: string[];
  bodyTypes: string[];
  contentTypes: string[];
}

type Schema = {
  $ref?: string;
  properties?: Record<string, Schema>;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  const?: unknown;
  enum?: unknown[];
};

/** Property names and `type` constants of a request body schema, through $ref, oneOf/anyOf/allOf and one level of nesting. */
function bodyShape(
  schema: Schema | undefined,
  components: Record<string, Schema>,
  depth = 0,
  out = { fields: new Set<string>(), types: new Set<string>() },
) {
  if (!schema || depth > 4) return out;
  const s = schema.$ref ? components[schema.$ref.split('/').pop()!] : schema;
  if (!s) return out;
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    out.fields.add(name);
    const p = prop.$ref ? components[prop.$ref.split('/').pop()!] : prop;
    if (name === 'type')
      for (const v of [p?.const, ...(p?.enum ?? [])]) if (typeof v === 'string') out.types.add(v);
    if (depth < 1) bodyShape(p, components, depth + 1, out);
  }
  for (const sub of [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])])
    bodyShape(sub, components, depth + 1, out);
  return out;
}

function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const content = op.requestBody?.content ?? {};
      const shape = bodyShape(content['application/json']?.schema, doc.components?.schemas ?? {});
      ops.push({
        method,
        path,
        params: op.parameters ?? [],
        bodyFields: [...shape.fields],
        bodyTypes: [...shape.types],
        contentTypes: Object.keys(content),
      });
    }
  }
  return ops;
}

const NUL = 'a\u0000b';
const LONE_HIGH = 'x\ud800';
const LONE_LOW = '\udc00';
const PROTO = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

/** A path segment as it goes on the wire: encoded, or hostile escapes left raw on purpose. */
const hostileSegment = fc.oneof(
  fc.constantFrom(
    '%00',
    'a%00b',
    '%ED%A0%80',
    '%ED%B0%80',
    '%C0%80',
    '%',
    '%zz',
    '%E0%A4%A',
    '%2e%2e',
    '%2F',
    '%20',
    '.',
    '..',
    '%FF%FE',
    ...PROTO,
    '1e19',
    '-1',
    '9007199254740993',
    '00000000-0000-0000-0000-000000000000',
    "'%3B%20DROP%20TABLE%20events%3B--",
    'a'.repeat(4000),
  ),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 10 }).map(encodeURIComponent),
);

/** A query value as it goes on the wire. */
const hostileQueryValue = fc.oneof(
  fc.constantFrom(
    '1e19',
    '-1',
    '0',
    '1',
    '2',
    '20',
    '100',
    '101',
    '200',
    '9007199254740991',
    '9007199254740992',
    '1.5',
    '0x10',
    '',
    'NaN',
    'Infinity',
    '%201',
    '%2B1',
    '%EF%BC%91',
    '%00',
    'a%00b',
    '%ED%A0%80',
    '%',
    'true',
    'json',
    'ndjson',
    'narateer',
    'active',
    'pending',
    'bar',
    '2026-01-01T00:00:00Z',
    'not-a-date',
    'a'.repeat(3000),
  ),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
);

/** JSON values, including the ones that break hand-written readers and the strings PostgreSQL cannot store. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      NUL,
      LONE_HIGH,
      LONE_LOW,
      '',
      ' ',
      ...PROTO,
      -1,
      0,
      1,
      6,
      1.5,
      -0,
      1e19,
      -1e19,
      1e308,
      2 ** 53 + 1,
      2147483648,
      null,
      true,
      false,
      [],
      {},
      [null],
      [[[]]],
      { 0: 1 },
      'x'.repeat(20_000),
      'narateer',
      'https://127.0.0.1:1/x',
      '2026-01-01T00:00:00Z',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(NUL, LONE_LOW, ...PROTO)),
      fc.jsonValue({ maxDepth: 1 }),
      { maxKeys: 3 },
    ),
  },
);

interface Wire {
  /** The operation: `GET /fights/{id}`. */
  route: string;
  method: string;
  url: string;
  admin: boolean;
  contentType?: string;
  body?: string;
}

function requestsFor(op: Operation, fixtures: (param: string, path: string) => string): fc.Arbitrary<Wire> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryNames = op.params.filter((p) => p.in === 'query').map((p) => p.name);
  const segment = (name: string) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(encodeURIComponent(fixtures(name, op.path))) },
      { weight: 2, arbitrary: hostileSegment },
    );
  const queryName = fc.oneof(
    { weight: 4, arbitrary: queryNames.length ? fc.constantFrom(...queryNames) : fc.constant('x') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'x',
        'tok%65n',
        '__proto__',
        'constructor',
        'after[]',
        'limit[a]',
        '%00',
        'a%ED%A0%80',
        '',
      ),
    },
  );
  const query = fc
    .array(fc.tuple(queryName, hostileQueryValue), { maxLength: 4 })
    .map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&') : ''));
  const fields = op.bodyFields.length ? fc.constantFrom(...op.bodyFields) : fc.string({ maxLength: 8 });
  const shaped = fc
    .tuple(
      fc.dictionary(fields, hostileJson, { maxKeys: 6 }),
      fc.option(op.bodyTypes.length ? fc.constantFrom(...op.bodyTypes) : fc.constant('AddNote')),
      fc.dictionary(fc.constantFrom('unknownField', 'extra', '__proto__', NUL), hostileJson, { maxKeys: 1 }),
    )
    .map(([known, type, unknown]) => JSON.stringify({ ...known, ...(type ? { type } : {}), ...unknown }));
  const deep = fc
    .constantFrom(64, 65, 500, 20_000)
    .chain((d) =>
      fc.constantFrom(
        `{"type":"AddNote","text":${'['.repeat(d)}${']'.repeat(d)}}`,
        '{"a":'.repeat(d) + '1' + '}'.repeat(d),
      ),
    );
  const raw = fc.constantFrom(
    '',
    '{',
    '{"a":1}garbage',
    'null',
    '"x"',
    '[]',
    '[1,2]',
    '1e999',
    '{"a":1e999}',
    '\u0000',
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '{"type":"AddNote","text":"a\\u0000b"}',
    '{"text":"\\ud800"}',
    `{"x":"${'y'.repeat(300_000)}"}`,
  );
  const body = fc.oneof(
    { weight: 4, arbitrary: shaped },
    { weight: 2, arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: raw },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant(op.contentTypes[0] ?? 'application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'application/json',
        'application/x-ndjson',
        'text/plain',
        'application/json; charset=utf-16le',
        'application/json; charset=latin1',
        'application/xml',
        'multipart/form-data',
      ),
    },
  );
  const hasBody = op.contentTypes.length > 0 || op.method !== 'get';
  return fc
    .record({
      segments: fc.tuple(...pathParams.map((p) => segment(p.name)), fc.constant('')),
      query,
      body: hasBody ? fc.option(body, { freq: 6 }) : fc.constant(null),
      contentType,
    })
    .map(({ segments, query, body, contentType }) => {
      let i = 0;
      const path = op.path.replace(/\{[^}]+\}/g, () => segments[i++]);
      return {
        route: `${op.method.toUpperCase()} ${op.path}`,
        method: op.method.toUpperCase(),
        url: path + query,
        admin: op.path.startsWith('/admin'),
        ...(body === null ? {} : { body, contentType }),
      };
    });
}

function fuzzSuite(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup: () => Promise<void> = async () => undefined,
) {
  describe(`every REST route under hostile input (${engine}): never a 5xx`, () => {
    let t: TestApp;
    let hook: Server;
    let ops: Operation[] = [];
    const ids: Record<string, string> = {};
    const saved = process.env.WEBHOOK_ALLOW_PRIVATE;

    beforeAll(async () => {
      // Endpoints may target loopback (the hook below): no DNS look-up for fuzzed hosts either.
      process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
      hook = createServer((_req, res) => res.writeHead(204).end());
      await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
      t = await startApp({ ...opts, listen: true });
      const doc = (await t.anon.get('/openapi.json').expect(200)).body;
      ops = operationsOf(doc);
      ids.fight = await duelFight(t);
      ids.token = (
        await t.http.post(`/fights/${ids.fight}/tokens`).send({ role: 'spectator' }).expect(201)
      ).body.tokenId;
      // The keys fuzzed requests may revoke or rotate are not the ones they authenticate with.
      const spare = await t.tenant('spare');
      ids.tenant = spare.tenantId;
      ids.key = (
        await t.anon
          .get(`/admin/keys?tenantId=${spare.tenantId}`)
          .set('authorization', `Bearer ${TEST_ADMIN_KEY}`)
          .expect(200)
      ).body[0].keyId;
      const endpoint = await t.http
        .post('/webhooks/endpoints')
        .send({ url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook` })
        .expect(201);
      ids.endpoint = endpoint.body.endpoint.id;
      ids.delivery = (
        await t.http.post(`/webhooks/endpoints/${ids.endpoint}/ping`).expect(200)
      ).body.delivery.id;
    });
    afterAll(async () => {
      if (saved === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
      else process.env.WEBHOOK_ALLOW_PRIVATE = saved;
      await t?.close();
      if (t) removeDir(t.dataDir);
      await new Promise((resolve) => hook?.close(resolve));
      await cleanup();
    });

    /** A valid value for a path parameter, by its name and route. */
    const fixture = (param: string, path: string): string => {
      if (param === 'id')
        return path.startsWith('/systems')
          ? 'narateer'
          : path.startsWith('/lab')
            ? '00000000-0000-0000-0000-000000000000'
            : ids.fight;
      return (
        {
          tenantId: ids.tenant,
          keyId: ids.key,
          tokenId: ids.token,
          endpointId: ids.endpoint,
          deliveryId: ids.delivery,
        }[param] ?? 'x'
      );
    };

    async function send(w: Wire): Promise<{ status: number; type: string; body: string }> {
      const ctl = new AbortController();
      const timer = setTimeout(() => ctl.abort(), ANSWER_WITHIN_MS);
      try {
        const headers: Record<string, string> = {
          authorization: `Bearer ${w.admin ? TEST_ADMIN_KEY : t.apiKey}`,
        };
        if (w.contentType) headers['content-type'] = w.contentType;
        const res = await fetch(t.url + w.url, {
          method: w.method,
          headers,
          body: w.body,
          signal: ctl.signal,
          redirect: 'manual',
        });
        const type = res.headers.get('content-type') ?? '';
        // An open event stream answered 200: its head is all there is to judge.
        if (type.startsWith('text/event-stream')) {
          ctl.abort();
          return { status: res.status, type, body: '' };
        }
        return { status: res.status, type, body: await res.text() };
      } finally {
        clearTimeout(timer);
      }
    }

    const problems = (r: { status: number; type: string; body: string }): string | undefined => {
      if (r.status >= 500) return `${r.status}: ${r.body.slice(0, 300)}`;
      if (r.status < 400) return undefined;
      let e: { statusCode?: unknown; code?: unknown; message?: unknown } | undefined;
      try {
        e = JSON.parse(r.body);
      } catch {
        return `${r.status} is not JSON (${r.type}): ${r.body.slice(0, 300)}`;
      }
      if (
        e?.statusCode !== r.status ||
        !/^[A-Z][A-Z0-9_]*$/.test(String(e.code)) ||
        typeof e.message !== 'string'
      )
        return `${r.status} not in the error shape: ${r.body.slice(0, 300)}`;
      if (/\bat .+:\d+:\d+|node_modules/.test(r.body))
        return `${r.status} leaks a stack: ${r.body.slice(0, 300)}`;
      return undefined;
    };

    it(`${RUNS * BATCH} requests across every route, seed ${SEED}`, async () => {
      expect(ops.length).toBeGreaterThan(20);
      const wire = fc.constantFrom(...ops).chain((op) => requestsFor(op, fixture));
      const reached = new Set<string>();
      let failures: string[] = [];
      try {
        await fc.assert(
          fc.asyncProperty(fc.array(wire, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
            const answers = await Promise.all(batch.map(send));
            const bad = batch.flatMap((w, i) => {
              reached.add(w.route);
              const problem = problems(answers[i]);
              return problem
                ? [
                    `${w.method} ${w.url.slice(0, 200)} ${w.contentType ?? ''} ${(w.body ?? '').slice(0, 200)} → ${problem}`,
                  ]
                : [];
            });
            if (bad.length) {
              failures = bad;
              throw new Error(`${bad.length} bad answers`);
            }
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
      } catch (error) {
        // fast-check's own report prints whole batches (bodies nested 20,000 deep): only its first lines.
        const report = (error as Error).message
          .split('\n')
          .filter((l) => !l.startsWith('Counterexample'))
          .join('\n')
          .slice(0, 600);
        throw new Error(
          `hostile REST fuzz failed (${engine}), seed ${SEED} (replay with FUZZ_SEED=${SEED}):\n${failures.join('\n')}\n${report}`,
          { cause: error },
        );
      }
      expect([...reached].sort()).toEqual(ops.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort());
    }, 900_000); // bounded by its request count; a loaded machine is slow, never a reason to fail
  });
}

onEveryEngine(fuzzSuite, {
  prefix: 'fuzz',
  what: 'hostile REST fuzz',
  title: 'every REST route under hostile input',
});
