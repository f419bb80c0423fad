import { Client, type ClientConfig } from 'pg';

/** Waits before reconnecting, doubling from the first to the last after each failed attempt. */
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5000;

/**
 * One LISTEN connection per store. While it is down, the store's polling keeps readers going;
 * once it is back, readers are woken and read on from the last checkpoint they delivered.
 */
export class PgListener {
  private client: Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = RECONNECT_MIN_MS;
  private stopped = false;

  constructor(
    private readonly config: ClientConfig,
    private readonly channel: string,
    /** With the notification's payload; without one on reconnecting (notifications may have been missed). */
    private readonly onNotify: (payload?: string) => void,
    private readonly onError: (error: Error) => void,
  ) {}

  start(): Promise<void> {
    return this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end();
  }

  private async connect(): Promise<void> {
    const client = new Client(this.config);
    client.on('notification', (msg) => this.onNotify(msg.payload));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      client.removeAllListeners('end');
      client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) return void (await client.end());
    this.client = client;
    this.retryMs = RECONNECT_MIN_MS;
  }

  private lost(client: Client, error?: Error): void {
    if (client !== this.client) return;
    this.client = undefined;
    if (error) this.onError(error);
    client.end().catch(() => undefined);
    this.reconnectLater();
  }

  private reconnectLater(): void {
    if (this.stopped) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
    this.retry = setTimeout(() => {
      // Notifications sent while disconnected are lost: wake readers once reconnected.
      this.connect().then(
        () => this.onNotify(),
        (error: Error) => {
          this.onError(error);
          this.reconnectLater();
        },
      );
    }, delay);
  }
}
