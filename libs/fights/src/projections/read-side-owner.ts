import { Client } from 'pg';
import { FixedReadSideOwner, type ReadSideOwner } from './read-side';

export { FixedReadSideOwner, type ReadSideOwner } from './read-side';

export interface ReadSideElectionOptions {
  connectionString: string;
  /** The schema of the log and read models: one owner per schema. */
  schema?: string;
  /** How often a candidate tries for the lock, and the owner checks its session is alive. */
  retryMs?: number;
  onError?: (e: unknown) => void;
}

/**
 * An election on PostgreSQL: a session-level advisory lock, held by a connection of its own. The owner's
 * session ending (a stop, a crash, a lost connection) frees the lock and the next candidate to try takes it.
 * A candidate tries with `pg_try_advisory_lock` once per `retryMs`, never with a waiting `pg_advisory_lock`:
 * a statement that waits holds a snapshot, and a snapshot held for hours holds back vacuum.
 */
export class PostgresReadSideElection implements ReadSideOwner {
  readonly mode = 'elected';
  readonly onChange = new Set<(owned: boolean) => void>();
  private isOwned = false;
  private client?: Client;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private readonly key: string;
  private turn?: Promise<void>;

  constructor(private readonly options: ReadSideElectionOptions) {
    this.key = `read side ${options.schema ?? 'public'}`;
  }

  get owned(): boolean {
    return this.isOwned;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.try();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.turn;
    this.set(false);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private try(): Promise<void> {
    this.turn = this.attempt().finally(() => {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.try(), this.options.retryMs ?? 1000);
      this.timer.unref();
    });
    return this.turn;
  }

  private async attempt(): Promise<void> {
    if (this.stopped) return;
    try {
      const client = this.client ?? (await this.connect());
      if (this.isOwned) {
        // A session that died shows up here; the lock went with it.
        await client.query('SELECT 1');
        return;
      }
      const { rows } = await client.query<{ got: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1)) AS got',
        [this.key],
      );
      if (rows[0]?.got && !this.stopped) this.set(true);
    } catch (e) {
      this.lost();
      this.options.onError?.(e);
    }
  }

  private async connect(): Promise<Client> {
    const client = new Client({
      connectionString: this.options.connectionString,
      application_name: 'read-side-election',
      keepAlive: true,
      statement_timeout: 10_000,
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    this.client = client;
    return client;
  }

  /** The session is gone, and the lock with it: the read side stops here until this instance wins again. */
  private lost(client = this.client): void {
    if (client !== this.client) return;
    this.client = undefined;
    client?.end().catch(() => undefined);
    this.set(false);
  }

  private set(owned: boolean): void {
    if (this.isOwned === owned) return;
    this.isOwned = owned;
    for (const listener of this.onChange) listener(owned);
  }
}

/**
 * The owner for a read side at `url`: an election on PostgreSQL (several instances may share it), the one
 * process otherwise. `follow`: this instance never owns (PostgreSQL only: elsewhere nobody else would).
 */
export function createReadSideOwner(config: {
  url?: string;
  schema?: string;
  role?: 'elect' | 'follow';
  onError?: (e: unknown) => void;
}): ReadSideOwner {
  const url = config.url?.trim();
  const postgres = !!url && /^postgres(ql)?:/i.test(url);
  if (config.role === 'follow') {
    if (!postgres) throw new Error('READ_SIDE=follow needs a PostgreSQL read side: nobody else would run it');
    return new FixedReadSideOwner(false);
  }
  if (!postgres) return new FixedReadSideOwner(true);
  return new PostgresReadSideElection({
    connectionString: url,
    schema: config.schema,
    onError: config.onError,
  });
}
