import { TEST_ADMIN_KEY, useApp, useEnv } from './support/app';

/**
 * If-Match and If-None-Match on the PATCH and DELETEs of resources a GET tags (RFC 9110 section 13.1):
 * a change made on a stale copy is refused with 412 and changes nothing. They were ignored.
 */
describe('preconditions on PATCH and DELETE', () => {
  useEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  const t = useApp();

  const endpoint = async () =>
    (await t.http.post('/webhooks/endpoints').send({ url: 'http://127.0.0.1:9/hook' }).expect(201)).body
      .endpoint.id as string;
  const tagOf = async (path: string, key?: string) => {
    const req = key ? t.anon.get(path).set('authorization', `Bearer ${key}`) : t.http.get(path);
    const tag = (await req.expect(200)).headers.etag;
    expect(tag).toMatch(/^W\/".+"$/);
    return tag;
  };

  it('PATCH with the ETag GET gave applies; the same tag again, now stale, is 412 and changes nothing', async () => {
    const id = await endpoint();
    const path = `/webhooks/endpoints/${id}`;
    const first = await tagOf(path);
    expect(await tagOf(path)).toBe(first);
    await t.http.patch(path).set('if-match', first).send({ description: 'one' }).expect(200);
    const stale = await t.http.patch(path).set('if-match', first).send({ description: 'two' }).expect(412);
    expect(stale.body).toMatchObject({ statusCode: 412, code: 'PRECONDITION_FAILED', field: 'if-match' });
    expect((await t.http.get(path).expect(200)).body.description).toBe('one');
    // One current tag in a list is enough; `*` is any state of a resource that exists.
    const now = await tagOf(path);
    await t.http.patch(path).set('if-match', `${first}, ${now}`).send({ description: 'three' }).expect(200);
    await t.http.patch(path).set('if-match', '*').send({ description: 'four' }).expect(200);
    expect((await t.http.get(path).expect(200)).body.description).toBe('four');
  });

  it('If-None-Match naming the current state, or *, is 412 naming if-none-match; another tag goes on', async () => {
    const id = await endpoint();
    const path = `/webhooks/endpoints/${id}`;
    const now = await tagOf(path);
    for (const header of [now, '*']) {
      const res = await t.http
        .patch(path)
        .set('if-none-match', header)
        .send({ description: 'x' })
        .expect(412);
      expect(res.body).toMatchObject({ code: 'PRECONDITION_FAILED', field: 'if-none-match' });
    }
    await t.http.patch(path).set('if-none-match', 'W/"other"').send({ description: 'y' }).expect(200);
    expect((await t.http.get(path).expect(200)).body.description).toBe('y');
  });

  it('DELETE of an endpoint on a stale tag is 412 and it stays; on the current one it goes', async () => {
    const id = await endpoint();
    const path = `/webhooks/endpoints/${id}`;
    const before = await tagOf(path);
    await t.http.patch(path).send({ enabled: false }).expect(200);
    await t.http.delete(path).set('if-match', before).expect(412);
    await t.http.get(path).expect(200);
    await t.http
      .delete(path)
      .set('if-match', await tagOf(path))
      .expect(204);
    await t.http.get(path).expect(404);
  });

  it('what is no entity tag is 400 naming the header; a missing resource is still 404, not 412', async () => {
    const id = await endpoint();
    for (const [name, value] of [
      ['if-match', 'abc'],
      ['if-none-match', 'W/abc'],
      ['if-match', '"a", b'],
    ]) {
      const res = await t.http.patch(`/webhooks/endpoints/${id}`).set(name, value).send({}).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', field: name });
    }
    await t.http.patch('/webhooks/endpoints/ep_nothing').set('if-match', '*').send({}).expect(404);
    await t.http.delete('/webhooks/endpoints/ep_nothing').set('if-match', 'W/"x"').expect(404);
  });

  it('an admin key is revoked only in the state If-Match names: a stale tag leaves it working', async () => {
    const admin = (req: ReturnType<typeof t.anon.get>) =>
      req.set('authorization', `Bearer ${TEST_ADMIN_KEY}`);
    const issued = (
      await admin(t.anon.post(`/admin/tenants/${t.tenantId}/keys`))
        .send({ label: 'bot' })
        .expect(201)
    ).body;
    const path = `/admin/keys/${issued.keyId}`;
    const stale = 'W/"1-not-this-one"';
    await admin(t.anon.delete(path)).set('if-match', stale).expect(412);
    await t.anon.get('/fights').set('authorization', `Bearer ${issued.apiKey}`).expect(200);
    const now = await tagOf(path, TEST_ADMIN_KEY);
    await admin(t.anon.delete(path)).set('if-match', now).expect(204);
    await t.anon.get('/fights').set('authorization', `Bearer ${issued.apiKey}`).expect(401);
  });

  it('a fight token likewise', async () => {
    const fightId = (await t.http.post('/fights').send({ system: 'narateer' }).expect(201)).body.fightId;
    const { tokenId, token } = (
      await t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator' }).expect(201)
    ).body;
    const path = `/fights/${fightId}/tokens/${tokenId}`;
    const before = await tagOf(path);
    await t.http.delete(path).set('if-none-match', before).expect(412);
    await t.anon.get(`/fights/${fightId}?token=${encodeURIComponent(token)}`).expect(200);
    await t.http.delete(path).set('if-match', before).expect(204);
    await t.anon.get(`/fights/${fightId}?token=${encodeURIComponent(token)}`).expect(401);
  });
  it('a GET whose If-Match names no current state is 412 without the body; the current tag or * is a 200', async () => {
    const id = await endpoint();
    const path = `/webhooks/endpoints/${id}`;
    const before = await tagOf(path);
    await t.http.get(path).set('if-match', before).expect(200);
    await t.http.patch(path).send({ description: 'moved on' }).expect(200);
    const stale = await t.http.get(path).set('if-match', before).expect(412);
    expect(stale.body).toMatchObject({ statusCode: 412, code: 'PRECONDITION_FAILED', field: 'if-match' });
    expect(stale.headers.etag).toBeUndefined();
    await t.http.head(path).set('if-match', before).expect(412);
    await t.http.get(path).set('if-match', '*').expect(200);
    const bad = await t.http.get(path).set('if-match', 'nope').expect(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'if-match' });
  });

  // An If-None-Match that is no list of entity tags was ignored on a GET (a 200, or a 304 for a tag `fresh`
  // picked out of it) while the same If-Match was a 400: every route that tags its answers refuses both alike.
  it('a GET or HEAD whose If-None-Match is no list of entity tags is 400 naming if-none-match, as If-Match; * or a list with the tag is 304', async () => {
    const created = await t.http.post('/fights').send({ system: 'narateer' }).expect(201);
    const fight = `/fights/${created.body.fightId}`;
    const page = (await t.anon.get('/replay').expect(200)).text;
    const script = /src="(\/replay\/verifier\.[0-9a-f]{20}\.js)"/.exec(page)![1];
    for (const path of [
      `/webhooks/endpoints/${await endpoint()}`,
      fight,
      `${fight}/log`,
      '/fights',
      script,
    ]) {
      const tag = (await t.http.get(path).expect(200)).headers.etag;
      const ifMatch = (await t.http.get(path).set('if-match', 'abc').expect(400)).body;
      for (const value of ['abc', 'W/abc', `${tag}, garbage`, 'W/"a" "b"']) {
        const res = await t.http.get(path).set('if-none-match', value);
        expect([path, value, res.status, res.body]).toEqual([
          path,
          value,
          400,
          {
            statusCode: ifMatch.statusCode,
            code: ifMatch.code,
            message: 'If-None-Match takes * or a list of ETags ("…" or W/"…")',
            field: 'if-none-match',
          },
        ]);
        expect([res.headers.etag, res.headers['cache-control']]).toEqual([undefined, 'no-store']);
        const head = await t.http.head(path).set('if-none-match', value);
        expect([path, value, head.status]).toEqual([path, value, 400]);
      }
      // RFC 9110 section 5.6.1: empty list elements are ignored; an opaque tag may hold a comma.
      for (const value of ['*', tag, `W/"other", ${tag}`, `, ${tag} ,`, `"a,b", , ${tag}`]) {
        const res = await t.http.get(path).set('if-none-match', value);
        expect([path, value, res.status]).toEqual([path, value, 304]);
      }
      const ifMatched = await t.http.get(path).set('if-match', `"a,b", , ${tag}`);
      expect([path, ifMatched.status]).toEqual([path, 200]);
    }
  });

  it('a fight GET compares If-Match with the fight state’s tag', async () => {
    const created = await t.http.post('/fights').send({ system: 'narateer' }).expect(201);
    const path = `/fights/${created.body.fightId}`;
    const first = created.headers.etag;
    await t.http.get(path).set('if-match', first).expect(200);
    await t.http.post(`${path}/commands`).send({ type: 'AddNote', text: 'x' }).expect(200);
    await t.http.get(`${path}?minSeq=2`).set('if-match', first).expect(412);
  });
});
