import { useApp } from './support/app';
import { onSocket } from './support/raw-socket';

/** GET `path` sent as written (no client normalises its dot segments or escapes): the status line and JSON body. */
async function getAsIs(url: string, path: string): Promise<{ status: string; body: unknown }> {
  const text = await onSocket(url, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  const [head, ...rest] = text.split('\r\n\r\n');
  const body = rest.join('\r\n\r\n');
  return { status: head.split('\r\n')[0], body: body.startsWith('{') ? JSON.parse(body) : body };
}

/**
 * Swagger UI's files under /docs/ answer a path as every other route does (README "Errors"): U+0000
 * is 400 INVALID_STRING naming `path`, and a path that names no file served there (a dot segment, an
 * escaped `..`, `//`) is the 404 NOT_FOUND naming `path` of a missing file, never the file server's
 * own 403.
 */
describe('Swagger UI files: a path the file server refuses is answered as any other path', () => {
  const t = useApp({ listen: true });

  it.each(['/docs/swagger-ui.css%00', '/docs/%00', '/docs/%00nonexist.css'])(
    'given GET %s, then it is 400 INVALID_STRING naming path',
    async (path) => {
      const res = await getAsIs(t.url!, path);
      expect(res.status).toBe('HTTP/1.1 400 Bad Request');
      expect(res.body).toMatchObject({ statusCode: 400, code: 'INVALID_STRING', field: 'path' });
    },
  );

  it.each([
    '/docs/nonexist.css',
    '/docs/%2e%2e/%2e%2e/etc/passwd',
    '/docs/%2e',
    '/docs/%2e%2e',
    '/docs/..',
    '/docs/a/..',
    '/docs/./swagger-ui.css',
    '/docs//etc/passwd',
    '/docs/%5c..%5c',
  ])('given GET %s, then it is 404 NOT_FOUND naming path, as a missing file is', async (path) => {
    const res = await getAsIs(t.url!, path);
    expect(res.status).toBe('HTTP/1.1 404 Not Found');
    expect(res.body).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: `Cannot GET ${path}`,
      field: 'path',
    });
  });

  it('given GET /docs/swagger-ui.css, then the file is served', async () => {
    const res = await getAsIs(t.url!, '/docs/swagger-ui.css');
    expect(res.status).toBe('HTTP/1.1 200 OK');
    expect(res.body).toContain('.swagger-ui');
  });

  it('given a Range outside a file, or a precondition the file fails, then 416 and 412 with their codes and fields', async () => {
    const range = await t.anon.get('/docs/swagger-ui.css').set('range', 'bytes=999999999-').expect(416);
    expect(range.body).toMatchObject({ statusCode: 416, code: 'RANGE_NOT_SATISFIABLE', field: 'range' });
    for (const [header, value] of [
      ['if-match', '"nope"'],
      ['if-unmodified-since', 'Mon, 01 Jan 1990 00:00:00 GMT'],
    ]) {
      const res = await t.anon.get('/docs/swagger-ui.css').set(header, value).expect(412);
      expect([header, res.body]).toMatchObject([
        header,
        { statusCode: 412, code: 'PRECONDITION_FAILED', field: header },
      ]);
    }
    // A Range inside the file is still served.
    const part = await t.anon.get('/docs/swagger-ui.css').set('range', 'bytes=0-9').expect(206);
    expect(part.headers['content-range']).toMatch(/^bytes 0-9\//);
  });
});
