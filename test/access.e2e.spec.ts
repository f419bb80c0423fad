import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { removeDir, startApp, TEST_ADMIN_KEY, TestApp } from './support/app';
import { duelFight } from './support/fight-calls';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('access control: no one acts where they do not belong', () => {
  let t: TestApp;
  let fightId: string;
  let other: { tenantId: string; apiKey: string };
  let player: string;
  let spectator: string;
  let playerTokenId: string;
  const log = async () => (await t.http.get(`/fights/${fightId}/events`).expect(200)).body;

  beforeAll(async () => {
    t = await startApp({ listen: true });
    other = await t.tenant('Other table');
    fightId = await duelFight(t);
    const p = await t.http
      .post(`/fights/${fightId}/tokens`)
      .send({ role: 'player', combatantIds: ['mira'], label: 'Alice' })
      .expect(201);
    player = p.body.token;
    playerTokenId = p.body.tokenId;
    spectator = (await t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator' }).expect(201)).body
      .token;
    await t.http
      .post(`/fights/${fightId}/commands`)
      .send({ type: 'SetInitiative', order: ['mira', 'orin'] })
      .expect(200);
    await t.http.post(`/fights/${fightId}/commands`).send({ type: 'StartRound' }).expect(200);
    await t.http.post(`/fights/${fightId}/commands`).send({ type: 'StartActivation' }).expect(200);
  });
  afterAll(async () => {
    await t.close();
    removeDir(t.dataDir);
  });

  it('no key, a made-up key and a revoked key are 401 with a stable code', async () => {
    expect((await t.anon.get('/fights').expect(401)).body).toMatchObject({
      code: 'UNAUTHENTICATED',
      field: 'authorization',
    });
    expect(
      (
        await t.anon
          .get('/fights')
          .set(bearer('crs_0123456789abcdef_' + 'A'.repeat(43)))
          .expect(401)
      ).body.code,
    ).toBe('INVALID_CREDENTIALS');
    const extra = await t.anon
      .post(`/admin/tenants/${t.tenantId}/keys`)
      .set(bearer(TEST_ADMIN_KEY))
      .send({ label: 'temp' })
      .expect(201);
    await t.anon.get('/fights').set(bearer(extra.body.apiKey)).expect(200);
    await t.anon.delete(`/admin/keys/${extra.body.keyId}`).set(bearer(TEST_ADMIN_KEY)).expect(204);
    await t.anon.get('/fights').set(bearer(extra.body.apiKey)).expect(401);
    await t.anon.get('/systems').expect(200);
  });

  it('given a created tenant, an issued and a rotated key, then each Location is a GET the operator can read', async () => {
    const admin = bearer(TEST_ADMIN_KEY);
    const created = await t.anon.post('/admin/tenants').set(admin).send({ name: 'Located' }).expect(201);
    const tenant = await t.anon.get(created.headers.location).set(admin).expect(200);
    expect(tenant.body).toEqual({
      tenantId: created.body.tenantId,
      name: 'Located',
      createdAt: expect.any(String),
    });
    const issued = await t.anon
      .post(`/admin/tenants/${created.body.tenantId}/keys`)
      .set(admin)
      .send({ label: 'located' })
      .expect(201);
    const key = await t.anon.get(issued.headers.location).set(admin).expect(200);
    expect(key.body).toMatchObject({
      keyId: issued.body.keyId,
      tenantId: created.body.tenantId,
      label: 'located',
      revokedAt: null,
    });
    expect(JSON.stringify(key.body)).not.toContain(issued.body.apiKey);
    expect(key.body.hash).toBeUndefined();
    const rotated = await t.anon.post(`/admin/keys/${issued.body.keyId}/rotate`).set(admin).expect(201);
    expect((await t.anon.get(rotated.headers.location).set(admin).expect(200)).body.keyId).toBe(
      rotated.body.keyId,
    );
    // The rotated-away key is still there to read, revoked.
    expect(
      (await t.anon.get(`/admin/keys/${issued.body.keyId}`).set(admin).expect(200)).body.revokedAt,
    ).toEqual(expect.any(String));
    for (const [path, code, field] of [
      ['/admin/tenants/tnt_none', 'TENANT_NOT_FOUND', 'tenantId'],
      ['/admin/keys/key_none', 'KEY_NOT_FOUND', 'keyId'],
    ])
      expect((await t.anon.get(path).set(admin).expect(404)).body).toMatchObject({ code, field });
    // A tenant's own key is no operator key.
    await t.anon.get(created.headers.location).set(bearer(created.body.apiKey)).expect(403);
  });

  it('given an issued token, then its Location is a GET for the GM, never showing its secret', async () => {
    const issued = await t.http
      .post(`/fights/${fightId}/tokens`)
      .send({ role: 'spectator', label: 'located' })
      .expect(201);
    const read = await t.http.get(issued.headers.location).expect(200);
    expect(read.body).toMatchObject({
      tokenId: issued.body.tokenId,
      fightId,
      role: 'spectator',
      revokedAt: null,
    });
    expect(JSON.stringify(read.body)).not.toContain(issued.body.token);
    expect(read.body.hash).toBeUndefined();
    await t.anon.get(issued.headers.location).set(bearer(other.apiKey)).expect(404);
    await t.anon.get(issued.headers.location).set(bearer(player)).expect(403);
    expect((await t.http.get(`/fights/${fightId}/tokens/tok_none`).expect(404)).body).toMatchObject({
      code: 'TOKEN_NOT_FOUND',
      field: 'tokenId',
    });
  });

  it('given a player token naming one combatant twice, then 422 INVALID_FIELD naming the repeat, combatantIds[1], and no token is issued', async () => {
    const before = (await t.http.get(`/fights/${fightId}/tokens`).expect(200)).body.length;
    const refused = await t.http
      .post(`/fights/${fightId}/tokens`)
      .send({ role: 'player', combatantIds: ['mira', 'mira'] })
      .expect(422);
    expect(refused.body).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'combatantIds[1]',
      issues: [{ field: 'combatantIds[1]', code: 'INVALID_FIELD' }],
    });
    expect(refused.body.message).toContain('mira');
    expect((await t.http.get(`/fights/${fightId}/tokens`).expect(200)).body).toHaveLength(before);
  });

  it('given an Authorization header and a ?token= in one request, then 400 VALIDATION_FAILED naming token, whatever the token', async () => {
    for (const token of ['not-a-token', player, t.apiKey]) {
      const res = await t.http.get(`/fights/${fightId}`).query({ token }).expect(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        field: 'token',
        issues: [{ field: 'token', code: 'INVALID_FIELD' }],
      });
    }
    await t.anon.get(`/fights/${fightId}`).query({ token: spectator }).expect(200);
  });

  it('given ?token= instead of the header on a GET of one tenant, key or token, then it is answered as with the header', async () => {
    await t.anon.get(`/admin/tenants/${t.tenantId}`).query({ token: TEST_ADMIN_KEY }).expect(200);
    const keys = await t.anon.get('/admin/keys').query({ token: TEST_ADMIN_KEY }).expect(200);
    const keyId = (keys.body as Array<{ keyId: string }>)[0].keyId;
    expect(
      (await t.anon.get(`/admin/keys/${keyId}`).query({ token: TEST_ADMIN_KEY }).expect(200)).body,
    ).toMatchObject({ keyId });
    expect(
      (await t.anon.get(`/fights/${fightId}/tokens/${playerTokenId}`).query({ token: t.apiKey }).expect(200))
        .body,
    ).toMatchObject({ tokenId: playerTokenId });
  });

  it('another tenant cannot see, read, export, stream or command the fight', async () => {
    const before = await log();
    const as = bearer(other.apiKey);
    expect((await t.anon.get('/fights').set(as).expect(200)).body.items).toEqual([]);
    for (const path of [
      `/fights/${fightId}`,
      `/fights/${fightId}/events`,
      `/fights/${fightId}/log`,
      `/fights/${fightId}/combatants`,
      `/fights/${fightId}/stream`,
      `/fights/${fightId}/tokens`,
    ]) {
      expect((await t.anon.get(path).set(as).expect(404)).body.code).toBe('FIGHT_NOT_FOUND');
    }
    await t.anon
      .post(`/fights/${fightId}/commands`)
      .set(as)
      .send({ type: 'AddNote', text: 'pwned' })
      .expect(404);
    const gql = await t.gql(`{ fight(fightId: "${fightId}") { seq } }`, undefined, other.apiKey);
    expect(gql.errors?.[0].extensions.code).toBe('FIGHT_NOT_FOUND');
    expect(await log()).toEqual(before);
  });

  it('a player acts only for their own combatant; GM-only commands are refused', async () => {
    const before = await log();
    const as = bearer(player);
    const notMine = await t.anon
      .post(`/fights/${fightId}/commands`)
      .set(as)
      .send({
        type: 'DeclareExchange',
        attackerId: 'orin',
        targetId: 'mira',
        kind: 'melee',
        weaponId: 'x',
        boost: 0,
      })
      .expect(403);
    expect(notMine.body).toMatchObject({ code: 'NOT_YOUR_COMBATANT', field: 'attackerId' });
    expect(
      (
        await t.anon
          .post(`/fights/${fightId}/commands`)
          .set(as)
          .send({ type: 'AddNote', text: 'x' })
          .expect(403)
      ).body.code,
    ).toBe('GM_ONLY');
    await t.anon.post('/fights').set(as).send({ system: 'narateer' }).expect(403);
    await t.anon.post(`/fights/${fightId}/tokens`).set(as).send({ role: 'spectator' }).expect(403);
    expect(await log()).toEqual(before);
    // Mira's player may end Mira's own activation.
    const ended = await t.anon
      .post(`/fights/${fightId}/commands`)
      .set(as)
      .send({ type: 'EndActivation' })
      .expect(200);
    expect(ended.body.events[0].actor).toBe(`player:${playerTokenId}`);
    await t.anon.get(`/fights/${fightId}`).set(as).expect(200);
  });

  it('a spectator reads and changes nothing', async () => {
    const before = await log();
    const as = bearer(spectator);
    await t.anon.get(`/fights/${fightId}/events`).set(as).expect(200);
    expect(
      (
        await t.anon
          .post(`/fights/${fightId}/commands`)
          .set(as)
          .send({ type: 'AddNote', text: 'x' })
          .expect(403)
      ).body.code,
    ).toBe('FORBIDDEN');
    const gql = await t.gql(
      `mutation { command(fightId: "${fightId}", input: { type: "StartRound" }) { seq } }`,
      undefined,
      spectator,
    );
    expect(gql.errors?.[0].extensions).toMatchObject({ statusCode: 403 });
    expect(await log()).toEqual(before);
  });

  it('a spectator cannot subscribe to another fight; a revoked token stops its open subscription at once', async () => {
    const otherFight = (await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201))
      .body.fightId;
    const token = (
      await t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator', label: 'overlay' }).expect(201)
    ).body;
    const client = createClient({
      url: `${t.url!.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: bearer(token.token),
    });
    const refused = await new Promise<any>((resolve) =>
      client.subscribe(
        { query: `subscription { fightEvents(fightId: "${otherFight}") { seq } }` },
        { next: (r) => resolve(r.errors), error: resolve, complete: () => resolve(undefined) },
      ),
    );
    expect(refused?.[0]?.extensions?.code).toBe('FIGHT_NOT_FOUND');

    let completed = false;
    const seqs: number[] = [];
    client.subscribe<{ fightEvents: { seq: number } }>(
      { query: `subscription { fightEvents(fightId: "${fightId}") { seq } }` },
      {
        next: (r) => r.data && seqs.push(r.data.fightEvents.seq),
        error: () => (completed = true),
        complete: () => (completed = true),
      },
    );
    // As long as a loaded machine takes: 60 s is only a bound on a hang.
    const until = async (f: () => boolean) => {
      for (const deadline = Date.now() + 60_000; !f() && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 20));
      expect(f()).toBe(true);
    };
    await until(() => seqs.length > 0);
    await t.http.delete(`/fights/${fightId}/tokens/${token.tokenId}`).expect(204);
    await until(() => completed);
    await t.anon.get(`/fights/${fightId}`).set(bearer(token.token)).expect(401);
    await client.dispose();
  });

  it('a revoked token closes an open SSE stream', async () => {
    const token = (await t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator' }).expect(201))
      .body;
    const res = await fetch(`${t.url}/fights/${fightId}/stream?token=${token.token}`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    await t.http.delete(`/fights/${fightId}/tokens/${token.tokenId}`).expect(204);
    let done = false;
    for (let i = 0; i < 50 && !done; i++) done = (await reader.read()).done;
    expect(done).toBe(true);
  });

  it('hostile sizes: a 10 MB body and a GraphQL query nested 50 deep are refused and change nothing', async () => {
    const before = await log();
    const big = await t.http
      .post(`/fights/${fightId}/commands`)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ type: 'AddNote', text: 'x'.repeat(10 * 1024 * 1024) }));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
    let q = 'name';
    for (let i = 0; i < 50; i++) q = `ofType { ${q} }`;
    const deepQuery = await t.gql(`{ __schema { types { fields { type { ${q} } } } } }`);
    expect(deepQuery.errors?.[0].extensions).toMatchObject({ statusCode: 400, code: 'QUERY_TOO_DEEP' });
    expect(deepQuery.errors?.[0].message).toMatch(/nests 55 levels deep; the limit is 20/);
    const aliases = Array.from(
      { length: 300 },
      (_, i) => `a${i}: fights { items { fightId name status } }`,
    ).join(' ');
    const wide = await t.gql(`{ ${aliases} }`);
    expect(wide.errors?.[0].extensions.statusCode).toBe(400);
    expect(await log()).toEqual(before);
  });
});

describe('rate limits per key', () => {
  it('a burst far above the limit from one key gets 429 RATE_LIMITED; another key is unaffected', async () => {
    const t = await startApp({ rateLimitPerSecond: 20 });
    // The clock stands still during the burst: on a busy machine it would otherwise span several one-second windows.
    const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 10_000);
    try {
      const results = await Promise.all(Array.from({ length: 100 }, () => t.http.get('/fights')));
      const limited = results.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThanOrEqual(70);
      expect(limited[0].body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
      const other = await t.tenant('calm');
      await t.anon.get('/fights').set(bearer(other.apiKey)).expect(200);
    } finally {
      clock.mockRestore();
      await t.close();
      removeDir(t.dataDir);
    }
  });
});
