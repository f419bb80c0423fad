import { connect } from 'node:net';
import { removeDir, startApp, TestApp } from './support/app';
import { onSocket, statusLines } from './support/raw-socket';

/** One answer on a socket: its status line, its headers (names in lower case) and its JSON body. */
function answerOf(text: string): { status: string; headers: Record<string, string>; body: unknown } {
  const [head, ...rest] = text.split('\r\n\r\n');
  const [status, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status, headers, body: JSON.parse(rest.join('\r\n\r\n')) };
}

/**
 * What a connection carries besides one well-formed request at a time: a refused request pipelined
 * behind one still being answered, requests asking to switch to a protocol no route speaks, and
 * CONNECT, asking to turn the connection into a tunnel no route offers.
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

  it.each(['/health/live', '/fights', '/nowhere', '/GRAPHQL', '/graphqlx', '/graphql/x'])(
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

  it('given CONNECT to a path that has other methods, then it is the 405 METHOD_NOT_ALLOWED with Allow that PROPFIND gets, and the connection is closed', async () => {
    const propfind = answerOf(
      await onSocket(t.url!, 'PROPFIND /fights HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    const connect = answerOf(await onSocket(t.url!, 'CONNECT /fights HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(connect.status).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(connect.body).toEqual({
      statusCode: 405,
      code: 'METHOD_NOT_ALLOWED',
      message: 'CONNECT is not a method of /fights; it takes GET, HEAD, POST, OPTIONS',
      field: 'method',
    });
    expect(connect.status).toBe(propfind.status);
    expect(connect.body).toEqual({
      ...(propfind.body as object),
      message: expect.stringMatching(/^CONNECT /),
    });
    const names = (headers: Record<string, string>) => Object.keys(headers).sort();
    expect(names(connect.headers)).toEqual(names(propfind.headers));
    expect(connect.headers).toMatchObject({
      allow: propfind.headers.allow,
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
    expect(connect.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each(['/nowhere', '127.0.0.1:443'])(
    'given CONNECT to %s, which no method has, then it is 404 NOT_FOUND naming path, and the connection is closed',
    async (target) => {
      const text = await onSocket(t.url!, `CONNECT ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(statusLines(text)).toEqual(['HTTP/1.1 404 Not Found']);
      expect(answerOf(text).body).toEqual({
        statusCode: 404,
        code: 'NOT_FOUND',
        message: `Cannot CONNECT ${target}`,
        field: 'path',
      });
    },
  );

  it('given CONNECT pipelined behind a GET, then the GET is answered whole first, then the 405, then the close; bytes after CONNECT are never a request', async () => {
    const text = await onSocket(
      t.url!,
      'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\nCONNECT /fights HTTP/1.1\r\nHost: x\r\n\r\n' +
        'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 405 Method Not Allowed']);
    expect(text).toContain('"status":"ok"');
  });

  it('given CONNECT without Host, then it is the 400 naming host any HTTP/1.1 request without one gets', async () => {
    const text = await onSocket(t.url!, 'CONNECT /fights HTTP/1.1\r\n\r\n');
    expect(statusLines(text)).toEqual(['HTTP/1.1 400 Bad Request']);
    expect(answerOf(text).body).toMatchObject({ code: 'BAD_REQUEST', field: 'host' });
  });

  const handshake = (lines: string) =>
    `GET /graphql HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\n${lines}\r\n`;
  const KEY = 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';
  it.each([
    [
      'no Sec-WebSocket-Key',
      'sec-websocket-key',
      handshake(`Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n`),
    ],
    [
      'a key that is not 16 bytes',
      'sec-websocket-key',
      handshake(`Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: abc\r\n`),
    ],
    ['no Sec-WebSocket-Version', 'sec-websocket-version', handshake(`Upgrade: websocket\r\n${KEY}`)],
    ['Upgrade: h2c', 'upgrade', handshake(`Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n`)],
    [
      'a subprotocol list that repeats one',
      'sec-websocket-protocol',
      handshake(`Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n${KEY}Sec-WebSocket-Protocol: a, a\r\n`),
    ],
    [
      'a POST',
      'method',
      `POST /graphql HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n${KEY}\r\n`,
    ],
  ])(
    'given a WebSocket handshake to /graphql with %s, then it is 400 BAD_REQUEST in the error shape naming %s, and the connection is closed',
    async (_, field, request) => {
      const answer = answerOf(await onSocket(t.url!, request));
      expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers.connection).toBe('close');
      expect(answer.body).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST', field });
      if (field === 'sec-websocket-version') expect(answer.headers['sec-websocket-version']).toBe('13, 8');
    },
  );

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
