import { Client as PgClient } from 'pg';
import { PostgresReadStore } from '@app/fights';
import { removeDir, startApp, TestApp } from './support/app';
import { mace, mira, orin, sword } from './support/narateer-sheets';

const PG_URL = process.env.EVENT_STORE_PG_URL;

/** A seeded fight with a drawKey: the same commands roll the same faces on every engine (C14). */
const fight = {
  system: 'narateer',
  name: 'Duel at the ford',
  dice: { mode: 'seeded', seed: 'same-bytes', drawKey: 'same-bytes' },
  combatants: [
    { id: 'mira', name: 'Mira', side: 'ford', sheet: { ...mira, weapons: [sword] } },
    { id: 'orin', name: 'Orin', side: 'bandits', sheet: { ...orin, weapons: [mace] } },
  ],
};
const commands = [
  { type: 'RollInitiative', tieBreak: ['mira', 'orin'] },
  { type: 'StartRound' },
  { type: 'StartActivation' },
  {
    type: 'DeclareExchange',
    attackerId: 'mira',
    targetId: 'orin',
    kind: 'melee',
    weaponId: 'sword',
    boost: 1,
  },
  { type: 'RespondToExchange', combatantId: 'orin', response: 'clash', boost: 1, weaponId: 'mace' },
  { type: 'AddNote', text: 'same bytes everywhere' },
];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
/** Hashes: the chain covers the fight id. */
const HASH = /\b[0-9a-f]{64}\b/g;
/** An actor is named after the key that sent the command. */
const ACTOR = /"actor":"[^"]*"/g;

/** The answer's text with only what differs between two fights masked: ids, times, hashes, actors. Member order stays. */
function masked(text: string, ids: string[]): string {
  let out = text;
  for (const id of ids) out = out.split(id).join('<id>');
  return out
    .replace(UUID, '<uuid>')
    .replace(TIME, '<time>')
    .replace(HASH, '<hash>')
    .replace(ACTOR, '"actor":"<actor>"');
}

if (!PG_URL) {
  console.warn(
    'Same-bytes-on-every-engine PostgreSQL suite SKIPPED: set EVENT_STORE_PG_URL=postgres://user@host:5432/db to run it',
  );
  describe.skip('the same fight answers in the same bytes on SQLite and PostgreSQL (SKIPPED: EVENT_STORE_PG_URL is not set)', () =>
    it('needs PostgreSQL', () => undefined));
} else {
  const dropSchema = async (schema: string) => {
    const c = new PgClient({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  };
  const newSchema = (prefix: string) =>
    `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

  describe('the same fight answers in the same bytes on SQLite and PostgreSQL', () => {
    const schema = newSchema('bytes');
    const apps: TestApp[] = [];
    let sqlite: TestApp;
    let postgres: TestApp;
    beforeAll(async () => {
      sqlite = await startApp();
      apps.push(sqlite);
      postgres = await startApp({ eventStoreUrl: PG_URL, eventStoreSchema: schema });
      apps.push(postgres);
    }, 60_000);
    afterAll(async () => {
      for (const app of apps.reverse()) {
        await app.close();
        removeDir(app.dataDir);
      }
      await dropSchema(schema);
    });

    /** Plays the fight on one engine; the raw text of its answers, masked. */
    async function play(t: TestApp): Promise<Record<string, string>> {
      const created = await t.http.post('/fights').send(fight).expect(201);
      const id = created.body.fightId as string;
      let seq = created.body.seq as number;
      for (const cmd of commands)
        seq = (
          await t.http
            .post(`/fights/${id}/commands`)
            .send(cmd)
            .expect((res) => expect([res.status, res.body.code]).toEqual([200, undefined]))
        ).body.seq as number;
      const ids = [id, t.tenantId];
      const texts: Record<string, string> = {};
      // The read models answer once they hold the last command (?minSeq).
      for (const path of ['/events', `?minSeq=${seq}`, '/log', `/combatants?minSeq=${seq}`]) {
        const res = await t.http.get(`/fights/${id}${path}`);
        texts[path] = `${res.status} ${masked(res.text, ids)}`;
      }
      return texts;
    }

    it('given the same seeded fight played with the same commands on both engines, when its events, view and log are read, then the answers are the same text, member for member', async () => {
      const onSqlite = await play(sqlite);
      const onPostgres = await play(postgres);
      expect(onSqlite['/events']).toMatch(/^200 .*"harm":\{/);
      expect(Object.keys(onSqlite).filter((path) => onPostgres[path] !== onSqlite[path])).toEqual([]);
      expect(onPostgres).toEqual(onSqlite);
    });
  });

  describe('read models written by an earlier version (jsonb columns) on PostgreSQL', () => {
    const schema = newSchema('bytes_rs');
    afterAll(() => dropSchema(schema));

    it('given fight_views created with a jsonb column and holding a row, when the read store starts, then the column is json, the old row reads back and a new one keeps its member order', async () => {
      const c = new PgClient({ connectionString: PG_URL });
      await c.connect();
      try {
        await c.query(`CREATE SCHEMA ${schema};
          CREATE TABLE ${schema}.fight_views (fight_id text PRIMARY KEY, tenant_id text NOT NULL, system text NOT NULL, name text NOT NULL, status text NOT NULL, seq integer NOT NULL, head_hash text NOT NULL, created_at text NOT NULL, updated_at text NOT NULL, view jsonb NOT NULL);
          INSERT INTO ${schema}.fight_views VALUES ('old', 't', 'narateer', 'Old', 'active', 1, 'h', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '{"zeta":1,"a":2}');`);
        const store = new PostgresReadStore(PG_URL, schema);
        try {
          expect((await store.getFight('old'))?.view).toEqual({ a: 2, zeta: 1 });
          const types = await c.query<{ table_name: string; column_name: string; data_type: string }>(
            `SELECT table_name, column_name, data_type FROM information_schema.columns
             WHERE table_schema = $1 AND column_name IN ('view', 'summary') ORDER BY table_name`,
            [schema],
          );
          expect(types.rows).toEqual([{ table_name: 'fight_views', column_name: 'view', data_type: 'json' }]);
          const view = { zeta: 1, a: { yy: 1, b: 2 } };
          const row = {
            fightId: 'new',
            tenantId: 't',
            system: 'narateer',
            name: 'New',
            status: 'active',
            seq: 1,
            headHash: 'h',
            createdAt: '2026-01-02T00:00:00.000Z',
            updatedAt: '2026-01-02T00:00:00.000Z',
            view,
          };
          const applied = await store.apply(['fight-views'], undefined, '1', (tx) => tx.putFight(row));
          expect(applied).toBe(true);
          expect(JSON.stringify((await store.getFight('new'))?.view)).toBe(JSON.stringify(view));
        } finally {
          await store.close();
        }
      } finally {
        await c.end();
      }
    });
  });
}
