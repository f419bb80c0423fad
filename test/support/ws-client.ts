import WebSocket from 'ws';
import type { TestApp } from './app';

export interface WsMessage {
  id?: string;
  type: string;
  payload?: unknown;
}

/**
 * A graphql-transport-ws connection spoken by hand: what it is sent goes as given (a message as JSON, or
 * raw text or bytes in a text or binary frame), and every message and the close are seen as they come.
 */
export class RawWsClient {
  readonly messages: WsMessage[] = [];
  /** Messages that came in binary frames: a browser's WebSocket hands those over as a Blob, not text. */
  binaryFrames = 0;
  closed?: { code: number; reason: string };
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.binaryFrames++;
      const message = JSON.parse((data as Buffer).toString()) as WsMessage;
      if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      this.messages.push(message);
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  /** Connected to `path` with the app's key (`t.apiKey`) and acknowledged. */
  static async connect(t: Pick<TestApp, 'url' | 'apiKey'>, path = '/graphql'): Promise<RawWsClient> {
    const socket = new WebSocket(t.url!.replace('http', 'ws') + path, 'graphql-transport-ws');
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const client = new RawWsClient(socket);
    client.send({ type: 'connection_init', payload: { authorization: `Bearer ${t.apiKey}` } });
    await client.next((m) => m.type === 'connection_ack');
    return client;
  }

  /** A message as JSON in a text frame; text or bytes as they are, in a binary frame when `binary`. */
  send(message: WsMessage | string | Buffer, binary = false): void {
    const data = typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message);
    this.socket.send(data, { binary });
  }

  subscribe(id: string, query: string, extra: { variables?: unknown; operationName?: string } = {}): void {
    this.send({ id, type: 'subscribe', payload: { query, ...extra } });
  }

  /**
   * The first message (from now on or already here) that `match` takes; fails when the socket closes first.
   * `timeoutMs` is only a bound on a hang: a loaded machine may take seconds to answer.
   */
  async next(match: (m: WsMessage) => boolean, timeoutMs = 60_000): Promise<WsMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (this.closed) throw new Error(`socket closed ${this.closed.code} ${this.closed.reason}`);
      if (Date.now() > deadline) throw new Error('no such message');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** The error message for operation `id`: its first error's extensions. */
  async errorOf(id: string): Promise<Record<string, unknown>> {
    const m = await this.next((x) => x.id === id && x.type !== 'next');
    expect(m.type).toBe('error');
    return (m.payload as Array<{ extensions: Record<string, unknown> }>)[0].extensions;
  }

  /** The close, once it comes (a bound on a hang only). */
  async closedWith(timeoutMs = 60_000): Promise<{ code: number; reason: string } | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.closed;
  }

  close(): void {
    this.socket.terminate();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
