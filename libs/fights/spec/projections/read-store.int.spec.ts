import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryReadStore } from '../../src/projections/memory-read-store';
import Database from 'better-sqlite3';
import {
  countFightsPgSql,
  listFightsPgSql,
  PostgresReadStore,
} from '../../src/projections/postgres-read-store';
import { FightRow, ReadStore } from '../../src/projections/read-store';
import {
  countFightsSql,
  listFightsSql,
  READ_PAGE_SIZE,
  SqliteReadStore,
} from '../../src/projections/sqlite-read-store';

const row = (fightId: string, seq: number): FightRow => ({
  fightId,
  tenantId: 't1',
  system: 'narateer',
  name: fightId,
  status: 'setup',
  seq,
  headHash: `h${seq}`,
  createdAt: `2026-01-0${seq}`,
  updatedAt: 'x',
  view: { seq },
});

function readStoreContract(name: string, make: () => Promise<ReadStore>) {
  describe(`${name} read store`, () => {
    let store: ReadStore;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(() => store.close());

    it('writes rows and moves the checkpoint together', async () => {
      expect(
        await store.apply(['fight-views'], undefined, 'cp1', async (tx) => tx.putFight(row('f1', 1))),
      ).toBe(true);
      expect(await store.checkpoint('fight-views')).toBe('cp1');
      expect(await store.getFight('f1')).toEqual(row('f1', 1));
    });

    it('a fight read, then written again or reset, reads as it now stands', async () => {
      await store.apply(['fight-views'], undefined, 'cp1', async (tx) => tx.putFight(row('f1', 1)));
      expect(await store.getFight('f1')).toEqual(row('f1', 1));
      await store.apply(['fight-views'], 'cp1', 'cp2', async (tx) => tx.putFight(row('f1', 2)));
      // createdAt stays the first write's.
      expect(await store.getFight('f1')).toEqual({ ...row('f1', 2), createdAt: row('f1', 1).createdAt });
      await store.reset('fight-views');
      expect(await store.getFight('f1')).toBeUndefined();
    });

    it('a failed batch changes neither rows nor checkpoint (no event applied twice or dropped after a crash)', async () => {
      await store.apply(['fight-views'], undefined, 'cp1', async (tx) => tx.putFight(row('f1', 1)));
      await expect(
        store.apply(['fight-views'], 'cp1', 'cp2', async (tx) => {
          tx.putFight(row('f1', 2));
          throw new Error('crash mid-batch');
        }),
      ).rejects.toThrow('crash mid-batch');
      expect(await store.checkpoint('fight-views')).toBe('cp1');
      expect(await store.getFight('f1')).toEqual(row('f1', 1));
      expect(await store.apply(['fight-views'], 'cp1', 'cp2', async () => undefined)).toBe(true);
    });

    it('a runner whose checkpoint moved underneath it commits nothing', async () => {
      await store.apply(['fight-views'], undefined, 'cp1', async () => undefined);
      const stale = await store.apply(['fight-views'], undefined, 'cpX', async (tx) =>
        tx.putFight(row('f1', 1)),
      );
      expect(stale).toBe(false);
      expect(await store.checkpoint('fight-views')).toBe('cp1');
      expect(await store.getFight('f1')).toBeUndefined();
    });

    it('the last write of a row in a batch wins', async () => {
      await store.apply(['fight-views'], undefined, 'cp1', async (tx) => {
        tx.putFight(row('f1', 1));
        tx.putFight(row('f1', 2));
      });
      expect(await store.getFight('f1')).toEqual(row('f1', 2));
    });

    it('lists fights newest first, filtered and paginated; reset empties one projection', async () => {
      await store.apply(['fight-views'], undefined, 'cp', async (tx) => {
        for (const seq of [1, 2, 3]) tx.putFight(row(`f${seq}`, seq));
      });
      const page = await store.listFights({ system: 'narateer', limit: 2, offset: 0 });
      expect(page.map((f) => f.fightId)).toEqual(['f3', 'f2']);
      expect(await store.countFights({ system: 'narateer' })).toBe(3);
      expect(await store.listFights({ status: 'ended', limit: 10, offset: 0 })).toEqual([]);
      expect(await store.countFights({ status: 'ended' })).toBe(0);
      await store.reset('fight-views');
      expect(await store.checkpoint('fight-views')).toBeUndefined();
      expect(await store.listFights({ limit: 10, offset: 0 })).toEqual([]);
    });

    // The fight list's keyset pages (the integration conventions review): after a (createdAt, fightId) key, in the same
    // order on every engine. Ids differ in case and punctuation and share creation times, where a locale's collation
    // (PostgreSQL's default) would order them otherwise than bytes do.
    it('keyset pages: after (createdAt, fightId), newest first, ties by id in byte order, one tenant only, the same on every engine', async () => {
      const times = [
        '2026-01-01T00:00:00.000Z',
        '2026-01-02T00:00:00.000Z',
        '2026-01-02T00:00:00.000Z',
        '2026-01-02T00:00:00.000Z',
        '2026-01-02T00:00:00.000Z',
        '2026-01-03T00:00:00.000Z',
      ];
      const ids = ['a-1', 'B_2', 'a_2', 'a-2', 'b-2', 'Z'];
      const rows = ids.map((id, i) => ({ ...row(id, i + 1), createdAt: times[i] }));
      await store.apply(['fight-views'], undefined, 'cp', async (tx) => {
        for (const r of rows) tx.putFight(r);
        tx.putFight({ ...row('other', 9), tenantId: 't2', createdAt: '2026-01-02T00:00:00.000Z' });
      });
      // Byte order: 'B' (0x42) < 'Z' < 'a' (0x61) < 'b'; '-' (0x2d) < '_' (0x5f).
      const expected = ['Z', 'b-2', 'a_2', 'a-2', 'B_2', 'a-1'];
      for (const limit of [1, 2, 4]) {
        const seen: string[] = [];
        let after: { createdAt: string; fightId: string } | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await store.listFights({
            tenantId: 't1',
            limit,
            ...(after ? { after } : { offset: 0 }),
          });
          seen.push(...page.map((f) => f.fightId));
          if (page.length < limit) break;
          after = { createdAt: page[page.length - 1].createdAt, fightId: page[page.length - 1].fightId };
        }
        expect(seen).toEqual(expected);
      }
      // A key need not be a stored fight: the page starts at the first fight sorting after it.
      expect(
        (
          await store.listFights({
            tenantId: 't1',
            limit: 10,
            after: { createdAt: '2026-01-02T00:00:00.000Z', fightId: 'a_' },
          })
        ).map((f) => f.fightId),
      ).toEqual(['a-2', 'B_2', 'a-1']);
      expect(
        (
          await store.listFights({ limit: 3, after: { createdAt: '2026-01-03T00:00:00.000Z', fightId: 'Z' } })
        ).map((f) => f.fightId),
      ).toEqual(['other', 'b-2', 'a_2']);
      expect(await store.countFights({ tenantId: 't1' })).toBe(6);
      expect(await store.countFights({ tenantId: 't2' })).toBe(1);
    });

    it('counts, for every filter, as many fights as its pages list', async () => {
      const fights = Array.from({ length: 12 }, (_, i) => ({
        ...row(`f${String(i).padStart(2, '0')}`, i + 1),
        tenantId: `t${i % 3}`,
        system: i % 2 ? 'narateer' : 'archsoul',
        status: ['setup', 'active', 'ended'][i % 4 === 3 ? 2 : i % 2],
        createdAt: `2026-01-01T00:00:${String(i % 5).padStart(2, '0')}.000Z`,
      }));
      await store.apply(['fight-views'], undefined, 'cp', (tx) => fights.forEach((f) => tx.putFight(f)));
      for (const tenantId of [undefined, 't0', 't1', 't2'])
        for (const system of [undefined, 'narateer', 'archsoul'])
          for (const status of [undefined, 'setup', 'active', 'ended']) {
            const filter = { tenantId, system, status };
            const listed: string[] = [];
            let after: { createdAt: string; fightId: string } | undefined;
            for (;;) {
              const page = await store.listFights({
                ...filter,
                limit: 2,
                ...(after ? { after } : { offset: 0 }),
              });
              listed.push(...page.map((f) => f.fightId));
              if (page.length < 2) break;
              after = { createdAt: page[1].createdAt, fightId: page[1].fightId };
            }
            const expected = fights.filter(
              (f) =>
                (!tenantId || f.tenantId === tenantId) &&
                (!system || f.system === system) &&
                (!status || f.status === status),
            );
            expect([filter, listed.sort()]).toEqual([filter, expected.map((f) => f.fightId).sort()]);
            expect([filter, await store.countFights(filter)]).toEqual([filter, expected.length]);
          }
    });
  });
}

readStoreContract('memory', async () => new MemoryReadStore());

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
describe('sqlite read store: a file an earlier version wrote', () => {
  it('loses its projection_folds table on open (the folds live in memory now) and keeps its read models', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-read-'));
    dirs.push(dir);
    const file = join(dir, 'read.sqlite');
    const first = new SqliteReadStore(file);
    await first.apply(['fight-views'], undefined, 'cp1', (tx) => tx.putFight(row('f1', 1)));
    await first.close();
    const old = new Database(file);
    old.exec(
      'CREATE TABLE projection_folds (projection TEXT NOT NULL, fight_id TEXT NOT NULL, seq INTEGER NOT NULL, head_hash TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (projection, fight_id))',
    );
    old
      .prepare('INSERT INTO projection_folds VALUES (?, ?, ?, ?, ?)')
      .run('fight-views', 'f1', 1, 'h1', '{}');
    old.close();
    const reopened = new SqliteReadStore(file);
    expect(await reopened.getFight('f1')).toEqual(row('f1', 1));
    expect(await reopened.checkpoint('fight-views')).toBe('cp1');
    await reopened.close();
    const db = new Database(file);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
      name: string;
    }>;
    db.close();
    expect(tables.map((t) => t.name)).not.toContain('projection_folds');
  });
});

describe('sqlite read store: the page size', () => {
  const pageSize = (file: string) => {
    const db = new Database(file, { readonly: true });
    const size = db.pragma('page_size', { simple: true });
    db.close();
    return size;
  };
  const bigView = (i: number) => ({ ...row(`f${i}`, 1), view: { text: 'x'.repeat(2100) } });

  it('given a new file, when fights of about 2 KB are written, then its pages are 8 KiB and hold more than one row each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-read-'));
    dirs.push(dir);
    const file = join(dir, 'read.sqlite');
    const store = new SqliteReadStore(file);
    await store.apply(['fight-views'], undefined, 'cp1', (tx) => {
      for (let i = 0; i < 200; i++) tx.putFight(bigView(i));
    });
    await store.close();
    expect(pageSize(file)).toBe(READ_PAGE_SIZE);
    const db = new Database(file, { readonly: true });
    const { pages } = db
      .prepare('SELECT count(*) AS pages FROM dbstat WHERE name = ?')
      .get('fight_views') as {
      pages: number;
    };
    db.close();
    expect(pages).toBeLessThan(200 / 2);
  });

  it('given a file an earlier version made with 4 KiB pages, when it is opened, then it keeps them and its rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-read-'));
    dirs.push(dir);
    const file = join(dir, 'read.sqlite');
    const old = new Database(file);
    old.pragma('page_size = 4096');
    old.pragma('journal_mode = WAL');
    old.close();
    const store = new SqliteReadStore(file);
    await store.apply(['fight-views'], undefined, 'cp1', (tx) => tx.putFight(bigView(1)));
    expect(await store.getFight('f1')).toEqual(bigView(1));
    await store.close();
    expect(pageSize(file)).toBe(4096);
  });
});

describe('sqlite read store: rows it keeps between reads', () => {
  const nextTurn = () => new Promise((r) => setImmediate(r));

  it('given another connection writes the file (the CLI rebuilding), then the rows it kept are read again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-read-'));
    dirs.push(dir);
    const file = join(dir, 'read.sqlite');
    const server = new SqliteReadStore(file);
    const cli = new SqliteReadStore(file);
    try {
      await server.apply(['fight-views'], undefined, 'cp1', (tx) => tx.putFight(row('f1', 1)));
      expect(await server.getFight('f1')).toEqual(row('f1', 1));
      await cli.apply(['fight-views'], 'cp1', 'cp2', (tx) => tx.putFight(row('f1', 3)));
      // The next request comes on a later turn of the event loop, where the server looks again.
      await nextTurn();
      expect(await server.getFight('f1')).toMatchObject({ seq: 3, headHash: 'h3', view: { seq: 3 } });
      await cli.reset('fight-views');
      await nextTurn();
      expect(await server.getFight('f1')).toBeUndefined();
    } finally {
      await server.close();
      await cli.close();
    }
  });
});

describe('sqlite read store: a fight page reads the keyset index', () => {
  /** SQLite's plans for queries on a fresh read-store file, one text per query. */
  async function sqlitePlans(queries: Array<{ sql: string; args: unknown[] }>): Promise<string[]> {
    const dir = mkdtempSync(join(tmpdir(), 'crs-read-'));
    dirs.push(dir);
    const file = join(dir, 'read.sqlite');
    await new SqliteReadStore(file).close();
    const db = new Database(file);
    try {
      return queries.map(({ sql, args }) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>)
          .map((r) => r.detail)
          .join('\n'),
      );
    } finally {
      db.close();
    }
  }

  it('a tenant’s keyset page searches fight_views_tenant_list by tenant and key, with no sort step and no count', async () => {
    const [keyset, first] = await sqlitePlans([
      listFightsSql({
        tenantId: 't1',
        limit: 21,
        after: { createdAt: '2026-01-02T00:00:00.000Z', fightId: 'f' },
      }),
      listFightsSql({ tenantId: 't1', limit: 21, offset: 0 }),
    ]);
    expect(keyset).toMatch(
      /SEARCH fight_views USING INDEX fight_views_tenant_list \(tenant_id=\? AND \(created_at,fight_id\)<\(\?,\?\)\)/,
    );
    expect(keyset).not.toMatch(/TEMP B-TREE/);
    expect(first).toMatch(/USING INDEX fight_views_tenant_list \(tenant_id=\?\)/);
  });

  it('a tenant’s count reads fight_views_tenant_list alone (a covering index: no row of the table)', async () => {
    const [plan] = await sqlitePlans([countFightsSql({ tenantId: 't1' })]);
    expect(plan).toMatch(/SEARCH fight_views USING COVERING INDEX fight_views_tenant_list \(tenant_id=\?\)/);
  });
});

readStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crs-read-'));
  dirs.push(dir);
  return new SqliteReadStore(join(dir, 'read.sqlite'));
});

const PG_URL = process.env.EVENT_STORE_PG_URL;
if (PG_URL) {
  const schemas: string[] = [];
  readStoreContract('postgres', async () => {
    const schema = `rs_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    return new PostgresReadStore(PG_URL, schema);
  });
  // A database whose own collation is a locale's (ICU en-US: case and punctuation second): the lists must still come in byte order.
  const icu = { url: '', name: `rs_icu_${process.pid}` };
  readStoreContract('postgres (database collation ICU en-US)', async () => {
    if (!icu.url) {
      const { Client } = await import('pg');
      const c = new Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${icu.name}`);
      await c.query(
        `CREATE DATABASE ${icu.name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`,
      );
      await c.end();
      const url = new URL(PG_URL);
      url.pathname = `/${icu.name}`;
      icu.url = url.toString();
    }
    return new PostgresReadStore(
      icu.url,
      `rs_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`,
    );
  });
  afterAll(async () => {
    if (!icu.url) return;
    const { Client } = await import('pg');
    const c = new Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${icu.name} WITH (FORCE)`);
    await c.end();
  });
  /**
   * The plan PostgreSQL makes for a query of a fresh read-store schema, with sequential scans off:
   * on an empty table the planner would scan it whole, so this shows which index the query can use.
   */
  const pgPlan = async (query: (schema: string) => { sql: string; args: unknown[] }): Promise<string> => {
    const schema = `rs_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    const store = new PostgresReadStore(PG_URL, schema);
    await store.countFights({});
    await store.close();
    const { Client } = await import('pg');
    const c = new Client({ connectionString: PG_URL });
    await c.connect();
    try {
      await c.query('SET enable_seqscan = off');
      const { sql, args } = query(schema);
      return (await c.query(`EXPLAIN ${sql}`, args)).rows.map((r) => r['QUERY PLAN'] as string).join('\n');
    } finally {
      await c.end();
    }
  };
  it('postgres read store: a tenant’s keyset page reads fight_views_tenant_keyset by tenant and key, with no sort step', async () => {
    const plan = await pgPlan((schema) =>
      listFightsPgSql(schema, {
        tenantId: 't1',
        limit: 21,
        after: { createdAt: '2026-01-02T00:00:00.000Z', fightId: 'f' },
      }),
    );
    expect(plan).toMatch(/Index Scan using fight_views_tenant_keyset/);
    expect(plan).toMatch(
      /Index Cond: \(\(tenant_id = 't1'::text\) AND \(ROW\(\(created_at\)::text, \(fight_id\)::text\) < ROW\(/,
    );
    expect(plan).not.toMatch(/Sort/);
  });
  it('postgres read store: a tenant’s count reads fight_views_tenant_keyset by tenant, not the table', async () => {
    const plan = await pgPlan((schema) => countFightsPgSql(schema, { tenantId: 't1' }));
    expect(plan).toMatch(/Index Only Scan using fight_views_tenant_keyset/);
    expect(plan).toMatch(/Index Cond: \(tenant_id = 't1'::text\)/);
  });
  afterAll(async () => {
    const { Client } = await import('pg');
    const c = new Client({ connectionString: PG_URL });
    await c.connect();
    for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    await c.end();
  });
} else {
  console.warn(
    'PostgreSQL read-store suite SKIPPED: set EVENT_STORE_PG_URL=postgres://user@host:5432/db to run it',
  );
  describe.skip('postgres read store (SKIPPED: EVENT_STORE_PG_URL is not set)', () =>
    it('needs PostgreSQL', () => undefined));
}
