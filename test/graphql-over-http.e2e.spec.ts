import { auditServer } from 'graphql-http';
import { removeDir, startApp, TestApp } from './support/app';

/**
 * The GraphQL-over-HTTP spec (graphql-http's server audit, the suite the integration conventions
 * review ran): every MUST and every SHOULD holds, for application/json and for
 * application/graphql-response+json alike. Parse, validation and variable errors answer 400 as
 * application/graphql-response+json and 200 as application/json (the spec's SHOULDs for each).
 */
describe('POST /graphql follows the GraphQL-over-HTTP spec (graphql-http audit)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ listen: true });
  });
  afterAll(async () => {
    await t?.close();
    if (t) removeDir(t.dataDir);
  });

  it('the audit finds no error and no warning', async () => {
    // The audit's requests carry the tenant key, as any client of the service does.
    const fetchFn = (input: Parameters<typeof fetch>[0], init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${t.apiKey}`);
      return fetch(input, { ...init, headers });
    };
    const results = await auditServer({ url: `${t.url}/graphql`, fetchFn });
    expect(results.length).toBeGreaterThan(40);
    const explain = async (r: (typeof results)[number]) =>
      `${r.status} ${r.id} ${r.name}: ${'reason' in r ? r.reason : ''}${
        r.status === 'ok'
          ? ''
          : ` (${r.response.status} ${(
              await r.response
                .clone()
                .text()
                .catch(() => '')
            ).slice(0, 200)})`
      }`;
    // Every MUST (error) and every SHOULD (warn) holds.
    expect(
      await Promise.all(results.filter((r) => r.status === 'error' || r.status === 'warn').map(explain)),
    ).toEqual([]);
    // What is left are MAYs the service declines on purpose: a GET without a preflight header is refused as CSRF.
    expect(
      results
        .filter((r) => r.status === 'notice')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['5A70', '6A70', 'D6D5']);
    // Both media types were audited, the new one included.
    expect(results.filter((r) => /application\/graphql-response\+json/.test(r.name)).length).toBeGreaterThan(
      10,
    );
  });
});

describe('GraphQL over HTTP: a refusal’s code follows its status, as on REST', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ listen: true });
  });
  afterAll(async () => {
    await t?.close();
    if (t) removeDir(t.dataDir);
  });
  const auth = () => ({ authorization: `Bearer ${t.apiKey}` });

  it('given a GET whose operation is a mutation, then 405 METHOD_NOT_ALLOWED, not BAD_REQUEST', async () => {
    const query = encodeURIComponent('mutation { createFight(input: { system: "narateer" }) { seq } }');
    const res = await fetch(`${t.url}/graphql?query=${query}`, {
      headers: { ...auth(), accept: 'application/graphql-response+json', 'apollo-require-preflight': 'true' },
    });
    expect(res.status).toBe(405);
    const body = (await res.json()) as { errors: Array<{ extensions: Record<string, unknown> }> };
    expect(body.errors[0].extensions).toMatchObject({ statusCode: 405, code: 'METHOD_NOT_ALLOWED' });
  });

  it('given an Accept the service cannot answer, then 406 NOT_ACCEPTABLE, not BAD_REQUEST', async () => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: '{ systems { id } }' }),
    });
    expect(res.status).toBe(406);
    const body = (await res.json()) as { errors: Array<{ extensions: Record<string, unknown> }> };
    expect(body.errors[0].extensions).toMatchObject({ statusCode: 406, code: 'NOT_ACCEPTABLE' });
  });
});
