import { connect } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { removeDir, sheet, useApp } from './support/app';
import { kill, SERVER_ADMIN_KEY, startServer, tenantKey } from './support/server';

/** The JSON lines a child server has written to stdout so far. */
const jsonLines = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { req?: { id?: string } });

/**
 * A server of its own (the built service) logging at `level`, its stdout kept: `out()` is what it has
 * written so far. Stopped and its data removed after `run`.
 */
async function withLoggingServer(
  level: string,
  run: (server: { url: string }, out: () => string) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crs-log-'));
  const server = await startServer({ ...env, DATA_DIR: dataDir, LOG_LEVEL: level });
  let out = '';
  server.proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  try {
    await run(server, () => out);
  } finally {
    await kill(server.proc, 'SIGTERM');
    removeDir(dataDir);
  }
}

/** Waits until the server has logged the request with this id (`count` times): stdout arrives when it arrives. */
async function logged(read: () => string, id: string, count = 1): Promise<void> {
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 10))) {
    if (jsonLines(read()).filter((l) => l.req?.id === id).length >= count) return;
    if (Date.now() - started > 30_000) throw new Error(`the server logged no request ${id} in 30 s`);
  }
}

describe('operations: health and metrics', () => {
  const t = useApp();

  it('/health/live and /health/ready answer without a key; ready checks the store and the projections', async () => {
    expect((await t.anon.get('/health/live').expect(200)).body).toEqual({
      status: 'ok',
      info: {},
      error: {},
      details: {},
    });
    const ready = await t.anon.get('/health/ready').expect(200);
    expect(ready.body).toMatchObject({
      status: 'ok',
      info: {
        eventStore: { status: 'up', engine: 'sqlite' },
        projections: { status: 'up', 'fight-views': expect.any(Number) },
      },
    });
  });

  it('/metrics reports command latency by system and type, events appended and open subscriptions', async () => {
    const { body } = await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        dice: { mode: 'manual' },
        combatants: [{ id: 'a', name: 'A', sheet: sheet() }],
      })
      .expect(201);
    await t.http
      .post(`/fights/${body.fightId}/commands`)
      .send({ type: 'AddNote', text: 'measured' })
      .expect(200);
    await t.http.post(`/fights/${body.fightId}/commands`).send({ type: 'StartRound' }).expect(422);
    const text = (await t.anon.get('/metrics').expect(200)).text;
    expect(text).toMatch(
      /crs_command_duration_seconds_count\{system="narateer",type="AddNote",outcome="ok"\} 1/,
    );
    expect(text).toMatch(
      /crs_command_duration_seconds_count\{system="narateer",type="StartRound",outcome="rejected"\} 1/,
    );
    expect(text).toMatch(/crs_events_appended_total\{system="narateer"\} 1/);
    expect(text).toMatch(/crs_open_subscriptions 0/);
    expect(text).toMatch(/crs_projection_lag_events\{projection="fight-views"\} \d+/);
    expect(text).toMatch(/crs_webhook_deliveries\{status="pending"\} 0/);
    expect(text).toMatch(/crs_webhook_failed_attempts 0/);
    expect(text).toMatch(/crs_webhook_deliveries_pruned_total 0/);
  });
});

describe('structured logs', () => {
  it('log lines are JSON with a request id that reaches the events’ metadata; keys and tokens never appear', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crs-log-'));
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    let out = '';
    server.proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const key = await tenantKey(server.url);
      const headers = {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'x-request-id': 'req-42',
      };
      const created = await fetch(`${server.url}/fights`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ system: 'narateer', combatants: [] }),
      });
      expect(created.headers.get('x-request-id')).toBe('req-42');
      const fightId = ((await created.json()) as { fightId: string }).fightId;
      await fetch(`${server.url}/fights/${fightId}?token=${key}`);
      const log = (await (await fetch(`${server.url}/fights/${fightId}/log`, { headers })).json()) as {
        entries: Array<{ type: string }>;
      };
      expect(log.entries[0].type).toBe('FightStarted');
      await logged(() => out, 'req-42', 2);
      const lines = out.split('\n').filter((l) => l.startsWith('{'));
      expect(lines.length).toBeGreaterThan(2);
      const parsed = lines.map((l) => JSON.parse(l));
      expect(parsed.some((l) => l.req?.id === 'req-42')).toBe(true);
      expect(out).not.toContain(key);
      // The secret is everything after `crs_<id>_`; it may itself contain `_`.
      const secret = key.replace(/^crs_[0-9a-f]{16}_/, '');
      expect(secret).toHaveLength(43);
      expect(out).not.toContain(secret);
    } finally {
      await kill(server.proc, 'SIGTERM');
    }
    const db = new Database(join(dataDir, 'events.sqlite'), { readonly: true });
    const metadata = (
      db.prepare("SELECT metadata FROM events WHERE type = 'FightStarted'").get() as { metadata: string }
    ).metadata;
    db.close();
    expect(JSON.parse(metadata)).toMatchObject({ requestId: 'req-42' });
    removeDir(dataDir);
  });
});

describe('access log lines: level, error code and caller', () => {
  it('4xx lines carry err.code, the tenant and the principal (never a secret) at info or warn; GraphQL names its operation; probes stay quiet', async () => {
    await withLoggingServer('info', async (server, out) => {
      const call = (path: string, init: { method?: string; key?: string; body?: unknown; id: string }) =>
        fetch(`${server.url}${path}`, {
          method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
          headers: {
            'content-type': 'application/json',
            'x-request-id': init.id,
            ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
          },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        });
      const tenant = (await (
        await call('/admin/tenants', { key: SERVER_ADMIN_KEY, body: { name: 'logged' }, id: 'tenant' })
      ).json()) as { tenantId: string; keyId: string; apiKey: string };
      const key = tenant.apiKey;
      const { fightId } = (await (
        await call('/fights', { key, body: { system: 'narateer', combatants: [] }, id: 'create' })
      ).json()) as { fightId: string };
      const spectator = (await (
        await call(`/fights/${fightId}/tokens`, { key, body: { role: 'spectator' }, id: 'token' })
      ).json()) as { tokenId: string; token: string };

      expect(
        (await call(`/fights/${fightId}/commands`, { key, body: { type: 'StartRound' }, id: 'refused' }))
          .status,
      ).toBe(422);
      expect(
        (
          await call(`/fights/${fightId}/commands`, {
            key: spectator.token,
            body: { type: 'AddNote', text: 'hi' },
            id: 'forbidden',
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await call('/fights', {
            key: 'crs_0000000000000000_not-a-real-secret-at-all-0123456789abcd',
            id: 'unauthenticated',
          })
        ).status,
      ).toBe(401);
      const refusedGql = await call('/graphql', {
        key,
        body: {
          query: `mutation RefusedRound { command(fightId: "${fightId}", input: { type: "StartRound" }) { seq } }`,
        },
        id: 'gql-refused',
      });
      expect(refusedGql.status).toBe(200);
      expect(
        (
          await call('/graphql', {
            key,
            body: { query: `query OneFight { fight(fightId: "${fightId}") { seq } }` },
            id: 'gql-ok',
          })
        ).status,
      ).toBe(200);
      for (const path of ['/health/live', '/health/ready', '/metrics'])
        expect((await call(path, { id: `probe${path.replace(/\//g, '-')}` })).status).toBe(200);
      // The probes log nothing at info: a last logged request says the server has written what came before.
      expect((await call(`/fights/${fightId}`, { key, id: 'last' })).status).toBe(200);
      await logged(out, 'last');

      const lines = out()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, any>);
      const line = (id: string) => lines.filter((l) => l.req?.id === id);
      const INFO = 30;
      const WARN = 40;
      const asTenant = { tenant: tenant.tenantId, principal: { kind: 'tenant', id: tenant.keyId } };
      expect(line('create')).toEqual([
        expect.objectContaining({ level: INFO, res: { statusCode: 201 }, ...asTenant }),
      ]);
      expect(line('create')[0]).not.toHaveProperty('err');
      // An expected refusal: info, with the rule's code.
      expect(line('refused')).toEqual([
        expect.objectContaining({
          level: INFO,
          res: { statusCode: 422 },
          err: { statusCode: 422, code: 'INITIATIVE_NOT_SET', field: 'type' },
          ...asTenant,
        }),
      ]);
      // Not allowed, or not who it claims: warn. A token's tenant is its fight's owner.
      expect(line('forbidden')).toEqual([
        expect.objectContaining({
          level: WARN,
          res: { statusCode: 403 },
          err: expect.objectContaining({ statusCode: 403, code: expect.any(String) }),
          tenant: tenant.tenantId,
          principal: { kind: 'spectator', id: spectator.tokenId, fightId },
        }),
      ]);
      expect(line('unauthenticated')).toEqual([
        expect.objectContaining({
          level: WARN,
          res: { statusCode: 401 },
          err: { statusCode: 401, code: 'INVALID_CREDENTIALS', field: 'authorization' },
        }),
      ]);
      expect(line('unauthenticated')[0]).not.toHaveProperty('principal');
      // GraphQL: the status line says 200; the log line says which operation and which errors.
      expect(line('gql-refused')).toEqual([
        expect.objectContaining({
          level: INFO,
          res: { statusCode: 200 },
          graphql: { operation: 'RefusedRound', errors: ['INITIATIVE_NOT_SET'] },
          err: expect.objectContaining({ statusCode: 422, code: 'INITIATIVE_NOT_SET' }),
          ...asTenant,
        }),
      ]);
      expect(line('gql-ok')).toEqual([
        expect.objectContaining({ level: INFO, graphql: { operation: 'OneFight', errors: [] }, ...asTenant }),
      ]);
      expect(line('gql-ok')[0]).not.toHaveProperty('err');
      // Probes and scrapes are at debug: not in an info log.
      for (const path of ['/health/live', '/health/ready', '/metrics'])
        expect(line(`probe${path.replace(/\//g, '-')}`)).toEqual([]);
      // Response headers are not repeated on every line.
      expect(lines.filter((l) => l.res).every((l) => Object.keys(l.res).join() === 'statusCode')).toBe(true);
      for (const secret of [
        key,
        key.replace(/^crs_[0-9a-f]{16}_/, ''),
        spectator.token,
        spectator.token.replace(/^crt_[0-9a-f]{16}_/, ''),
      ])
        expect(out()).not.toContain(secret);
    });
  });

  it('given clients that leave mid-body or let the body time out, their lines say so at info: the request never arrived whole', async () => {
    await withLoggingServer(
      'info',
      async (server, out) => {
        const key = await tenantKey(server.url);
        const { port } = new URL(server.url);
        const halfBody = (id: string) =>
          `POST /fights HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nx-request-id: ${id}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"sys';
        // One leaves once its half body is out; the other waits for the server's answer (408).
        const left = connect(Number(port), '127.0.0.1', () =>
          left.write(halfBody('left'), () => setTimeout(() => left.destroy(), 100)),
        );
        const waited = await new Promise<string>((resolve, reject) => {
          const socket = connect(Number(port), '127.0.0.1', () => socket.write(halfBody('waited')));
          let text = '';
          socket.on('data', (c: Buffer) => (text += c.toString()));
          socket.on('close', () => resolve(text));
          socket.on('error', reject);
        });
        expect(waited).toMatch(/^HTTP\/1\.1 408 /);
        await logged(out, 'left');
        await logged(out, 'waited');
        const line = (id: string) => jsonLines(out()).find((l) => l.req?.id === id) as Record<string, any>;
        expect(line('left')).toMatchObject({ level: 30, msg: 'request abandoned' });
        expect(line('left')).not.toHaveProperty('err');
        expect(line('waited')).toMatchObject({
          level: 30,
          msg: 'request errored',
          res: { statusCode: 408 },
          err: { statusCode: 408, code: 'REQUEST_TIMEOUT' },
        });
      },
      { REQUEST_TIMEOUT_MS: '1000' },
    );
  });

  it('given an SSE client that leaves, its line is "stream closed" at info, with no error', async () => {
    await withLoggingServer('info', async (server, out) => {
      const key = await tenantKey(server.url);
      const created = await fetch(`${server.url}/fights`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ system: 'narateer', combatants: [] }),
      });
      const { fightId } = (await created.json()) as { fightId: string };
      const left = new AbortController();
      const res = await fetch(`${server.url}/fights/${fightId}/stream?after=0`, {
        headers: { authorization: `Bearer ${key}`, 'x-request-id': 'sse' },
        signal: left.signal,
      });
      expect(res.status).toBe(200);
      // The first event (FightStarted) has come: the stream is open, then its client leaves.
      const reader = res.body!.getReader();
      for (let text = ''; !text.includes('id: 1\n');)
        text += new TextDecoder().decode((await reader.read()).value);
      left.abort();
      await logged(out, 'sse');
      const lines = jsonLines(out()).filter((l) => l.req?.id === 'sse') as Array<Record<string, any>>;
      expect(lines).toEqual([
        expect.objectContaining({ level: 30, msg: 'stream closed', res: { statusCode: 200 } }),
      ]);
      expect(lines[0]).not.toHaveProperty('err');
    });
  });

  it('given CORS_ORIGINS, when a browser sends a preflight, then it is answered like any request: its log line, its request id and the security headers', async () => {
    const origin = 'https://table.example';
    await withLoggingServer(
      'info',
      async (server, out) => {
        const res = await fetch(`${server.url}/fights`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'x-request-id': 'preflight' },
        });
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe(origin);
        expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST');
        expect(res.headers.get('x-request-id')).toBe('preflight');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
        expect(await res.text()).toBe('');
        await logged(out, 'preflight');
        expect(jsonLines(out()).filter((l) => l.req?.id === 'preflight')).toEqual([
          expect.objectContaining({
            level: 30,
            req: expect.objectContaining({ method: 'OPTIONS', url: '/fights' }),
            res: { statusCode: 204 },
          }),
        ]);
      },
      { CORS_ORIGINS: origin },
    );
  });

  it('health probes and metrics scrapes are logged at debug', async () => {
    await withLoggingServer('debug', async (server, out) => {
      await fetch(`${server.url}/health/live`, { headers: { 'x-request-id': 'probe' } });
      await logged(out, 'probe');
      const lines = out()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, any>);
      expect(lines.filter((l) => l.req?.id === 'probe')).toEqual([
        expect.objectContaining({ level: 20, res: { statusCode: 200 } }),
      ]);
    });
  });
});
