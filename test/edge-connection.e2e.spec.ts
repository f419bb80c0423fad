import { connect } from 'node:net';
import { removeDir, startApp, TestApp } from './support/app';

/** Raw bytes on a socket: everything the server sent until it closed the connection. */
function onSocket(url: string, raw: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(raw));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** The status lines of the answers in `text`, in order (an answer follows the body before it on the same line). */
const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3} [^\r]*/g) ?? [];

/**
 * What a connection carries besides one well-formed request at a time: a refused request pipelined
 * behind one still being answered, and requests asking to switch to a protocol no route speaks.
 */
describe('edge: what a connection carries', () => {
  let t: TestApp;
  let fightId: string;

  beforeAll(async () => {
    t = await startApp({ listen: true });
    fightId = (await t.http.post('/fights').send({ system: 'narateer', name: 'Pipelined' }).expect(201)).body
      .fightId;
  });
  afterAll(async () => {
    await t.close();
    removeDir(t.dataDir);
  });

  it('given a command with bytes that are not HTTP pipelined behind it, then its 200 comes whole first, then the 400, then the close', async () => {
    const body = JSON.stringify({ type: 'AddNote', text: 'pipelined' });
    const text = await onSocket(
      t.url!,
      `POST /fights/${fightId}/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}XYZ\r\n\r\n`,
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 400 Bad Request']);
    const [, ok, refused] = text.split(/HTTP\/1\.1 /);
    expect(ok).toContain('"type":"GmNoteAdded"');
    expect(refused).toContain('"code":"BAD_REQUEST"');
    expect(refused).toContain('"field":"method"');
    const log = await t.http.get(`/fights/${fightId}/events`).expect(200);
    expect((log.body as Array<{ type: string }>).filter((e) => e.type === 'GmNoteAdded')).toHaveLength(1);
  });

  it.each(['/health/live', '/fights', '/nowhere', '/GRAPHQL'])(
    'given a WebSocket upgrade to %s, where no WebSocket is served, then it is 400 BAD_REQUEST naming upgrade, and the connection is closed',
    async (path) => {
      const text = await onSocket(
        t.url!,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
      expect(statusLines(text)).toEqual(['HTTP/1.1 400 Bad Request']);
      const body = JSON.parse(text.split('\r\n\r\n')[1]) as Record<string, unknown>;
      expect(body).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST', field: 'upgrade' });
    },
  );

  it('given an h2c upgrade on a route, then it is the same 400, not a hang', async () => {
    const text = await onSocket(
      t.url!,
      'GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n',
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 400 Bad Request']);
  });

  it('given a WebSocket upgrade to /graphql, then graphql-ws still takes it', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(t.url!).port), '127.0.0.1', () =>
        socket.write(
          'GET /graphql HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n',
        ),
      );
      socket.once('data', (chunk: Buffer) => {
        resolve(chunk.toString('utf8'));
        socket.destroy();
      });
      socket.on('error', reject);
    });
    expect(statusLines(text)).toEqual(['HTTP/1.1 101 Switching Protocols']);
  });
});
