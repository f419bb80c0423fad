import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { TEST_ADMIN_KEY, useApp, useEnv } from './support/app';
import { projected } from './support/read-side';

/**
 * Response schema conformance, as a third-party API fuzzer (Schemathesis) checks it: every answer's status
 * is one its operation declares in schema/openapi.json, its Content-Type is one the status declares, and its
 * body validates against the schema declared for (path, method, status, content type). Driven through real
 * calls: the recorded fights of all three systems played again command by command (rich views and events),
 * their views at every seq, lists, logs and audits, tokens, tenants and keys, webhooks and their deliveries,
 * the lab, and the common refusals (400, 401, 403, 404, 409, 412, 413, 415, 422).
 */

type Json = Record<string, unknown>;
type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: Json }> }> }>
  >;
  components: { schemas: Record<string, Json> };
};

const ROOT = join(__dirname, '..');
const DOC = JSON.parse(readFileSync(join(ROOT, 'schema/openapi.json'), 'utf8')) as Doc;
const FIXTURES = join(__dirname, 'fixtures/logs');
const DOC_ID = 'openapi.json';

/** Keywords whose value is one schema, a list of schemas, or a map of them. */
const ONE = ['additionalProperties', 'items', 'not'];
const MANY = ['allOf', 'anyOf', 'oneOf'];
const MAP = ['properties'];

/**
 * An OpenAPI 3.0 schema as JSON Schema: `nullable` as a null type (or a null member when it stands beside
 * combinators or a $ref), `example` dropped, $refs into the document's components. `discriminator` is dropped
 * (a fuzzer validates the oneOf); with `byDiscriminator`, a oneOf with a mapping is instead the member its
 * discriminator names, so a failure reports that member's errors only.
 */
function toJsonSchema(node: unknown, byDiscriminator: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(n, byDiscriminator));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === 'example' || key === 'examples' || key === 'nullable' || key === 'discriminator') continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace(/^#/, `${DOC_ID}#`);
    else if (ONE.includes(key) || MANY.includes(key)) out[key] = toJsonSchema(value, byDiscriminator);
    else if (MAP.includes(key) && value && typeof value === 'object')
      out[key] = Object.fromEntries(
        Object.entries(value as Json).map(([k, v]) => [k, toJsonSchema(v, byDiscriminator)]),
      );
    else out[key] = value;
  }
  const source = node as Json & {
    nullable?: boolean;
    discriminator?: { propertyName: string; mapping?: Record<string, string> };
  };
  if (byDiscriminator && source.discriminator?.mapping && out.oneOf) {
    const { propertyName, mapping } = source.discriminator;
    delete out.oneOf;
    out.type = 'object';
    out.required = [propertyName];
    out.properties = { [propertyName]: { enum: Object.keys(mapping) } };
    out.allOf = Object.entries(mapping).map(([value, $ref]) => ({
      if: { properties: { [propertyName]: { const: value } }, required: [propertyName] },
      then: { $ref: $ref.replace(/^#/, `${DOC_ID}#`) },
    }));
  }
  if (source.nullable !== true) return out;
  if (out.$ref || MANY.some((k) => k in out)) return { anyOf: [out, { type: 'null' }] };
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  return out;
}

function validatorOf(byDiscriminator: boolean) {
  const ajv = new Ajv({ strict: false, allErrors: byDiscriminator, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({
    $id: DOC_ID,
    components: {
      schemas: Object.fromEntries(
        Object.entries(DOC.components.schemas).map(([name, schema]) => [
          name,
          toJsonSchema(schema, byDiscriminator),
        ]),
      ),
    },
  });
  const cache = new Map<string, ValidateFunction>();
  return (key: string, schema: Json) => {
    let fn = cache.get(key);
    if (!fn) cache.set(key, (fn = ajv.compile(toJsonSchema(schema, byDiscriminator) as Json)));
    return fn;
  };
}

/** Media type as a content map keys it: no parameters, lower case. */
const mediaOf = (contentType: string | undefined) => (contentType ?? '').split(';')[0].trim().toLowerCase();

/** Ajv's errors, the most specific first (the deepest instance paths), without repeats. */
function summary(errors: ErrorObject[] | null | undefined): string {
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  const lines = [...(errors ?? [])]
    .filter((e) => e.keyword !== 'if')
    .sort((a, b) => depth(b) - depth(a))
    .map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  return [...new Set(lines)].slice(0, 6).join('; ');
}

type Method = 'get' | 'post' | 'patch' | 'delete';
interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}
interface Call {
  key?: string | null;
  body?: unknown;
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
  status?: number | number[];
}

describe('OpenAPI: every response body conforms to the schema its operation declares', () => {
  useEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  const t = useApp();
  const strict = validatorOf(false);
  const diagnose = validatorOf(true);
  /** Mismatches of the running test: each a line naming the operation, the status and what failed. */
  let problems: string[] = [];
  /** `METHOD template status` of every answer checked. */
  const checked = new Set<string>();
  beforeEach(() => {
    problems = [];
  });

  /** Checks one answer against the document: the status declared, the media type declared, the body valid. */
  function conform(method: Method, template: string, answer: Answer): void {
    const op = DOC.paths[template]?.[method];
    const where = `${method.toUpperCase()} ${template} ${answer.status}`;
    if (!op) throw new Error(`the document has no ${method.toUpperCase()} ${template}`);
    checked.add(where);
    const declared = op.responses[String(answer.status)] ?? op.responses.default;
    if (!declared) return void problems.push(`${where}: status not declared`);
    const media = mediaOf(answer.headers['content-type']);
    if (answer.status === 204 || answer.status === 304) {
      if (answer.text) problems.push(`${where}: a body on a ${answer.status}`);
      return;
    }
    const content = declared.content ?? {};
    if (Object.keys(content).length === 0) {
      if (answer.text) problems.push(`${where}: a ${media} body where the document declares no content`);
      return;
    }
    const entry = content[media];
    if (!entry)
      return void problems.push(`${where}: ${media} is not declared (${Object.keys(content).join(', ')})`);
    if (!entry.schema) return;
    const documents: unknown[] = [];
    try {
      if (media === 'application/x-ndjson')
        for (const line of answer.text.split('\n')) if (line.trim()) documents.push(JSON.parse(line));
      if (/json$/.test(media) && media !== 'application/x-ndjson') documents.push(JSON.parse(answer.text));
    } catch {
      return void problems.push(`${where}: the ${media} body is not JSON`);
    }
    const key = `${where} ${media}`;
    for (const doc of documents)
      if (!strict(key, entry.schema)(doc)) {
        const detail = diagnose(key, entry.schema);
        detail(doc);
        problems.push(
          `${where} ${media}: ${summary(detail.errors) || summary(strict(key, entry.schema).errors)}`,
        );
      }
  }

  /** One request as a client sends it, its answer checked by `conform`. */
  async function call(method: Method, template: string, url: string, opts: Call = {}): Promise<Answer> {
    let req = request(t.app.getHttpServer())[method](url);
    const key = opts.key === undefined ? t.apiKey : opts.key;
    if (key) req = req.set('authorization', `Bearer ${key}`);
    for (const [name, value] of Object.entries(opts.headers ?? {})) req = req.set(name, value);
    if (opts.contentType) req = req.set('content-type', opts.contentType);
    req = req.buffer(true).parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
    const res = await (opts.raw !== undefined
      ? req.send(opts.raw)
      : opts.body !== undefined
        ? req.send(opts.body as object)
        : req);
    const text = typeof res.body === 'string' ? res.body : '';
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const answer: Answer = { status: res.status, headers: res.headers, text, body };
    conform(method, template, answer);
    const want = opts.status === undefined ? [] : ([] as number[]).concat(opts.status);
    if (want.length && !want.includes(answer.status))
      throw new Error(
        `${method.toUpperCase()} ${url}: ${answer.status}, expected ${want.join(' or ')}: ${text.slice(0, 500)}`,
      );
    return answer;
  }
  const admin = { key: TEST_ADMIN_KEY };

  /** Waits for a condition the read side or a worker reaches, up to 60 s. */
  async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
    const started = Date.now();
    for (;;) {
      const got = await probe();
      if (got !== undefined) return got;
      if (Date.now() - started > 60_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  interface LogEntry {
    seq: number;
    commandId: string;
    command: Json & { type: string };
  }
  interface FightLog {
    system: string;
    fightId: string;
    dice: { mode: string; seed?: string; clientSeed?: string };
    entries: LogEntry[];
  }
  const fights: Array<{ fixture: string; fightId: string; seq: number; system: string }> = [];

  /**
   * Plays a recorded fight again over REST: manual dice as recorded; seeded and fair dice as a seeded fight
   * with the recorded seed and the recorded fight's id as draw key, so every face and so every command is the
   * same. Each answer is checked.
   */
  async function replay(fixture: string) {
    const log = JSON.parse(readFileSync(join(FIXTURES, `${fixture}.json`), 'utf8')) as FightLog;
    const commands: Array<Json & { type: string }> = [];
    let last = '';
    for (const e of log.entries)
      if (e.commandId !== last) {
        commands.push(e.command);
        last = e.commandId;
      }
    const { type: _start, dice: _dice, ...start } = commands.shift()!;
    const dice =
      log.dice.mode === 'manual'
        ? { mode: 'manual' }
        : {
            mode: 'seeded',
            seed: log.dice.seed,
            drawKey: log.fightId,
            ...(log.dice.clientSeed ? { clientSeed: log.dice.clientSeed } : {}),
          };
    const created = await call('post', '/fights', '/fights', {
      body: { system: log.system, ...start, dice },
      status: 201,
    });
    const fightId = created.body.fightId as string;
    let seq = created.body.seq as number;
    for (const command of commands) {
      const answer = await call('post', '/fights/{id}/commands', `/fights/${fightId}/commands`, {
        body: command,
        status: 200,
      });
      seq = answer.body.seq;
    }
    fights.push({ fixture, fightId, seq, system: log.system });
    return { fightId, seq };
  }

  it('the checker itself: a body that breaks its declaration fails; nullable and the event unions are read as OpenAPI 3.0 means them', () => {
    const check = (name: string, body: unknown) =>
      strict(`self ${name}`, { $ref: `#/components/schemas/${name}` })(body);
    expect(check('ErrorModel', { statusCode: 404, code: 'FIGHT_NOT_FOUND', message: 'no' })).toBe(true);
    expect(check('ErrorModel', { statusCode: '404', code: 'FIGHT_NOT_FOUND', message: 'no' })).toBe(false);
    expect(check('ProjectionStatusModel', { name: 'fight-views', checkpoint: null, lagEvents: 0 })).toBe(
      true,
    );
    expect(check('ProjectionStatusModel', { name: 'fight-views', checkpoint: 7, lagEvents: 0 })).toBe(false);
    const log = JSON.parse(readFileSync(join(FIXTURES, 'narateer-manual-walkthrough.json'), 'utf8')) as {
      entries: Array<Json & { data: Json }>;
    };
    const { drawsUsed: _draws, command: _command, ...event } = log.entries[1];
    expect(check('FightEvent', event)).toBe(true);
    expect(check('FightEvent', { ...event, data: { ...event.data, notDeclared: 1 } })).toBe(false);
    expect(check('FightEvent', { ...event, type: 'NoSuchEvent' })).toBe(false);
    expect(check('FightLogEntry', log.entries[1])).toBe(true);
  });

  it('given the recorded fights of all three systems played again, then each creation and command answer conforms', async () => {
    for (const fixture of [
      'narateer-manual-walkthrough',
      'narateer-manual-dice-request-and-undo',
      'narateer-seeded',
      'narateer-fair',
      'arcana-beast-manual',
      'arcana-beast-seeded',
      'arcana-beast-fair',
      'archsoul-manual',
      'archsoul-seeded',
      'archsoul-fair',
    ])
      await replay(fixture);
    // Fair dice: committed until the fight ends, revealed after.
    for (const system of ['narateer', 'arcana-beast', 'archsoul']) {
      const { body } = await call('post', '/fights', '/fights', {
        body: { system, name: `${system} fair`, dice: { mode: 'fair', clientSeed: 'table' } },
        status: 201,
      });
      await call('get', '/fights/{id}', `/fights/${body.fightId}`, { status: 200 });
      await call('post', '/fights/{id}/commands', `/fights/${body.fightId}/commands`, {
        body: { type: 'AddNote', text: 'before' },
        status: [200, 422],
      });
      await call('post', '/fights/{id}/commands', `/fights/${body.fightId}/commands`, {
        body: { type: 'EndFight' },
        status: 200,
      });
    }
    expect(problems).toEqual([]);
  });

  it('given those fights, then their views at every seq, combatants, event pages, logs and audits conform', async () => {
    expect(fights.length).toBeGreaterThan(0);
    for (const { fightId, seq } of fights) {
      const now = await call('get', '/fights/{id}', `/fights/${fightId}?minSeq=${seq}`, { status: 200 });
      await call('get', '/fights/{id}', `/fights/${fightId}`, {
        headers: { 'if-none-match': now.headers.etag },
        status: 304,
      });
      for (let at = 1; at <= seq; at++)
        await call('get', '/fights/{id}', `/fights/${fightId}?at=${at}`, { status: 200 });
      await projected(t, fightId, seq);
      await call('get', '/fights/{id}/combatants', `/fights/${fightId}/combatants?minSeq=${seq}`, {
        status: 200,
      });
      let url: string | undefined = `/fights/${fightId}/events?limit=7`;
      while (url) {
        const page = await call('get', '/fights/{id}/events', url, { status: 200 });
        const next = page.headers['x-next-cursor'];
        url = next ? `/fights/${fightId}/events?limit=7&cursor=${next}` : undefined;
      }
      await call('get', '/fights/{id}/events', `/fights/${fightId}/events?after=${seq - 1}`, { status: 200 });
      const log = await call('get', '/fights/{id}/log', `/fights/${fightId}/log`, { status: 200 });
      const ndjson = await call('get', '/fights/{id}/log', `/fights/${fightId}/log?format=ndjson`, {
        status: 200,
      });
      await call('post', '/audit/verify', '/audit/verify', {
        raw: log.text,
        contentType: 'application/json',
        status: 200,
      });
      await call('post', '/audit/verify', '/audit/verify', {
        raw: ndjson.text,
        contentType: 'application/x-ndjson',
        status: 200,
      });
    }
    // A tampered log: the report says what failed, in the same shape.
    const { fightId } = fights[0];
    const log = (await call('get', '/fights/{id}/log', `/fights/${fightId}/log`, { status: 200 })).body;
    log.entries[1].data.name = 'Someone else';
    await call('post', '/audit/verify', '/audit/verify', { body: log, status: 200 });
    expect(problems).toEqual([]);
  });

  it('given fights in every status, then the fight list, its pages, filters and totals conform', async () => {
    await call('post', '/fights', '/fights', { body: { system: 'narateer' }, status: 201 });
    let url: string | undefined = '/fights?limit=4&total=true';
    while (url) {
      const page = await call('get', '/fights', url, { status: 200 });
      url = page.body.nextCursor ? `/fights?limit=4&total=true&cursor=${page.body.nextCursor}` : undefined;
    }
    await call('get', '/fights', '/fights?system=archsoul&status=ended&offset=1&limit=2', { status: 200 });
    await call('get', '/fights', '/fights?status=setup', { status: 200 });
    await call('get', '/fights', '/fights?status=active', { status: 200 });
    expect(problems).toEqual([]);
  });

  it('given player and spectator tokens, then issuing, listing, reading, using and revoking them conform', async () => {
    const { fightId } = fights.find((f) => f.fixture === 'archsoul-manual')!;
    const player = await call('post', '/fights/{id}/tokens', `/fights/${fightId}/tokens`, {
      body: {
        role: 'player',
        combatantIds: ['kael'],
        label: 'Alice (Kael)',
        expiresAt: '2099-01-01T00:00:00Z',
      },
      status: 201,
    });
    const spectator = await call('post', '/fights/{id}/tokens', `/fights/${fightId}/tokens`, {
      body: { role: 'spectator' },
      status: 201,
    });
    await call('get', '/fights/{id}/tokens', `/fights/${fightId}/tokens?limit=1`, { status: 200 });
    await call('get', '/fights/{id}/tokens', `/fights/${fightId}/tokens`, { status: 200 });
    const one = await call(
      'get',
      '/fights/{id}/tokens/{tokenId}',
      `/fights/${fightId}/tokens/${player.body.tokenId}`,
      {
        status: 200,
      },
    );
    for (const token of [player.body.token, spectator.body.token]) {
      await call('get', '/fights/{id}', `/fights/${fightId}`, { key: token, status: 200 });
      await call('get', '/fights/{id}/combatants', `/fights/${fightId}/combatants`, {
        key: token,
        status: 200,
      });
      await call('get', '/fights/{id}/events', `/fights/${fightId}/events`, { key: token, status: 200 });
    }
    await call(
      'get',
      '/fights/{id}',
      `/fights/${fightId}?token=${encodeURIComponent(spectator.body.token)}`,
      {
        key: null,
        status: 200,
      },
    );
    // A player sends only its own combatants' commands; a spectator none.
    await call('post', '/fights/{id}/commands', `/fights/${fightId}/commands`, {
      key: player.body.token,
      body: { type: 'EndTurn', combatantId: 'brute' },
      status: 403,
    });
    await call('post', '/fights/{id}/commands', `/fights/${fightId}/commands`, {
      key: spectator.body.token,
      body: { type: 'AddNote', text: 'x' },
      status: 403,
    });
    await call('post', '/fights/{id}/tokens', `/fights/${fightId}/tokens`, {
      key: player.body.token,
      body: { role: 'spectator' },
      status: 403,
    });
    await call(
      'delete',
      '/fights/{id}/tokens/{tokenId}',
      `/fights/${fightId}/tokens/${player.body.tokenId}`,
      {
        headers: { 'if-match': 'W/"stale"' },
        status: 412,
      },
    );
    await call(
      'delete',
      '/fights/{id}/tokens/{tokenId}',
      `/fights/${fightId}/tokens/${player.body.tokenId}`,
      {
        headers: { 'if-match': one.headers.etag },
        status: 204,
      },
    );
    await call('get', '/fights/{id}/tokens/{tokenId}', `/fights/${fightId}/tokens/${player.body.tokenId}`, {
      status: [200, 404],
    });
    await call('get', '/fights/{id}', `/fights/${fightId}`, { key: player.body.token, status: 401 });
    await call('get', '/fights/{id}/tokens/{tokenId}', `/fights/${fightId}/tokens/nope`, { status: 404 });
    await call('delete', '/fights/{id}/tokens/{tokenId}', `/fights/${fightId}/tokens/nope`, { status: 404 });
    await call('post', '/fights/{id}/tokens', `/fights/${fightId}/tokens`, {
      body: { role: 'gm' },
      status: 422,
    });
    expect(problems).toEqual([]);
  });

  it('given the operator, then tenants and keys, issued, listed, read, rotated and revoked, conform', async () => {
    const tenant = await call('post', '/admin/tenants', '/admin/tenants', {
      ...admin,
      body: { name: 'Owlbear Tabletop' },
      status: 201,
    });
    const { tenantId } = tenant.body;
    await call('get', '/admin/tenants', '/admin/tenants', { ...admin, status: 200 });
    await call('get', '/admin/tenants', '/admin/tenants?limit=1', { ...admin, status: 200 });
    await call('get', '/admin/tenants/{tenantId}', `/admin/tenants/${tenantId}`, { ...admin, status: 200 });
    await call('get', '/admin/tenants/{tenantId}', '/admin/tenants/nope', { ...admin, status: 404 });
    const issued = await call('post', '/admin/tenants/{tenantId}/keys', `/admin/tenants/${tenantId}/keys`, {
      ...admin,
      body: { label: 'discord bot' },
      status: 201,
    });
    await call('post', '/admin/tenants/{tenantId}/keys', '/admin/tenants/nope/keys', {
      ...admin,
      body: {},
      status: 404,
    });
    await call('get', '/admin/keys', '/admin/keys', { ...admin, status: 200 });
    await call('get', '/admin/keys', `/admin/keys?tenantId=${tenantId}&limit=1`, { ...admin, status: 200 });
    const key = await call('get', '/admin/keys/{keyId}', `/admin/keys/${issued.body.keyId}`, {
      ...admin,
      status: 200,
    });
    await call('get', '/admin/keys/{keyId}', '/admin/keys/nope', { ...admin, status: 404 });
    const rotated = await call(
      'post',
      '/admin/keys/{keyId}/rotate',
      `/admin/keys/${issued.body.keyId}/rotate`,
      {
        ...admin,
        status: 201,
      },
    );
    await call('get', '/admin/keys/{keyId}', `/admin/keys/${issued.body.keyId}`, { ...admin, status: 200 });
    await call('post', '/admin/keys/{keyId}/rotate', '/admin/keys/nope/rotate', { ...admin, status: 404 });
    await call('delete', '/admin/keys/{keyId}', `/admin/keys/${rotated.body.keyId}`, {
      ...admin,
      headers: { 'if-match': 'W/"1-stale"' },
      status: 412,
    });
    await call('delete', '/admin/keys/{keyId}', `/admin/keys/${issued.body.keyId}`, {
      ...admin,
      headers: { 'if-match': key.headers.etag },
      status: [204, 412],
    });
    await call('delete', '/admin/keys/{keyId}', `/admin/keys/${rotated.body.keyId}`, {
      ...admin,
      status: 204,
    });
    await call('get', '/admin/keys/{keyId}', `/admin/keys/${rotated.body.keyId}`, { ...admin, status: 200 });
    await call('post', '/admin/keys/{keyId}/rotate', `/admin/keys/${rotated.body.keyId}/rotate`, {
      ...admin,
      status: 409,
    });
    await call('delete', '/admin/keys/{keyId}', '/admin/keys/nope', { ...admin, status: 404 });
    // A tenant key is no operator's.
    await call('get', '/admin/tenants', '/admin/tenants', { status: 403 });
    await call('post', '/admin/tenants', '/admin/tenants', { ...admin, body: { name: '' }, status: 422 });
    expect(problems).toEqual([]);
  });

  it('given webhook endpoints and a receiver, then endpoints, pings, deliveries and redeliveries conform', async () => {
    let answered = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(++answered === 1 ? 500 : 204).end(answered === 1 ? 'not now' : undefined),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const created = await call('post', '/webhooks/endpoints', '/webhooks/endpoints', {
        body: { url: hook, description: 'OBS overlay' },
        status: 201,
      });
      const id = created.body.endpoint.id as string;
      const path = `/webhooks/endpoints/${id}`;
      const { fightId } = fights.find((f) => f.fixture === 'narateer-manual-walkthrough')!;
      const scoped = await call('post', '/webhooks/endpoints', '/webhooks/endpoints', {
        body: { url: 'http://127.0.0.1:9/closed', fightId, eventTypes: ['FightEnded'], enabled: false },
        status: 201,
      });
      await call('get', '/webhooks/endpoints', '/webhooks/endpoints', { status: 200 });
      await call('get', '/webhooks/endpoints', '/webhooks/endpoints?limit=1', { status: 200 });
      const one = await call('get', '/webhooks/endpoints/{endpointId}', path, { status: 200 });
      await call('patch', '/webhooks/endpoints/{endpointId}', path, {
        body: { description: 'overlay' },
        headers: { 'if-match': one.headers.etag },
        status: 200,
      });
      await call('patch', '/webhooks/endpoints/{endpointId}', path, {
        body: { description: 'stale' },
        headers: { 'if-match': one.headers.etag },
        status: 412,
      });
      // A fight's events after the endpoint exists: deliveries, the first one retried after a 500.
      const fight = await call('post', '/fights', '/fights', { body: { system: 'narateer' }, status: 201 });
      await call('post', '/fights/{id}/commands', `/fights/${fight.body.fightId}/commands`, {
        body: { type: 'AddNote', text: 'for the hook' },
        status: 200,
      });
      const deliveries = await until('the deliveries to be delivered', async () => {
        const page = await call(
          'get',
          '/webhooks/endpoints/{endpointId}/deliveries',
          `${path}/deliveries?limit=100`,
          {
            status: 200,
          },
        );
        const list = page.body as Array<{ id: string; status: string }>;
        return list.length >= 2 && list.every((d) => d.status === 'delivered') ? list : undefined;
      });
      await call('get', '/webhooks/endpoints/{endpointId}/deliveries', `${path}/deliveries?limit=1`, {
        status: 200,
      });
      for (const d of deliveries)
        await call(
          'get',
          '/webhooks/endpoints/{endpointId}/deliveries/{deliveryId}',
          `${path}/deliveries/${d.id}`,
          {
            status: 200,
          },
        );
      await call('post', '/webhooks/endpoints/{endpointId}/ping', `${path}/ping`, { status: 200 });
      await call(
        'post',
        '/webhooks/endpoints/{endpointId}/ping',
        `/webhooks/endpoints/${scoped.body.endpoint.id}/ping`,
        {
          status: 409,
        },
      );
      await call(
        'post',
        '/webhooks/endpoints/{endpointId}/deliveries/{deliveryId}/redeliver',
        `${path}/deliveries/${deliveries[0].id}/redeliver`,
        { status: 202 },
      );
      await call('post', '/webhooks/endpoints/{endpointId}/redeliver', `${path}/redeliver`, {
        body: { since: '2000-01-01T00:00:00Z' },
        status: 202,
      });
      await call(
        'patch',
        '/webhooks/endpoints/{endpointId}',
        `/webhooks/endpoints/${scoped.body.endpoint.id}`,
        {
          body: { enabled: true, fightId: null, eventTypes: [] },
          status: 200,
        },
      );
      // A receiver that is not there: the attempt failed, with no status.
      await call(
        'post',
        '/webhooks/endpoints/{endpointId}/ping',
        `/webhooks/endpoints/${scoped.body.endpoint.id}/ping`,
        {
          status: 200,
        },
      );
      await call('post', '/webhooks/endpoints/{endpointId}/rotate-secret', `${path}/rotate-secret`, {
        body: { overlapSeconds: 60 },
        status: 200,
      });
      await call('post', '/webhooks/endpoints/{endpointId}/rotate-secret', `${path}/rotate-secret`, {
        body: { overlapSeconds: 60 },
        status: [200, 409],
      });
      await call('get', '/webhooks/endpoints/{endpointId}', '/webhooks/endpoints/ep_nothing', {
        status: 404,
      });
      await call(
        'get',
        '/webhooks/endpoints/{endpointId}/deliveries/{deliveryId}',
        `${path}/deliveries/nope`,
        { status: 404 },
      );
      await call('post', '/webhooks/endpoints', '/webhooks/endpoints', {
        body: { url: 'not a url' },
        status: 422,
      });
      await call('delete', '/webhooks/endpoints/{endpointId}', path, {
        headers: { 'if-match': 'W/"x"' },
        status: 412,
      });
      await call('delete', '/webhooks/endpoints/{endpointId}', path, { status: 204 });
      await call('delete', '/webhooks/endpoints/{endpointId}', path, { status: 404 });
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    expect(problems).toEqual([]);
  });

  it('given the public and operational routes and the lab, then their answers conform', async () => {
    await call('get', '/systems', '/systems', { key: null, status: 200 });
    for (const id of ['narateer', 'arcana-beast', 'archsoul'])
      await call('get', '/systems/{id}', `/systems/${id}`, { key: null, status: 200 });
    await call('get', '/systems/{id}', '/systems/chess', { key: null, status: 404 });
    await call('get', '/asyncapi.json', '/asyncapi.json', { key: null, status: 200 });
    await call('get', '/projections', '/projections', { status: 200 });
    await call('get', '/health/live', '/health/live', { key: null, status: 200 });
    await call('get', '/health/ready', '/health/ready', { key: null, status: 200 });
    await call('get', '/metrics', '/metrics', { key: null, status: 200 });
    const run = await call('post', '/lab/runs', '/lab/runs', {
      body: { system: 'narateer', fights: 2, seed: '7', strategies: ['heavy', 'guard'] },
      status: 202,
    });
    await until('the lab run to finish', async () => {
      const got = await call('get', '/lab/runs/{id}', `/lab/runs/${run.body.id}`, { status: 200 });
      return got.body.status === 'running' ? undefined : got.body;
    });
    await call('get', '/lab/runs/{id}', '/lab/runs/nope', { status: 404 });
    await call('post', '/lab/runs', '/lab/runs', {
      body: { system: 'narateer', fights: 2, seed: '7', strategies: ['nope'] },
      status: 422,
    });
    expect(problems).toEqual([]);
  });

  it('given the common refusals, then each error answer conforms', async () => {
    const { fightId, seq } = fights.find((f) => f.fixture === 'narateer-manual-walkthrough')!;
    const commands = `/fights/${fightId}/commands`;
    const send = '/fights/{id}/commands';
    await call('post', '/fights', '/fights', {
      raw: '{"system":',
      contentType: 'application/json',
      status: 400,
    });
    await call('post', '/fights', '/fights', {
      raw: 'system=narateer',
      contentType: 'text/plain',
      status: 415,
    });
    await call('post', '/fights', '/fights', { body: { system: 'narateer', nope: 1 }, status: 422 });
    await call('post', '/fights', '/fights', { body: { system: 'chess' }, status: 422 });
    await call('post', '/fights', '/fights', {
      body: { system: 'narateer', name: 'x'.repeat(300_000) },
      status: 413,
    });
    await call('post', '/fights', '/fights', { key: null, body: { system: 'narateer' }, status: 401 });
    await call('post', '/fights', '/fights', {
      key: 'crs_not_a_key',
      body: { system: 'narateer' },
      status: 401,
    });
    await call('get', '/fights', '/fights?limit=nope', { status: 400 });
    await call('get', '/fights', '/fights?cursor=!!', { status: 400 });
    await call('get', '/fights/{id}', '/fights/00000000-0000-4000-8000-000000000000', { status: 404 });
    await call('get', '/fights/{id}', `/fights/${fightId}?at=${seq + 5}`, { status: 422 });
    await call('get', '/fights/{id}', `/fights/${fightId}?at=nope`, { status: 400 });
    await call('get', '/fights/{id}/combatants', `/fights/${fightId}/combatants?minSeq=${seq + 5}`, {
      status: 422,
    });
    await call('get', '/fights/{id}/combatants', '/fights/nope/combatants', { status: 404 });
    await call('get', '/fights/{id}/events', '/fights/nope/events', { status: 404 });
    await call('get', '/fights/{id}/log', '/fights/nope/log', { status: 404 });
    await call('get', '/fights/{id}/log', '/fights/nope/log?format=ndjson', { status: 404 });
    await call('get', '/fights/{id}/stream', '/fights/nope/stream', { status: 404 });
    await call('get', '/fights/{id}/stream', `/fights/${fightId}/stream?after=${seq + 5}`, { status: 422 });
    await call('post', send, '/fights/nope/commands', { body: { type: 'AddNote', text: 'x' }, status: 404 });
    // A fight still going: a refusal by the rules, a stale expectedSeq, a stale If-Match.
    const live = await call('post', '/fights', '/fights', {
      body: { system: 'narateer', dice: { mode: 'manual' }, combatants: [] },
      status: 201,
    });
    const url = `/fights/${live.body.fightId}/commands`;
    await call('post', send, url, { body: { type: 'StartRound' }, status: 422 });
    await call('post', send, url, { body: { type: 'AddNote', text: 'x', expectedSeq: 99 }, status: 409 });
    await call('post', send, url, {
      body: { type: 'AddNote', text: 'x' },
      headers: { 'if-match': 'W/"1-0000000000000000000000000000000000000000000000000000000000000000"' },
      status: 412,
    });
    await call('post', send, url, { body: { type: 'Nope' }, status: 422 });
    await call('post', send, url, { body: { type: 'AddNote', text: 'x', nope: true }, status: 422 });
    await call('post', send, url, { raw: '[1]', contentType: 'application/json', status: 400 });
    await call('post', send, commands, {
      body: { type: 'AddNote', text: 'after the end' },
      status: [200, 422],
    });
    await call('post', '/audit/verify', '/audit/verify', {
      raw: 'not a log',
      contentType: 'application/json',
      status: 400,
    });
    await call('post', '/audit/verify', '/audit/verify', { body: { format: 'nope' }, status: 422 });
    await call('post', '/audit/verify', '/audit/verify', { key: null, body: {}, status: 401 });
    await call('get', '/projections', '/projections', { key: null, status: 401 });
    await call('get', '/systems', '/systems?x=1', { key: null, status: 400 });
    await call('get', '/metrics', '/metrics?x=1', { key: null, status: 400 });
    await call('get', '/health/live', '/health/live?x=1', { key: null, status: 400 });
    expect(problems).toEqual([]);
  });

  it('every operation of the document was answered with a success whose body was checked', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(DOC.paths))
      for (const [method, op] of Object.entries(item)) {
        const ok = Object.keys(op.responses).filter((s) => /^2/.test(s));
        // The stream's success is endless: its refusals are checked above, its 200 is not a body.
        if (path === '/fights/{id}/stream') continue;
        if (!ok.some((s) => checked.has(`${method.toUpperCase()} ${path} ${s}`)))
          missing.push(`${method.toUpperCase()} ${path}`);
      }
    expect(missing).toEqual([]);
  });
});
