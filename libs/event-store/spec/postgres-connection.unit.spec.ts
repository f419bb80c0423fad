import { EventEmitter } from 'node:events';
import type { Pool, PoolClient } from 'pg';
import {
  inTransaction,
  isConnectionError,
  retryOnConnectionLoss,
  withClient,
} from '../src/postgres-connection';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const FATAL_57P01 = pgError('57P01', 'terminating connection due to administrator command');

/** A pool of one client that records its releases; `onHandOver` runs inside the pool's callback, as a FATAL parsed with the start-up bytes would. */
function fakePool(
  options: { onHandOver?: (client: EventEmitter) => void; query?: (sql: string) => Promise<unknown> } = {},
) {
  const client = new EventEmitter() as EventEmitter & { released: Array<Error | undefined>; sent: string[] };
  client.released = [];
  client.sent = [];
  Object.assign(client, {
    release: (err?: Error) => client.released.push(err),
    query: (sql: string) => {
      client.sent.push(sql);
      return options.query?.(sql) ?? Promise.resolve({ rows: [] });
    },
  });
  const pool = {
    connect(cb: (err: Error | undefined, c: PoolClient | undefined) => void) {
      cb(undefined, client as unknown as PoolClient);
      options.onHandOver?.(client);
    },
  };
  return { pool: pool as unknown as Pool, client };
}

describe('isConnectionError', () => {
  it.each([
    ['57P01 admin shutdown', FATAL_57P01],
    ['57P02 crash shutdown', pgError('57P02')],
    ['57P03 cannot connect now', pgError('57P03')],
    ['08006 connection failure (class 08)', pgError('08006')],
    ['08001 unable to connect (class 08)', pgError('08001')],
    ['ECONNRESET', pgError('ECONNRESET')],
    ['ECONNREFUSED', pgError('ECONNREFUSED')],
    ['a socket ended by the server', new Error('Connection terminated unexpectedly')],
    [
      'a client that already lost its connection',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    [
      'a connection timeout wrapping its cause',
      new Error('Connection terminated due to connection timeout', { cause: pgError('ETIMEDOUT') }),
    ],
  ])('is true for %s', (_name, error) => expect(isConnectionError(error)).toBe(true));

  it.each([
    ['a unique violation', pgError('23505')],
    ['a serialization failure', pgError('40001')],
    ['a syntax error', pgError('42601')],
    ['a query cancelled by statement_timeout (57014, same class 57)', pgError('57014')],
    ['a plain error', new Error('boom')],
    ['a string', 'Connection terminated'],
    ['undefined', undefined],
  ])('is false for %s', (_name, error) => expect(isConnectionError(error)).toBe(false));

  it('reads a cause chain that loops back without looping: false where no link says so, true where one does', () => {
    const a: Error & { cause?: unknown } = new Error('wrapped');
    const b: Error & { cause?: unknown } = new Error('wrapper', { cause: a });
    a.cause = b;
    expect(isConnectionError(b)).toBe(false);
    a.cause = Object.assign(pgError('08006'), { cause: b });
    expect(isConnectionError(b)).toBe(true);
  });
});

describe('withClient', () => {
  it('hears an error emitted while the pool hands the client over, and has the pool destroy that client', async () => {
    const { pool, client } = fakePool({ onHandOver: (c) => c.emit('error', FATAL_57P01) });
    await expect(withClient(pool, async () => 'done')).resolves.toBe('done');
    expect(client.released).toEqual([FATAL_57P01]);
    expect(client.listenerCount('error')).toBe(0);
  });

  it('an error event between two statements is heard, and the client is released with it', async () => {
    const { pool, client } = fakePool();
    await withClient(pool, async (c) => {
      await c.query('SELECT 1');
      (c as unknown as EventEmitter).emit('error', FATAL_57P01);
    });
    expect(client.released).toEqual([FATAL_57P01]);
  });

  it('a healthy client goes back to the pool, and its listener does not stay behind', async () => {
    const { pool, client } = fakePool();
    for (let i = 0; i < 3; i++) await withClient(pool, async () => undefined);
    expect(client.released).toEqual([undefined, undefined, undefined]);
    expect(client.listenerCount('error')).toBe(0);
  });

  it('a statement error keeps the client; a lost connection discards it', async () => {
    const refused = pgError('23505');
    const { pool, client } = fakePool();
    await expect(withClient(pool, () => Promise.reject(refused))).rejects.toBe(refused);
    await expect(withClient(pool, () => Promise.reject(FATAL_57P01))).rejects.toBe(FATAL_57P01);
    expect(client.released).toEqual([undefined, FATAL_57P01]);
  });
});

describe('inTransaction', () => {
  it('commits, or rolls back; a client whose ROLLBACK failed is discarded', async () => {
    const ok = fakePool();
    await inTransaction(ok.pool, (c) => c.query('INSERT'));
    expect(ok.client.sent).toEqual(['BEGIN', 'INSERT', 'COMMIT']);
    expect(ok.client.released).toEqual([undefined]);

    const lost = new Error('Connection terminated unexpectedly');
    const bad = fakePool({
      query: (sql) => (sql === 'ROLLBACK' ? Promise.reject(lost) : Promise.resolve({ rows: [] })),
    });
    const refused = pgError('23505');
    await expect(inTransaction(bad.pool, () => Promise.reject(refused))).rejects.toBe(refused);
    expect(bad.client.sent).toEqual(['BEGIN', 'ROLLBACK']);
    expect(bad.client.released).toEqual([lost]);
  });
});

describe('retryOnConnectionLoss', () => {
  it('tries again after a lost connection, and gives up after its last delay', async () => {
    let calls = 0;
    await expect(
      retryOnConnectionLoss(async () => (++calls < 3 ? Promise.reject(FATAL_57P01) : 'ok'), [0, 0, 0]),
    ).resolves.toBe('ok');
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      retryOnConnectionLoss(async () => (++calls, Promise.reject(FATAL_57P01)), [0, 0]),
    ).rejects.toBe(FATAL_57P01);
    expect(calls).toBe(3);
  });

  it('never repeats work that failed for another reason', async () => {
    let calls = 0;
    const refused = pgError('23505');
    await expect(retryOnConnectionLoss(async () => (++calls, Promise.reject(refused)), [0, 0])).rejects.toBe(
      refused,
    );
    expect(calls).toBe(1);
  });
});
