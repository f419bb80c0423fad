import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { accessLog, noteStalled } from '../../src/ops/logging';

/**
 * A response cut before its end, by whom: the access log's line for an answer its client stopped reading
 * (a long export it hung up on) and for one the service cut itself. The server writes the first part of
 * its answer (an event stream's, for a request id starting `sse-`) and holds the rest, so the response ends only when one side closes it: no race with a
 * response that finishes first.
 */
describe('access log, a response cut before its end', () => {
  let server: Server;
  let url: string;
  const lines: Array<Record<string, unknown>> = [];
  /** What the handler does once the first part is out, for the request with this id. */
  const then = new Map<string, (res: ServerResponse) => void>();

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const step = accessLog(pino({ level: 'info' }, sink));
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const id = String(req.headers['x-request-id']);
      step(
        { id, raw: req },
        {
          raw: res,
          header: (name, value) => res.setHeader(name, value),
          getHeader: (name) => res.getHeader(name),
        },
      );
      const stream = id.startsWith('sse-');
      res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
      res.write(stream ? 'id: 1\ndata: {}\n\n' : '{"entries":[', () => then.get(id)?.(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Asks with request id `id`; `onFirstPart` runs on the client once the first part has come. */
  function ask(id: string, onFirstPart: (res: IncomingMessage) => void): Promise<void> {
    return new Promise((resolve) => {
      const req = get(url, { headers: { 'x-request-id': id } }, (res) => {
        res.once('data', () => onFirstPart(res));
        res.on('error', () => undefined);
        res.on('close', () => resolve());
      });
      req.on('error', () => resolve());
    });
  }

  async function lineOf(id: string): Promise<Record<string, unknown>> {
    for (;;) {
      const line = lines.find((l) => (l.req as { id?: string } | undefined)?.id === id);
      if (line) return line;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  it('given a client that hangs up mid-answer, its line is "response abandoned" at info, with no error', async () => {
    await ask('reset', (res) => res.destroy());
    const line = await lineOf('reset');
    expect(line).toMatchObject({ level: 30, msg: 'response abandoned', res: { statusCode: 200 } });
    expect(line).not.toHaveProperty('err');
  });

  it('given a client that ends its side mid-answer, its line is "response abandoned" at info', async () => {
    await ask('ended', (res) => res.socket.end());
    expect(await lineOf('ended')).toMatchObject({ level: 30, msg: 'response abandoned' });
  });

  it('given an answer the service cuts itself, its line is "request aborted" at error', async () => {
    then.set('cut', (res) => res.destroy());
    await ask('cut', () => undefined);
    expect(await lineOf('cut')).toMatchObject({
      level: 50,
      msg: 'request aborted',
      err: { message: 'request aborted' },
    });
  });

  it('given an answer cut because its client took nothing for too long, its line is "response stalled" at warn', async () => {
    then.set('stalled', (res) => {
      noteStalled(res);
      res.destroy();
    });
    await ask('stalled', () => undefined);
    const line = await lineOf('stalled');
    expect(line).toMatchObject({ level: 40, msg: 'response stalled', res: { statusCode: 200 } });
    expect(line).not.toHaveProperty('err');
  });

  it('given an answer the service cuts with an error, its line is "request aborted" at error', async () => {
    then.set('failed', (res) => res.destroy(new Error('the stream failed')));
    await ask('failed', () => undefined);
    expect(await lineOf('failed')).toMatchObject({ level: 50, msg: 'request aborted' });
  });

  it('given an event stream its client leaves, its line is "stream closed" at info', async () => {
    await ask('sse-left', (res) => res.destroy());
    const line = await lineOf('sse-left');
    expect(line).toMatchObject({ level: 30, msg: 'stream closed', res: { statusCode: 200 } });
    expect(line).not.toHaveProperty('err');
  });

  it('given an event stream cut because its client took nothing for too long, its line is "response stalled" at warn', async () => {
    then.set('sse-stalled', (res) => {
      noteStalled(res);
      res.destroy();
    });
    await ask('sse-stalled', () => undefined);
    expect(await lineOf('sse-stalled')).toMatchObject({ level: 40, msg: 'response stalled' });
  });
});
