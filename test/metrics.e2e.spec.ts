import { SYSTEMS } from '@app/rules';
import { removeDir, sheet, startApp, TestApp, useApp } from './support/app';

interface Sample {
  name: string;
  labels: Record<string, string>;
}

/** The service's own series (crs_*): the process metrics' label sets belong to Node. */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('crs_'))
    .map((line) => {
      const m = /^(\w+)(?:\{(.*)\})? /.exec(line)!;
      const labels = Object.fromEntries(
        [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
      );
      return { name: m[1], labels };
    });
}

/** Every route pattern the app serves, from Fastify's route tree (each line a segment under its parent). */
function routePatterns(t: TestApp): Set<string> {
  const tree = (
    t.app.getHttpAdapter().getInstance() as { printRoutes(o: { commonPrefix: boolean }): string }
  ).printRoutes({ commonPrefix: false });
  const parents: string[] = [];
  const patterns = new Set<string>();
  for (const line of tree.split('\n')) {
    const m = /^(.*?)[└├]── (\S+)(?: \((.*)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    const path = (parents[depth - 1] ?? '') + m[2];
    parents[depth] = path;
    if (m[3]) patterns.add(path);
  }
  return patterns;
}

const junk = (i: number) =>
  `Junk${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;

describe('/metrics: bounded label sets', () => {
  const t = useApp();

  it('50 junk command types and 50 junk URLs add no series; every label value is from a known set', async () => {
    const { body } = await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        dice: { mode: 'manual' },
        combatants: [{ id: 'a', name: 'A', sheet: sheet() }],
      })
      .expect(201);
    const fightId = body.fightId as string;
    const traffic = async (i: number) => {
      await t.http
        .post(`/fights/${fightId}/commands`)
        .send({ type: junk(i) })
        .expect(422);
      await t.http
        .post(`/fights/no-such-fight-${i}/commands`)
        .send({ type: junk(i) })
        .expect(404);
      await t.http.get(`/nowhere/${i}?q=${i}`).expect(404);
      await t.http.get(`/fights/${fightId}-${i}`).expect(404);
      // A path under /graphql is no route (404, unmatched); every operation is the one /graphql series.
      await t.http.get(`/graphql/x${i}`).expect(404);
      await t.http
        .post('/graphql')
        .send({ query: `{ q${i}: __typename }` })
        .expect(200);
    };
    await t.http.post(`/fights/${fightId}/commands`).send({ type: 'AddNote', text: 'known' }).expect(200);
    await traffic(0);
    await t.anon.get('/metrics').expect(200); // counted once it has finished: its own series is there from the second scrape on
    const before = samples((await t.anon.get('/metrics').expect(200)).text);
    for (let i = 1; i <= 50; i++) await traffic(i);
    const after = samples((await t.anon.get('/metrics').expect(200)).text);
    expect(after.length).toBe(before.length);

    const systems = new Set([...Object.keys(SYSTEMS), 'unknown']);
    const types = new Set([
      ...Object.values(SYSTEMS).flatMap((s) => [
        ...Object.keys(s.contract.commands),
        ...Object.keys(s.commands),
      ]),
      'UndoCommands',
      'unknown',
    ]);
    const known: Record<string, Set<string>> = {
      system: systems,
      type: types,
      outcome: new Set(['ok', 'rejected', 'failed']),
      method: new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'OTHER']),
      route: new Set([...routePatterns(t), '/graphql', '/docs', 'unmatched']),
      projection: new Set(['fight-views']),
      le: new Set([
        '0.001',
        '0.0025',
        '0.005',
        '0.01',
        '0.025',
        '0.05',
        '0.1',
        '0.25',
        '0.5',
        '1',
        '2.5',
        '+Inf',
      ]),
    };
    const status = {
      crs_http_requests_total: new Set(['1xx', '2xx', '3xx', '4xx', '5xx']),
      crs_webhook_deliveries: new Set(['pending', 'delivered', 'failed']),
    };
    const strays: string[] = [];
    for (const s of after) {
      for (const [label, value] of Object.entries(s.labels)) {
        const set = label === 'status' ? status[s.name as keyof typeof status] : known[label];
        if (!set?.has(value)) strays.push(`${s.name}{${label}="${value}"}`);
      }
    }
    expect(strays).toEqual([]);
    const commands = after
      .filter((s) => s.name === 'crs_command_duration_seconds_count')
      .map((s) => `${s.labels.system}/${s.labels.type}/${s.labels.outcome}`);
    expect(commands.sort()).toEqual(['narateer/AddNote/ok', 'narateer/unknown/rejected']);
    const routes = new Set(
      after.filter((s) => s.name === 'crs_http_requests_total').map((s) => s.labels.route),
    );
    expect(routes).toEqual(
      new Set([
        '/admin/tenants',
        '/fights',
        '/fights/:id',
        '/fights/:id/commands',
        '/graphql',
        '/metrics',
        'unmatched',
      ]),
    );
  });
});

describe('/metrics: request counts', () => {
  const t = useApp();
  const count = (text: string, labels: string) =>
    Number(new RegExp(`^crs_http_requests_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? '0');

  it('each answered request counts once, by method, route and status class, however often it is scraped', async () => {
    const live = 'method="GET",route="/health/live",status="2xx"';
    const missing = 'method="GET",route="/fights/:id",status="4xx"';
    const first = (await t.anon.get('/metrics').expect(200)).text;
    for (let i = 0; i < 7; i++) await t.anon.get('/health/live').expect(200);
    for (let i = 0; i < 3; i++) await t.http.get(`/fights/no-such-fight-${i}`).expect(404);
    const second = (await t.anon.get('/metrics').expect(200)).text;
    expect(count(second, live) - count(first, live)).toBe(7);
    expect(count(second, missing) - count(first, missing)).toBe(3);
    const third = (await t.anon.get('/metrics').expect(200)).text;
    expect(count(third, live)).toBe(count(second, live));
    expect(count(third, missing)).toBe(count(second, missing));
  });
});

describe('/metrics behind METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789';
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ config: { metricsToken: token } });
  });
  afterAll(async () => {
    await t.close();
    removeDir(t.dataDir);
  });

  it('without the token: 401 with WWW-Authenticate; a tenant key is not the token; with it: the metrics', async () => {
    const none = await t.anon.get('/metrics').expect(401);
    expect(none.body).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED', field: 'authorization' });
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const wrong = await t.http.get('/metrics').expect(401);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
    expect(wrong.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    // The metrics token is a header, never a query parameter: ?token= is not one of this route's.
    const query = await t.anon.get(`/metrics?token=${token}`).expect(400);
    expect(query.body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'token' });
    const ok = await t.anon.get('/metrics').set('authorization', `Bearer ${token}`).expect(200);
    expect(ok.text).toMatch(/crs_open_subscriptions 0/);
  });

  it('health stays open', async () => {
    await t.anon.get('/health/live').expect(200);
  });
});
