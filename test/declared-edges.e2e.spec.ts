import { TEST_ADMIN_KEY, useApp, useEnv } from './support/app';

/**
 * What a black-box probe found still taken without a word, or refused for the wrong reason: each is
 * now a 4xx in the error shape that names the field and what is wrong with it.
 */
describe('declared edges', () => {
  useEnv({ WEBHOOK_ALLOW_PRIVATE: 'false' });
  const t = useApp();

  describe('Swagger’s routes take no query, as every other route that declares none', () => {
    it.each(['/openapi.json', '/docs', '/docs/', '/docs/swagger-ui.css', '/docs-yaml'])(
      '%s?x=1 is 400 VALIDATION_FAILED naming x, and %s alone is a 200',
      async (path) => {
        const res = await t.anon.get(`${path}?x=1`).expect(400);
        expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'x' });
        expect(res.body.message).toBe('x is not a query parameter of this route');
        await t.anon.get(path).expect(200);
      },
    );

    it('the answer is the one /asyncapi.json gives', async () => {
      const swagger = await t.anon.get('/openapi.json?x=1').expect(400);
      const ours = await t.anon.get('/asyncapi.json?x=1').expect(400);
      expect(swagger.body).toEqual(ours.body);
    });
  });

  describe('POST /graphql: a variable the operation does not declare', () => {
    const query = 'query Q($limit: Int) { fights(limit: $limit) { items { fightId } } }';

    const post = (body: object) =>
      t.http.post('/graphql').set('accept', 'application/graphql-response+json').send(body);

    it('is 400 BAD_USER_INPUT naming it (graphql-js dropped it, and the field took its default)', async () => {
      const res = await post({ query, variables: { limit: 1, after: 'x' } });
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        statusCode: 400,
        field: 'after',
        message: 'variable $after is not declared by the operation Q',
      });
    });

    it('as application/json (the legacy type) the same error, with the 200 GraphQL over HTTP asks for', async () => {
      const res = await t.http.post('/graphql').send({ query, variables: { limit: 1, after: 'x' } });
      expect(res.status).toBe(200);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    });

    it('an operation that declares none names the first one sent', async () => {
      const res = await post({ query: '{ systems { id } }', variables: { limit: 1 } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'limit' });
    });

    it('declared variables, and none, still run', async () => {
      const declared = await t.http.post('/graphql').send({ query, variables: { limit: 1 } });
      expect(declared.status).toBe(200);
      expect(declared.body.errors).toBeUndefined();
      const none = await t.http.post('/graphql').send({ query: '{ systems { id } }', variables: {} });
      expect(none.status).toBe(200);
      expect(none.body.data.systems.length).toBeGreaterThan(0);
    });
  });

  describe('GraphQL over HTTP: a malformed request names the member at fault', () => {
    const q = '{ systems { id } }';
    it.each([
      [{ query: q, variables: 5 }, 'variables'],
      [{ query: q, variables: '{}' }, 'variables'],
      [{ query: q, extensions: 'x' }, 'extensions'],
      [{ query: q, operationName: 5 }, 'operationName'],
      [{ query: 5 }, 'query'],
      [{}, 'query'],
      [{ variables: {} }, 'query'],
    ])('POST %j is 400 BAD_REQUEST naming %s', async (body, field) => {
      const res = await t.http.post('/graphql').send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST', field });
    });

    it.each([
      ['variables=notjson', 'variables'],
      ['variables=%5B1%5D', 'variables'],
      ['extensions=x', 'extensions'],
      ['query=x', 'query'],
    ])('GET ?query=…&%s is 400 BAD_REQUEST naming %s', async (extra, field) => {
      const res = await t.http
        .get(`/graphql?query=${encodeURIComponent(q)}&${extra}`)
        .set('apollo-require-preflight', 'true');
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', field });
    });

    it('a GET without a header that forces a preflight is refused as CSRF, naming the header to send', async () => {
      const res = await t.http.get(`/graphql?query=${encodeURIComponent(q)}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions).toMatchObject({
        code: 'BAD_REQUEST',
        field: 'apollo-require-preflight',
      });
    });

    it('a GET of a mutation is 405 naming the method', async () => {
      const res = await t.http
        .get(`/graphql?query=${encodeURIComponent('mutation { __typename }')}`)
        .set('apollo-require-preflight', 'true');
      expect(res.status).toBe(405);
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'METHOD_NOT_ALLOWED', field: 'method' });
    });
  });

  describe('webhook URLs are read as the service delivers to them (WHATWG URL)', () => {
    it('a public IPv4 address written as one number is taken, stored in dotted form', async () => {
      const res = await t.http.post('/webhooks/endpoints').send({ url: 'http://134744072/hook' }).expect(201);
      expect(res.body.endpoint.url).toBe('http://8.8.8.8/hook');
    });

    it('the loopback written as one number is refused as loopback, not as a malformed URL', async () => {
      const res = await t.http.post('/webhooks/endpoints').send({ url: 'http://2130706433/' }).expect(422);
      expect(res.body).toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED', field: 'url' });
      expect(res.body.message).toContain('127.0.0.1');
    });

    it.each(['ftp://example.com/', 'example.com/hook', 'http//example.com', 'http://exa mple.com/'])(
      '%s is 422 INVALID_FIELD url',
      async (url) => {
        const res = await t.http.post('/webhooks/endpoints').send({ url }).expect(422);
        expect(res.body).toMatchObject({
          code: 'INVALID_FIELD',
          field: 'url',
          message: 'url must be an absolute http or https URL',
        });
      },
    );
  });

  describe('refusals that named no field now name what is at fault', () => {
    it('JSON that does not parse is 400 INVALID_JSON naming body, as bytes that are no text are', async () => {
      const res = await t.http.post('/fights').set('content-type', 'application/json').send('{"system":');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_JSON', field: 'body' });
    });

    it('a path no route has is 404 NOT_FOUND naming path, on GET and OPTIONS alike', async () => {
      for (const res of [await t.http.get('/nowhere'), await t.anon.options('/nowhere')]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'NOT_FOUND', field: 'path' });
      }
    });

    it('a credential without the role a route needs is 403 naming authorization', async () => {
      const admin = await t.anon.get('/admin/tenants').set('authorization', `Bearer ${t.apiKey}`);
      expect(admin.status).toBe(403);
      expect(admin.body).toMatchObject({ code: 'ADMIN_ONLY', field: 'authorization' });
      const tenant = await t.anon
        .post('/fights')
        .set('authorization', `Bearer ${TEST_ADMIN_KEY}`)
        .send({ system: 'narateer' });
      expect(tenant.status).toBe(403);
      expect(tenant.body).toMatchObject({ field: 'authorization' });
      const fightId = (await t.http.post('/fights').send({ system: 'narateer' }).expect(201)).body.fightId;
      const { token } = (
        await t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator' }).expect(201)
      ).body;
      const spectator = await t.anon
        .post(`/fights/${fightId}/commands`)
        .set('authorization', `Bearer ${token}`)
        .send({ type: 'AddNote', text: 'x' });
      expect(spectator.status).toBe(403);
      expect(spectator.body).toMatchObject({ code: 'FORBIDDEN', field: 'authorization' });
    });
  });

  describe('a value of the wrong type is told its type, not its length', () => {
    it('a tenant name that is a number: "name must be a string"', async () => {
      const res = await t.anon
        .post('/admin/tenants')
        .set('authorization', `Bearer ${TEST_ADMIN_KEY}`)
        .send({ name: 5 })
        .expect(422);
      expect(res.body).toMatchObject({
        code: 'INVALID_FIELD',
        field: 'name',
        message: 'name must be a string',
      });
    });

    it('a Lab seed that is a number: "seed must be a string"; an empty one is still told its length', async () => {
      const body = { system: 'narateer', fights: 1, rows: ['a'], columns: ['b'] };
      const numeric = await t.http
        .post('/lab/runs')
        .send({ ...body, seed: 42 })
        .expect(422);
      const issue = numeric.body.issues.find((i: { field: string }) => i.field === 'seed');
      expect(issue).toEqual({ field: 'seed', code: 'INVALID_FIELD', message: 'seed must be a string' });
      const empty = await t.http
        .post('/lab/runs')
        .send({ ...body, seed: '' })
        .expect(422);
      expect(empty.body.issues.find((i: { field: string }) => i.field === 'seed').message).toMatch(
        /^seed must be longer than or equal to 1/,
      );
    });

    it('a webhook URL that is a number: "url must be a string"', async () => {
      const res = await t.http.post('/webhooks/endpoints').send({ url: 5 }).expect(422);
      expect(res.body).toMatchObject({ field: 'url', message: 'url must be a string' });
    });
  });
});
