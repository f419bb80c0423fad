import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EventStore,
  InMemoryEventStore,
  PostgresEventStore,
  ReadAllOptions,
  SqliteEventStore,
} from '@app/event-store';

/** A Narateer sheet with no weapon and thick armour: fights that only need a combatant to exist. */
export const plainSheet = {
  vitals: { strength: 2, agility: 3, resilience: 2 },
  skills: { melee: 3, ranged: 0, acrobatics: 1 },
  maxVitality: 12,
  maxAD: 6,
  maxMD: 0,
  weapons: [],
  armour: { soak: 20 },
};

/** plainSheet with a light melee weapon (`blade`) that never wounds through the armour: duels that go on. */
export const weaponSheet = {
  ...plainSheet,
  weapons: [
    {
      id: 'blade',
      name: 'Practice blade',
      kind: 'melee',
      weight: 'light',
      baseAttackCost: 1,
      weaponDamage: 0,
      damageVitalCap: 0,
      harm: 'Physical (Slashing)',
    },
  ],
};

/** A Narateer melee exchange with weaponSheet's blade, answered with a clash. */
export const exchange = (attackerId: string, targetId: string) => ({
  type: 'DeclareExchange',
  attackerId,
  targetId,
  kind: 'melee',
  weaponId: 'blade',
  boost: 0,
  response: { response: 'clash', boost: 0 },
});

/** The store, counting its reads of the global log. */
export function countingReads(store: EventStore): { store: EventStore; reads: () => number } {
  let reads = 0;
  const wrapped = new Proxy(store, {
    get(target, prop) {
      if (prop === 'readAll')
        return (options?: ReadAllOptions) => {
          reads++;
          return target.readAll(options);
        };
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, reads: () => reads };
}

/**
 * Scratch space for a spec's stores: new temporary directories and fresh PostgreSQL schema names, all
 * removed (directories) and dropped (schemas, on `pgUrl`) after the spec's last test.
 */
export function scratch(pgUrl: string | undefined): {
  dir(prefix: string): string;
  schema(prefix: string): string;
} {
  const dirs: string[] = [];
  const schemas: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    if (pgUrl && schemas.length > 0) {
      const { Client } = await import('pg');
      const c = new Client({ connectionString: pgUrl });
      await c.connect();
      for (const schema of schemas) await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    }
  });
  return {
    dir: (prefix) => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    schema: (prefix) => {
      const schema = `${prefix}${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      return schema;
    },
  };
}

/** Two instances' stores on one log: the same store where the engine has one process, two clients of PostgreSQL. */
export interface SharedLog {
  here: EventStore;
  there: EventStore;
  close(): Promise<void>;
}

/**
 * Memory, SQLite and (with `pgUrl`) PostgreSQL, each opening a fresh shared log in `space`; without `pgUrl`, the
 * PostgreSQL run is reported skipped, saying how to run it (`what` names the suite).
 */
export function sharedLogEngines(
  pgUrl: string | undefined,
  space: ReturnType<typeof scratch>,
  what: string,
): Array<[string, () => Promise<SharedLog>]> {
  // A PostgreSQL schema name is at most 30 characters here, 13 of them space.schema's random tail.
  const prefix = what
    .toLowerCase()
    .replace(/[^a-z]+/g, '_')
    .slice(0, 12);
  const engines: Array<[string, () => Promise<SharedLog>]> = [
    [
      'memory',
      async () => {
        const store = new InMemoryEventStore();
        return { here: store, there: store, close: () => store.close() };
      },
    ],
    [
      'sqlite',
      async () => {
        const store = new SqliteEventStore(join(space.dir(`crs-${prefix}-`), 'events.sqlite'));
        return { here: store, there: store, close: () => store.close() };
      },
    ],
  ];
  if (pgUrl)
    engines.push([
      'postgres',
      async () => {
        const schema = space.schema(`${prefix}_`);
        const [here, there] = [0, 1].map(() => new PostgresEventStore({ connectionString: pgUrl, schema }));
        await here.start();
        await there.start();
        return { here, there, close: async () => (await here.close(), await there.close()) };
      },
    ]);
  else {
    console.warn(
      `PostgreSQL ${what} suite SKIPPED: set EVENT_STORE_PG_URL=postgres://user@host:5432/db to run it`,
    );
    describe.skip(`${what} on postgres (SKIPPED: EVENT_STORE_PG_URL is not set)`, () =>
      it('needs PostgreSQL', () => undefined));
  }
  return engines;
}
