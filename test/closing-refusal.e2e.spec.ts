import type { Server } from 'node:http';
import { connect } from 'node:net';
import { removeDir, startApp } from './support/app';

/**
 * A request that reaches an instance once it has begun to stop (on a connection that was busy when the stop
 * began, so not closed as an idle one) is refused in the error shape, with a code, Retry-After and the
 * connection closed: Fastify's own answer was a 503 whose body had no code and no request id.
 */
describe('a request that arrives while the instance stops', () => {
  it('given its headers end after the stop began, then 503 SHUTTING_DOWN in the error shape, with Retry-After and Connection: close', async () => {
    const t = await startApp({ listen: true });
    const server = t.app.getHttpServer() as Server;
    const port = Number(new URL(t.url!).port);
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    const ended = new Promise<void>((r) => socket.once('close', () => r()));
    // The request has begun (its connection is not idle) but its headers have not ended.
    socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n');
    await new Promise((r) => setTimeout(r, 50));
    const closing = t.close();
    for (let i = 0; server.listening && i < 400; i++) await new Promise((r) => setTimeout(r, 25));
    expect(server.listening).toBe(false);
    socket.write('\r\n');
    await ended;
    await closing;
    removeDir(t.dataDir);

    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(head).toMatch(/\r\nconnection: close\r\n/i);
    expect(head).toMatch(/\r\nx-request-id: \S+\r\n/i);
    expect(JSON.parse(body)).toMatchObject({ statusCode: 503, code: 'SHUTTING_DOWN' });
  });
});
