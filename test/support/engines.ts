import { Client as PgClient } from 'pg';
import type { startApp } from './app';

type AppOptions = Parameters<typeof startApp>[0];

/**
 * A suite on SQLite and, when EVENT_STORE_PG_URL is set, on PostgreSQL in a schema of its own (`<prefix>_…`, dropped
 * by the suite's `cleanup`); without it the PostgreSQL run is skipped, saying so: `<what> on PostgreSQL SKIPPED`, and
 * a skipped `<title> (PostgreSQL, SKIPPED: …)`.
 */
export function onEveryEngine(
  suite: (engine: string, opts: AppOptions, cleanup?: () => Promise<void>) => void,
  names: { prefix: string; what: string; title: string },
): void {
  suite('SQLite', {});
  const url = process.env.EVENT_STORE_PG_URL;
  if (url) {
    const schema = `${names.prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    suite('PostgreSQL', { eventStoreUrl: url, eventStoreSchema: schema }, async () => {
      const c = new PgClient({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    });
  } else {
    console.warn(
      `${names.what} on PostgreSQL SKIPPED: set EVENT_STORE_PG_URL=postgres://user@host:5432/db to run it`,
    );
    describe.skip(`${names.title} (PostgreSQL, SKIPPED: EVENT_STORE_PG_URL is not set)`, () =>
      it('needs PostgreSQL', () => undefined));
  }
}
