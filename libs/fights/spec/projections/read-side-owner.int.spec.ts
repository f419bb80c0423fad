import { Client } from 'pg';
import { PostgresEventStore } from '@app/event-store';
import { FightService } from '../../src/fight-service';
import { PostgresReadStore } from '../../src/projections/postgres-read-store';
import {
  createReadSideOwner,
  FixedReadSideOwner,
  PostgresReadSideElection,
} from '../../src/projections/read-side-owner';
import { ProjectionRunner } from '../../src/projections/runner';
import { countingReads } from '../helpers';

const PG_URL = process.env.EVENT_STORE_PG_URL;

const turn = () => new Promise((r) => setTimeout(r, 10));

describe('createReadSideOwner', () => {
  it('given an embedded read side, then this process owns it, and READ_SIDE=follow is refused (nobody else would run it)', () => {
    expect(createReadSideOwner({ url: undefined }).owned).toBe(true);
    expect(createReadSideOwner({ url: 'memory:' }).mode).toBe('sole');
    expect(() => createReadSideOwner({ url: undefined, role: 'follow' })).toThrow(/PostgreSQL/);
  });

  it('given PostgreSQL, then the instance stands for election, or with follow never owns', () => {
    expect(createReadSideOwner({ url: 'postgres://h/db' })).toBeInstanceOf(PostgresReadSideElection);
    const follower = createReadSideOwner({ url: 'postgres://h/db', role: 'follow' });
    expect(follower).toBeInstanceOf(FixedReadSideOwner);
    expect(follower.owned).toBe(false);
  });
});

if (!PG_URL) {
  console.warn(
    'PostgreSQL read-side election suite SKIPPED: set EVENT_STORE_PG_URL=postgres://user@host:5432/db to run it',
  );
  describe.skip('read-side election on PostgreSQL (SKIPPED: EVENT_STORE_PG_URL is not set)', () =>
    it('needs PostgreSQL', () => undefined));
} else {
  describe('read-side election on PostgreSQL (docs/event-store.md "One owner of the read side")', () => {
    const schema = `ro_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const log = new PostgresEventStore({ connectionString: PG_URL, schema });
    const stops: Array<() => Promise<void>> = [];

    /** An instance's read side: its own election, read store and runner on the shared schema. */
    async function instance() {
      const { store, reads } = countingReads(log);
      const owner = new PostgresReadSideElection({ connectionString: PG_URL!, schema, retryMs: 20 });
      await owner.start();
      const runner = new ProjectionRunner(
        store,
        new PostgresReadStore(PG_URL!, schema),
        undefined,
        undefined,
        {
          owner,
        },
      );
      await runner.start(20);
      const stop = async () => {
        await runner.stop();
        await owner.stop();
        await runner.read.close();
      };
      stops.push(stop);
      return { owner, runner, reads, stop };
    }

    async function folded(runner: ProjectionRunner, fightId: string, seq: number): Promise<void> {
      while (((await runner.read.getFight(fightId))?.seq ?? 0) < seq) await turn();
    }

    afterEach(async () => {
      for (const stop of stops.splice(0)) await stop().catch(() => undefined);
    });

    afterAll(async () => {
      await log.close();
      const c = new Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    });

    it('given two runners on one schema, then only the elected one folds, and the other takes over when it stops', async () => {
      const fights = new FightService(log);
      const { fightId } = await fights.create({ system: 'narateer', name: 'F', dice: { mode: 'manual' } });
      const a = await instance();
      const b = await instance();
      expect([a.owner.owned, b.owner.owned]).toEqual([true, false]);

      const { seq } = await fights.execute(fightId, { type: 'AddNote', text: 'one' });
      await folded(b.runner, fightId, seq);
      expect(a.runner.folding).toBe(true);
      expect(b.runner.folding).toBe(false);
      expect(b.reads()).toBe(0);

      await a.stop();
      while (!b.owner.owned) await turn();
      const next = await fights.execute(fightId, { type: 'AddNote', text: 'two' });
      await folded(b.runner, fightId, next.seq);
      expect(b.runner.folding).toBe(true);
      expect(b.reads()).toBeGreaterThan(0);
    });

    it('given an owner whose session is ended from outside, then it stops folding and an instance is elected again', async () => {
      const a = await instance();
      const b = await instance();
      const [owner] = a.owner.owned ? [a, b] : [b, a];
      expect(owner.owner.owned).toBe(true);
      let lost = false;
      owner.owner.onChange.add((owned) => (lost ||= !owned));
      const c = new Client({ connectionString: PG_URL });
      await c.connect();
      try {
        // The session holding the read side's lock, as a crash or a lost network would end it.
        await c.query(
          `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted
             AND objid = (hashtext($1)::bigint & 4294967295)::oid AND pid <> pg_backend_pid()`,
          [`read side ${schema}`],
        );
      } finally {
        await c.end();
      }
      while (!lost || !(a.owner.owned || b.owner.owned)) await turn();
      expect([a.owner.owned, b.owner.owned].filter(Boolean)).toHaveLength(1);
      expect(a.runner.folding || b.runner.folding).toBe(true);
    });
  });
}
