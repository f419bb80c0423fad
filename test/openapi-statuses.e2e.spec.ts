import { TEST_ADMIN_KEY, useApp, useEnv } from './support/app';

useEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' });

type Doc = {
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>;
};

/** The statuses the service's own OpenAPI document declares for METHOD path (the document's path template). */
function declared(doc: Doc, method: string, path: string): string[] {
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`the document has no ${method} ${path}`);
  return Object.keys(op.responses).sort();
}

/**
 * README "Errors": every refusal the service answers is declared by its operation in the OpenAPI document, so
 * a generated client knows it. Each answer below is checked against the document the running service serves.
 */
describe('OpenAPI: every status a route answers is one it declares', () => {
  const t = useApp();
  const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };
  let doc: Doc;
  beforeAll(async () => {
    doc = (await t.anon.get('/openapi.json').expect(200)).body as Doc;
  });

  /** Sends one request as the operation's caller would (the operator on /admin, else the tenant). */
  const send = (method: string, url: string, body?: object) => {
    const call = t.anon[method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](url).set(
      url.startsWith('/admin') ? admin : { authorization: `Bearer ${t.apiKey}` },
    );
    return body === undefined ? call : call.send(body);
  };

  it('given any route, when it is sent a query parameter it does not declare (and, but for GET, a body field it does not declare), then the status it answers is declared', async () => {
    const undeclared: string[] = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const method of Object.keys(item)) {
        const url = path.replace(/\{[^}]+\}/g, 'nope');
        const probes = [send(method, `${url}?notAParameter=1`)];
        if (method !== 'get') probes.push(send(method, url, { notAField: 1 }));
        for (const res of await Promise.all(probes))
          if (!declared(doc, method, path).includes(String(res.status)))
            undeclared.push(`${method.toUpperCase()} ${path}: ${res.status} ${res.body?.code}`);
      }
    expect(undeclared).toEqual([]);
  });

  it('given the refusals of keys, tokens, endpoints and views, then each answers its status and code, and declares it', async () => {
    const tenant = await t.tenant('statuses');
    const issued = await send('POST', `/admin/tenants/${tenant.tenantId}/keys`, {}).expect(201);
    await send('DELETE', `/admin/keys/${issued.body.keyId}`).expect(204);
    const fightId = (await send('POST', '/fights', { system: 'narateer', combatants: [] }).expect(201)).body
      .fightId as string;
    const endpointId = (
      await send('POST', '/webhooks/endpoints', { url: 'http://127.0.0.1:9/hook' }).expect(201)
    ).body.endpoint.id as string;
    const cases: Array<
      [method: string, path: string, url: string, body: object | undefined, status: number, code: string]
    > = [
      ['DELETE', '/admin/keys/{keyId}', '/admin/keys/nope', undefined, 404, 'KEY_NOT_FOUND'],
      ['DELETE', '/admin/keys/{keyId}', `/admin/keys/${tenant.tenantId}`, { x: 1 }, 422, 'UNKNOWN_FIELD'],
      ['POST', '/admin/keys/{keyId}/rotate', '/admin/keys/nope/rotate', undefined, 404, 'KEY_NOT_FOUND'],
      ['POST', '/admin/keys/{keyId}/rotate', '/admin/keys/nope/rotate', { x: 1 }, 422, 'UNKNOWN_FIELD'],
      [
        'POST',
        '/admin/keys/{keyId}/rotate',
        `/admin/keys/${issued.body.keyId}/rotate`,
        undefined,
        409,
        'KEY_REVOKED',
      ],
      ['POST', '/admin/tenants/{tenantId}/keys', '/admin/tenants/nope/keys', {}, 404, 'TENANT_NOT_FOUND'],
      [
        'DELETE',
        '/fights/{id}/tokens/{tokenId}',
        `/fights/${fightId}/tokens/nope`,
        { x: 1 },
        422,
        'UNKNOWN_FIELD',
      ],
      [
        'DELETE',
        '/webhooks/endpoints/{endpointId}',
        `/webhooks/endpoints/${endpointId}`,
        { x: 1 },
        422,
        'UNKNOWN_FIELD',
      ],
      [
        'POST',
        '/webhooks/endpoints/{endpointId}/ping',
        `/webhooks/endpoints/${endpointId}/ping`,
        { x: 1 },
        422,
        'UNKNOWN_FIELD',
      ],
      [
        'POST',
        '/webhooks/endpoints/{endpointId}/deliveries/{deliveryId}/redeliver',
        `/webhooks/endpoints/${endpointId}/deliveries/nope/redeliver`,
        { x: 1 },
        422,
        'UNKNOWN_FIELD',
      ],
      ['GET', '/fights/{id}', `/fights/${fightId}?at=99`, undefined, 422, 'SEQ_OUT_OF_RANGE'],
      ['GET', '/health/live', '/health/live?x=1', undefined, 400, 'VALIDATION_FAILED'],
      ['GET', '/health/ready', '/health/ready?x=1', undefined, 400, 'VALIDATION_FAILED'],
      ['GET', '/metrics', '/metrics?x=1', undefined, 400, 'VALIDATION_FAILED'],
      ['GET', '/systems', '/systems?x=1', undefined, 400, 'VALIDATION_FAILED'],
      ['GET', '/asyncapi.json', '/asyncapi.json?x=1', undefined, 400, 'VALIDATION_FAILED'],
    ];
    for (const [method, path, url, body, status, code] of cases) {
      const res = await send(method, url, body);
      expect([method, url, res.status, res.body.code]).toEqual([method, url, status, code]);
      expect([method, path, declared(doc, method, path)]).toEqual([
        method,
        path,
        expect.arrayContaining([String(status)]),
      ]);
    }
  });
});
