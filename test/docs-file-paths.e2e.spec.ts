import { connect } from 'node:net';
import { removeDir, startApp, TestApp } from './support/app';

/** GET `path` sent as written (no client normalises its dot segments or escapes): the status line and JSON body. */
function getAsIs(url: string, path: string): Promise<{ status: string; body: unknown }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('close', () => {
      const [head, ...rest] = text.split('\r\n\r\n');
      const body = rest.join('\r\n\r\n');
      resolve({ status: head.split('\r\n')[0], body: body.startsWith('{') ? JSON.parse(body) : body });
    });
    socket.on('error', reject);
  });
}

/**
 * Swagger UI's files under /docs/ answer a path as every other route does (README "Errors"): U+0000
 * is 400 INVALID_STRING naming `path`, and a path that names no file served there (a dot segment, an
 * escaped `..`, `//`) is the 404 NOT_FOUND naming `path` of a missing file, never the file server's
 * own 403.
 */
describe('Swagger UI files: a path the file server refuses is answered as any other path', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({ listen: true });
  });
  afterAll(async () => {
    await t.close();
    removeDir(t.dataDir);
  });

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
});
