import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { loadVerifierScript, ReplayUnavailable, verifierScript } from '../../src/replay/verifier-bundle';

/**
 * Where the replay page's verifier comes from in each layout, and what serving it as an asset needs: a name
 * that changes with its content, its integrity, and the same bytes compressed.
 */
describe('the replay verifier script', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'crs-verifier-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('given a production layout with no bundle built (no build script, no esbuild use), then it is unavailable: 503 REPLAY_UNAVAILABLE naming the build', async () => {
    const missing = loadVerifierScript({ built: join(dir, 'verifier.bundle.js') });
    await expect(missing).rejects.toBeInstanceOf(ReplayUnavailable);
    await expect(missing).rejects.toMatchObject({
      status: 503,
      code: 'REPLAY_UNAVAILABLE',
      message: expect.stringContaining('npm run build'),
    });
  });

  it('given the bundle npm run build wrote, then it serves that file, named by the hash of its content', async () => {
    const code = 'globalThis.ReplayVerifier = { openReplay: function () {} };';
    writeFileSync(join(dir, 'verifier.bundle.js'), code);
    const v = await loadVerifierScript({ built: join(dir, 'verifier.bundle.js') });
    const sha256 = createHash('sha256').update(code).digest('hex');
    expect(v).toMatchObject({
      code,
      hash: sha256.slice(0, 20),
      file: `verifier.${sha256.slice(0, 20)}.js`,
      integrity: `sha384-${createHash('sha384').update(code).digest('base64')}`,
    });
    expect(verifierScript(`${code} `).hash).not.toBe(v.hash);
  });

  it('given brotli or gzip asked for, then the same bytes come back compressed, made once', async () => {
    const code = `globalThis.ReplayVerifier = ${JSON.stringify({ text: 'é'.repeat(5000) })};`;
    const v = verifierScript(code);
    const br = await v.encoded('br');
    expect(brotliDecompressSync(br).toString('utf8')).toBe(code);
    expect(gunzipSync(await v.encoded('gzip')).toString('utf8')).toBe(code);
    expect(await v.encoded('br')).toBe(br);
  });

  it('given a bundle holding </script, then it is refused: the copy saved for offline use inlines it', () => {
    expect(() => verifierScript('var s = "</script>";')).toThrow(/cannot be inlined/);
  });
});
