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

    it('given twenty rotations of one key sent at once, one answers 201 with the successor and the rest 404 KEY_NOT_FOUND', async () => {
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
        expect({ status: r.status, code: r.body.code }).toEqual({ status: 404, code: 'KEY_NOT_FOUND' });
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
  });
}

onEveryEngine(rotationSuite, {
  prefix: 'rotate',
  what: 'Key rotation under concurrency',
  title: 'rotating a key',
});
