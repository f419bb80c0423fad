import { removeDir, startApp, TEST_ADMIN_KEY, type TestApp } from './support/app';
import { onEveryEngine } from './support/engines';

/**
 * POST /admin/keys/:keyId/rotate issues one successor and revokes the key in one append at the
 * tenant stream's revision: rotations of one key sent together leave one live successor, on every engine.
 */
function rotationSuite(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup: () => Promise<void> = async () => undefined,
) {
  describe(`rotating a key (${engine})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp(opts);
    });
    afterAll(async () => {
      await t.close();
      removeDir(t.dataDir);
      await cleanup();
    });
    const admin = () => ({ authorization: `Bearer ${TEST_ADMIN_KEY}` });

    it('given twenty rotations of one key sent at once, one answers 201 with the successor and the rest 409 KEY_REVOKED', async () => {
      const { tenantId, apiKey } = await t.tenant('Rotating');
      const keys = (await t.anon.get('/admin/keys').set(admin()).expect(200)).body as Array<{
        keyId: string;
        tenantId: string;
      }>;
      const keyId = keys.find((k) => k.tenantId === tenantId)!.keyId;
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => t.anon.post(`/admin/keys/${keyId}/rotate`).set(admin())),
      );
      const created = answers.filter((r) => r.status === 201);
      expect(created).toHaveLength(1);
      for (const r of answers.filter((x) => x.status !== 201))
        expect({ status: r.status, code: r.body.code, field: r.body.field }).toEqual({
          status: 409,
          code: 'KEY_REVOKED',
          field: 'keyId',
        });
      const after = (await t.anon.get('/admin/keys').set(admin()).expect(200)).body as Array<{
        keyId: string;
        tenantId: string;
        revokedAt: string | null;
      }>;
      const live = after.filter((k) => k.tenantId === tenantId && k.revokedAt === null);
      expect(live).toHaveLength(1);
      // The successor works; the rotated key does not.
      const successor = created[0].body as { keyId: string; apiKey: string };
      expect(live[0].keyId).toBe(successor.keyId);
      await t.anon.get('/fights').set('authorization', `Bearer ${successor.apiKey}`).expect(200);
      await t.anon.get('/fights').set('authorization', `Bearer ${apiKey}`).expect(401);
    });

    it('given a revoked key and a rotated one, when either is rotated, then 409 KEY_REVOKED naming keyId, while GET shows it revoked; a key that never was is 404', async () => {
      const { tenantId } = await t.tenant('Revoked');
      const issue = async () =>
        (await t.anon.post(`/admin/tenants/${tenantId}/keys`).set(admin()).send({}).expect(201)).body
          .keyId as string;
      const revoked = await issue();
      await t.anon.delete(`/admin/keys/${revoked}`).set(admin()).expect(204);
      const rotated = await issue();
      await t.anon.post(`/admin/keys/${rotated}/rotate`).set(admin()).expect(201);
      for (const keyId of [revoked, rotated]) {
        const shown = await t.anon.get(`/admin/keys/${keyId}`).set(admin()).expect(200);
        expect(shown.body.revokedAt).toEqual(expect.any(String));
        const refused = await t.anon.post(`/admin/keys/${keyId}/rotate`).set(admin()).expect(409);
        expect(refused.body).toMatchObject({ code: 'KEY_REVOKED', field: 'keyId' });
        expect(refused.body.message).toContain(keyId);
      }
      const unknown = await t.anon.post('/admin/keys/crs_nope/rotate').set(admin()).expect(404);
      expect(unknown.body).toMatchObject({ code: 'KEY_NOT_FOUND', field: 'keyId' });
    });
  });
}

onEveryEngine(rotationSuite, {
  prefix: 'rotate',
  what: 'Key rotation under concurrency',
  title: 'rotating a key',
});
