import { startApp, type TestApp, useEnv } from './support/app';
import { onEveryEngine } from './support/engines';

/**
 * If-Match on a webhook endpoint's PATCH and DELETE is lost-update protection only if no other change can come
 * between the check and the change: two clients that read the same state and change it at once must not both
 * succeed. The check runs in the transaction that changes the row (locked on PostgreSQL).
 */
function raceSuite(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup: () => Promise<void> = async () => undefined,
) {
  describe(`conditional webhook changes at the same time (${engine})`, () => {
    useEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp({ ...opts, listen: true });
    });
    afterAll(async () => {
      await t?.close();
      await cleanup();
    });

    const endpoint = async () =>
      (await t.http.post('/webhooks/endpoints').send({ url: 'http://127.0.0.1:9/hook' }).expect(201)).body
        .endpoint.id as string;
    const tagOf = async (path: string) => (await t.http.get(path).expect(200)).headers.etag;

    it('two PATCHes on the same If-Match, sent together: one applies, the other is 412, and the one applied stays', async () => {
      for (let round = 0; round < 8; round++) {
        const path = `/webhooks/endpoints/${await endpoint()}`;
        const tag = await tagOf(path);
        const [a, b] = await Promise.all(
          ['a', 'b'].map((description) =>
            t.http
              .patch(path)
              .set('if-match', tag)
              .send({ description })
              .then((r) => r),
          ),
        );
        expect([a.status, b.status].sort()).toEqual([200, 412]);
        const winner = a.status === 200 ? 'a' : 'b';
        expect((a.status === 412 ? a : b).body).toMatchObject({
          code: 'PRECONDITION_FAILED',
          field: 'if-match',
        });
        expect((await t.http.get(path).expect(200)).body.description).toBe(winner);
      }
    });

    it('a PATCH and a DELETE on the same If-Match, sent together: exactly one of them happens', async () => {
      for (let round = 0; round < 8; round++) {
        const path = `/webhooks/endpoints/${await endpoint()}`;
        const tag = await tagOf(path);
        const [patched, deleted] = await Promise.all([
          t.http
            .patch(path)
            .set('if-match', tag)
            .send({ description: 'kept' })
            .then((r) => r),
          t.http
            .delete(path)
            .set('if-match', tag)
            .then((r) => r),
        ]);
        const after = await t.http.get(path);
        if (patched.status === 200) {
          expect([deleted.status, after.status, after.body.description]).toEqual([412, 200, 'kept']);
        } else {
          // The DELETE came first: the PATCH finds the endpoint gone or changed.
          expect([deleted.status, after.status]).toEqual([204, 404]);
          expect([404, 412]).toContain(patched.status);
        }
      }
    });
  });
}

onEveryEngine(raceSuite, {
  prefix: 'webhook_race',
  what: 'Conditional webhook changes at the same time',
  title: 'conditional webhook changes at the same time',
});
