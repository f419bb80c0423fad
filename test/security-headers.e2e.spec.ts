import { sheet, useApp } from './support/app';

/** helmet on every response; the overlay keeps its own nonce CSP; Swagger UI keeps loading under helmet's. */
describe('security headers', () => {
  const t = useApp();

  const directives = (csp: string | undefined) =>
    new Map(
      (csp ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...values]) => [name, values]),
    );

  it('JSON answers, errors and unknown routes say nosniff and never X-Powered-By', async () => {
    const fightId = (
      await t.http
        .post('/fights')
        .send({ system: 'narateer', combatants: [{ id: 'a', name: 'A', sheet: sheet() }] })
        .expect(201)
    ).body.fightId;
    for (const res of [
      await t.http.get('/fights'),
      await t.http.get(`/fights/${fightId}/events`),
      await t.anon.get('/fights'),
      await t.http.get('/nowhere'),
      await t.anon.get('/health/live'),
      await t.anon.get('/openapi.json'),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    }
  });

  it('the CSP does not upgrade requests to HTTPS nor pins HSTS: the service is reached over plain HTTP too', async () => {
    const res = await t.http.get('/fights');
    expect(directives(res.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('the overlay page keeps its own nonce-based CSP (one header, not helmet’s)', async () => {
    const fightId = (
      await t.http
        .post('/fights')
        .send({ system: 'narateer', combatants: [{ id: 'a', name: 'A', sheet: sheet() }] })
        .expect(201)
    ).body.fightId;
    const token = (await t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator' }).expect(201))
      .body.token;
    const res = await t.anon.get(`/overlay/${fightId}?token=${encodeURIComponent(token)}`).expect(200);
    const csp = res.headers['content-security-policy'];
    expect(typeof csp).toBe('string');
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(directives(csp).get('default-src')).toEqual(["'none'"]);
    expect(res.text).toContain(`<script nonce="${nonce}">`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('Swagger UI at /docs: every script is a file of this origin, served as JavaScript, which the CSP allows', async () => {
    const page = await t.anon.get('/docs').redirects(2).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const csp = directives(page.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    // Its <style> block and style="" attributes, and its data: icons.
    expect(csp.get('style-src')).toContain("'unsafe-inline'");
    expect(csp.get('img-src')).toContain('data:');
    const scripts = [...page.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      const src = /src=["']([^"']+)["']/.exec(attrs)?.[1];
      expect({ src, inline: body.trim() }).toMatchObject({
        src: expect.stringMatching(/^(\.\/|\/docs\/|[a-z-]+\.js$)/),
        inline: '',
      });
      const asset = await t.anon.get(new URL(src!, 'http://x/docs').pathname).expect(200);
      // nosniff: a script served under another type would be refused.
      expect(asset.headers['content-type']).toMatch(/javascript/);
    }
    const styles = [...page.text.matchAll(/<link[^>]+rel=["']stylesheet["'][^>]*>/g)].map(
      (m) => /href=["']([^"']+)["']/.exec(m[0])![1],
    );
    for (const href of styles)
      expect(
        (await t.anon.get(new URL(href, 'http://x/docs').pathname).expect(200)).headers['content-type'],
      ).toMatch(/text\/css/);
    // The init script fetches the document from this origin (connect-src 'self' via default-src).
    const init = await t.anon.get('/docs/swagger-ui-init.js').expect(200);
    expect(init.text).toContain('swagger');
    expect(csp.has('connect-src') ? csp.get('connect-src') : csp.get('default-src')).toContain("'self'");
  });
});
