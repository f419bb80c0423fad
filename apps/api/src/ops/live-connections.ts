import { BeforeApplicationShutdown, Global, Injectable, Module } from '@nestjs/common';

/** A graphql-ws connection as the `ws` server hands it over (only what shutdown needs). */
export interface LiveSocket {
  readonly readyState: number;
  close(code: number, reason: string): void;
  terminate(): void;
  on(event: 'close', listener: () => void): unknown;
}

/** An open SSE response: `end` writes the stream's last message and ends it; `closed` settles when the socket is done with it. */
interface SseStream {
  end(): void;
  destroy(): void;
  closed: Promise<void>;
}

export interface LiveClosed {
  sse: number;
  ws: number;
  /** Connections that did not finish within the grace period and were cut. */
  cut: number;
  durationMs: number;
}

/** 1001 Going Away (RFC 6455 7.4.1): graphql-ws clients treat it as retryable and reconnect. */
const GOING_AWAY = 1001;
const GOING_AWAY_REASON = 'Going away: the server is shutting down';
const WS_OPEN = 1;
const WS_CLOSED = 3;

/**
 * The long-lived connections of this instance: SSE responses and graphql-ws sockets. `server.close()`
 * waits for every open connection, so a single OBS overlay would hold a shutdown until the
 * orchestrator's kill. At shutdown each one is ended the way its client expects — SSE with a last
 * `event: shutdown` and the end of the response (EventSource reconnects after its `retry:` and
 * resumes by Last-Event-ID), graphql-ws with a close frame 1001 — and whatever has not finished
 * within the grace period is cut.
 */
@Injectable()
export class LiveConnections implements BeforeApplicationShutdown {
  private readonly sse = new Set<SseStream>();
  private readonly ws = new Set<LiveSocket>();
  private closing?: Promise<LiveClosed>;

  get open(): { sse: number; ws: number } {
    return { sse: this.sse.size, ws: this.ws.size };
  }

  /** Registers an SSE response; returns its removal, for a stream that ends on its own. */
  trackSse(
    res: { on(event: 'close', listener: () => void): unknown; destroy(): void },
    end: () => void,
  ): () => void {
    const stream: SseStream = {
      end,
      destroy: () => res.destroy(),
      closed: new Promise((resolve) => res.on('close', resolve)),
    };
    this.sse.add(stream);
    // Opened while shutting down (on a kept-alive connection): ended at once, the client comes back to another instance.
    if (this.closing) end();
    return () => this.sse.delete(stream);
  }

  /** Registers a graphql-ws socket, until it closes (one that closed while it was authenticated is not kept). */
  trackWs(socket: LiveSocket): void {
    if (socket.readyState === WS_CLOSED) return;
    this.ws.add(socket);
    socket.on('close', () => this.ws.delete(socket));
    if (this.closing && socket.readyState === WS_OPEN) socket.close(GOING_AWAY, GOING_AWAY_REASON);
  }

  /** Ends every stream and closes every socket, waiting at most `graceMs` for them; once, however often called. */
  closeAll(graceMs = 1000): Promise<LiveClosed> {
    return (this.closing ??= this.close(graceMs));
  }

  /** app.close() without main's sequence (tests, embedding) still ends the streams before the HTTP server closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.closeAll();
  }

  private async close(graceMs: number): Promise<LiveClosed> {
    const started = performance.now();
    const streams = [...this.sse];
    const sockets = [...this.ws];
    // What to cut if it has not finished when the grace period is over.
    const unfinished = new Set<() => void>();
    const done: Array<Promise<void>> = [];
    for (const s of streams) {
      const cut = () => s.destroy();
      unfinished.add(cut);
      done.push(s.closed.then(() => void unfinished.delete(cut)));
      s.end();
    }
    for (const socket of sockets) {
      const cut = () => socket.terminate();
      unfinished.add(cut);
      done.push(new Promise((resolve) => socket.on('close', () => resolve(void unfinished.delete(cut)))));
      if (socket.readyState === WS_OPEN) socket.close(GOING_AWAY, GOING_AWAY_REASON);
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(done), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    const cut = unfinished.size;
    for (const c of unfinished) c();
    this.sse.clear();
    return {
      sse: streams.length,
      ws: sockets.length,
      cut,
      durationMs: Math.round(performance.now() - started),
    };
  }
}

/** Global, so the GraphQL module's factory and the REST controllers share the one registry. */
@Global()
@Module({ providers: [LiveConnections], exports: [LiveConnections] })
export class LiveConnectionsModule {}
