import { BaselineController } from '../apps/cli/src/bench/baseline.controller';
import { removeDir, startApp, type TestApp } from './support/app';

/**
 * The benchmark builds the service with a controller of its own (createApp's `controllers`): the app must boot
 * with it, serve it behind the same key check, and publish it in its OpenAPI document like any other route.
 */
describe('an app with an embedding controller (the benchmark’s baseline route)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ controllers: [BaselineController] });
  });
  afterAll(async () => {
    await t?.close();
    if (t) removeDir(t.dataDir);
  });

  it('boots, answers the added route with a key and refuses it without one', async () => {
    expect((await t.http.post('/bench/constant').send({}).expect(200)).body).toEqual({ ok: true, seq: 1 });
    expect((await t.anon.post('/bench/constant').send({}).expect(401)).body).toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('publishes the added route, its tag declared beside the described ones', async () => {
    const doc = (await t.anon.get('/openapi.json').expect(200)).body as {
      paths: Record<string, unknown>;
      tags: Array<{ name: string; description?: string }>;
    };
    expect(Object.keys(doc.paths)).toContain('/bench/constant');
    expect(doc.tags).toContainEqual({ name: 'Baseline' });
    expect(doc.tags.find((tag) => tag.name === 'fights')?.description).toBeTruthy();
  });
});
