import type { Pool, PoolClient } from 'pg';
import { errorAndCauses } from './error-causes';

/** SQLSTATE class 08 (connection exception) and 57P01–57P03 (the server shuts down, crashed or is starting). */
const CONNECTION_SQLSTATE = /^(08|57P0[123])/;
const SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** What node-postgres says when the socket ended, or when a query is sent on a client that already lost it. */
const CONNECTION_MESSAGES = /^Connection terminated|not queryable|Connection ended unexpectedly/;

/**
 * True for errors that mean the database connection was lost or could not be made (a restart,
 * a failover, pg_terminate_backend, a network blip), as opposed to an answer to the statement: the
 * error's code or message says so, or one of its causes' does.
 */
export function isConnectionError(error: unknown): boolean {
  for (const { code, message } of errorAndCauses(error)) {
    if (typeof code === 'string' && (CONNECTION_SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * Runs `fn` on a client of `pool`. node-postgres emits 'error' on a checked-out client when the
 * server ends the connection between two statements (57P01 on pg_terminate_backend), and an
 * unheard 'error' event ends the process: the client has a listener for as long as it is held,
 * removed on release so none pile up. A client that lost its connection, or that `fn` marks
 * broken (a failed ROLLBACK), is released with the error, so the pool destroys it.
 */
export async function withClient<T>(
  pool: Pool,
  fn: (client: PoolClient, broken: (error: unknown) => void) => Promise<T>,
): Promise<T> {
  let lost: Error | undefined;
  const broken = (error: unknown): void => {
    lost ??= error instanceof Error ? error : new Error(String(error));
  };
  const client = await checkOut(pool, broken);
  try {
    return await fn(client, broken);
  } catch (error) {
    if (isConnectionError(error)) broken(error);
    throw error;
  } finally {
    client.removeListener('error', broken);
    client.release(lost);
  }
}

/**
 * The listener goes on in the pool's own callback. `await pool.connect()` would leave a gap: a
 * fresh connection is handed over while its first bytes are parsed, and a FATAL read in the same
 * chunk (a backend terminated right after start-up) is emitted before the await resumes.
 */
function checkOut(pool: Pool, onError: (error: Error) => void): Promise<PoolClient> {
  return new Promise((resolve, reject) =>
    pool.connect((error, client) => {
      if (error || !client) return reject(error ?? new Error('the pool gave no client'));
      client.on('error', onError);
      resolve(client);
    }),
  );
}

/** BEGIN, `fn`, COMMIT; on any error ROLLBACK, and a client whose ROLLBACK failed is not reused. */
export function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  return withClient(pool, async (client, broken) => {
    await client.query('BEGIN');
    try {
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(broken);
      throw error;
    }
  });
}

/** Waits before each retry of a statement whose connection was lost: enough for the pool to open fresh ones. */
export const RECONNECT_DELAYS_MS = [20, 100, 300, 600];

/**
 * Runs `attempt` again after a lost connection, a few times, then gives up with the last error.
 * Only for work that is safe to repeat: reads, and appends (which dedupe by event id).
 */
export async function retryOnConnectionLoss<T>(
  attempt: () => Promise<T>,
  delaysMs: readonly number[] = RECONNECT_DELAYS_MS,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= delaysMs.length || !isConnectionError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delaysMs[n]));
    }
  }
}
