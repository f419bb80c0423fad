import { removeDir, startApp, TestApp } from './support/app';
import { onEveryEngine } from './support/engines';
import { soloFight } from './support/fight-calls';

/** JSON nested `depth` arrays deep, as text (JSON.stringify would recurse as deep itself). */
const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

/**
 * Hostile input refused at the edge, with the same answer on every engine: nesting past the
 * body parser's limit, numbers past a safe integer, and strings PostgreSQL cannot store
 * (U+0000, lone surrogates) in a JSON body, a path parameter or a query string.
 */
function edgeSuite(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup: () => Promise<void> = async () => undefined,
) {
  describe(`hostile input at the edge (${engine})`, () => {
    let t: TestApp;
    let fightId: string;
    const log = async () => JSON.stringify((await t.http.get(`/fights/${fightId}/events`).expect(200)).body);

    beforeAll(async () => {
      t = await startApp(opts);
      fightId = await soloFight(t);
    });
    afterAll(async () => {
      if (!t) return; // the start failed and has said so
      await t.close();
      removeDir(t.dataDir);
      await cleanup();
    });

    const json = (method: 'post' | 'patch', path: string, text: string) =>
      t.http[method](path.replace('{id}', fightId)).set('content-type', 'application/json').send(text);

    it.each([
      ['post', '/fights'],
      ['post', '/fights/{id}/commands'],
      ['post', '/fights/{id}/tokens'],
      ['post', '/webhooks/endpoints'],
      ['post', '/audit/verify'],
      ['post', '/lab/runs'],
    ] as const)('JSON nested 20,000 deep to %s %s is 400 BODY_TOO_DEEP naming body', async (method, path) => {
      const before = await log();
      const res = await json(method, path, `{"type":"AddNote","text":${nested(20_000)}}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'BODY_TOO_DEEP', field: 'body' });
      expect(await log()).toBe(before);
    });

    it('nesting is counted outside strings only, and up to the limit is parsed as before', async () => {
      const text = { type: 'AddNote', text: '['.repeat(1000) };
      await t.http.post(`/fights/${fightId}/commands`).send(text).expect(200);
      // 64 levels of arrays inside the body object: within the limit, so the command path judges it.
      const res = await json(
        'post',
        `/fights/{id}/commands`,
        `{"type":"AddNote","text":${nested(63, '"x"')}}`,
      );
      expect(res.status).toBeLessThan(500);
      expect(res.body.code).not.toBe('BODY_TOO_DEEP');
    });

    it.each([
      ['/fights/{id}/events?after=1e19', 'after'],
      ['/fights/{id}/events?after=9007199254740993', 'after'],
      ['/fights/{id}/events?after=1.5', 'after'],
      ['/fights?offset=1e19', 'offset'],
      ['/fights?offset=-1', 'offset'],
      ['/fights?limit=', 'limit'],
      ['/fights/{id}?minSeq=1e300', 'minSeq'],
      ['/fights/{id}?at=0x10', 'at'],
    ])('GET %s is 400 VALIDATION_FAILED naming the parameter', async (path, field) => {
      const res = await t.http.get(path.replace('{id}', fightId));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', field });
    });

    it('query integers in range still work', async () => {
      await t.http.get(`/fights/${fightId}/events?after=1`).expect(200);
      await t.http.get('/fights?offset=0&limit=100').expect(200);
    });

    it.each([
      ['U+0000 in a command field', `{"type":"AddNote","text":"a\\u0000b"}`, 'text'],
      ['a lone high surrogate', `{"type":"AddNote","text":"a\\ud800b"}`, 'text'],
      ['a lone low surrogate', `{"type":"AddNote","text":"\\udc00"}`, 'text'],
      ['U+0000 in a nested field', `{"type":"AddNote","text":"ok","extra":[{"x":"\\u0000"}]}`, 'extra[0].x'],
      ['U+0000 in a field name', `{"type":"AddNote","te\\u0000xt":"ok"}`, 'te\\u0000xt'],
    ])('%s is 400 INVALID_STRING naming the field, and the log is unchanged', async (_name, body, field) => {
      const before = await log();
      const res = await json('post', `/fights/{id}/commands`, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'INVALID_STRING', field });
      expect(await log()).toBe(before);
    });

    it('a pair of surrogates (an emoji) is fine', async () => {
      await json('post', `/fights/{id}/commands`, `{"type":"AddNote","text":"\\ud83c\\udfb2"}`).expect(200);
    });

    it('U+0000 or a lone surrogate in a path parameter is 400 INVALID_STRING naming it', async () => {
      for (const path of [
        '/webhooks/endpoints/%00',
        '/fights/%00',
        '/fights/a%00b/events',
        '/fights/%ED%A0%80',
      ]) {
        const res = await t.http.get(path);
        expect({ path, status: res.status, body: res.body }).toMatchObject({
          status: 400,
          body: { code: 'INVALID_STRING' },
        });
      }
      const res = await t.http.get('/webhooks/endpoints/%00');
      expect(res.body.field).toBe('endpointId');
    });

    it('U+0000 in a query string is 400 INVALID_STRING naming the parameter', async () => {
      const res = await t.http.get('/fights?system=nara%00teer');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_STRING', field: 'system' });
    });

    it('an unknown route with U+0000 is still 400, never 500', async () => {
      const res = await t.http.get('/nowhere/%00');
      expect(res.status).toBeLessThan(500);
    });
  });
}

onEveryEngine(edgeSuite, { prefix: 'edge', what: 'hostile input', title: 'hostile input at the edge' });
