import { Command } from 'commander';
import { copyLog, createEventStore } from '@app/event-store';
import { createReadStore, FightService, ProjectionName, ProjectionRunner, PROJECTIONS } from '@app/fights';
import { SYSTEMS } from '@app/rules';
import { toNdjson } from '@app/audit';
import { registerAudit } from './audit';
import { registerLab } from './lab';
import { registerBench } from './bench';
import { readSideUrl } from '@app/api';

const program = new Command('cli').description(
  'Combat rules service from a terminal (same libraries as the API)',
);

const storeOptions = (cmd: Command) =>
  cmd
    .option(
      '--store <url>',
      'event store URL (default: EVENT_STORE_URL, else SQLite in --data-dir)',
      process.env.EVENT_STORE_URL,
    )
    .option('--data-dir <dir>', 'SQLite data directory', process.env.DATA_DIR ?? './data')
    .option(
      '--schema <name>',
      'PostgreSQL schema (default: EVENT_STORE_SCHEMA, else public)',
      process.env.EVENT_STORE_SCHEMA,
    )
    .option(
      '--read-store <url>',
      'PostgreSQL for the read models beside a KurrentDB store (default: READ_STORE_URL, else SQLite in --data-dir)',
      process.env.READ_STORE_URL,
    );

interface StoreOptions {
  store?: string;
  dataDir: string;
  schema?: string;
  readStore?: string;
}

const readStoreFor = (opts: StoreOptions) =>
  createReadStore({
    url: readSideUrl({ eventStoreUrl: opts.store, readStoreUrl: opts.readStore }),
    dataDir: opts.dataDir,
    schema: opts.schema,
  });

program
  .command('systems')
  .description('list the rule systems with their rulings')
  .action(() => {
    for (const s of Object.values(SYSTEMS))
      console.log(`${s.id}\t${s.name}\t${s.rulings.map((r) => r.id).join(' ')}`);
  });

storeOptions(program.command('log <fightId>').description("print a fight's event log as NDJSON")).action(
  async (fightId: string, opts: StoreOptions) => {
    const store = await createEventStore({ url: opts.store, dataDir: opts.dataDir, schema: opts.schema });
    try {
      for (const e of await new FightService(store).events(fightId)) console.log(JSON.stringify(e));
    } finally {
      await store.close();
    }
  },
);

const projections = program.command('projections').description('read models folded from the global log');
storeOptions(
  projections
    .command('rebuild [name]')
    .description(`rebuild one projection (${PROJECTIONS.join(', ')}) or all from position 0`),
).action(async (name: string | undefined, opts: StoreOptions) => {
  if (name !== undefined && !PROJECTIONS.includes(name as ProjectionName))
    throw new Error(`unknown projection ${name}; known: ${PROJECTIONS.join(', ')}`);
  const names = name ? [name as ProjectionName] : [...PROJECTIONS];
  const store = await createEventStore({ url: opts.store, dataDir: opts.dataDir, schema: opts.schema });
  const runner = new ProjectionRunner(store, readStoreFor(opts), names);
  try {
    const started = process.hrtime.bigint();
    for (const n of names) await runner.read.reset(n);
    // All the named projections from one pass over the log.
    await runner.catchUpAll();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const statuses = await runner.status();
    console.log(
      `rebuilt ${names.join(', ')} in ${ms.toFixed(0)} ms (lag now ${statuses.map((st) => `${st.name} ${st.lagEvents}`).join(', ')})`,
    );
  } finally {
    await runner.read.close();
    await store.close();
  }
});
storeOptions(projections.command('status').description('each projection’s checkpoint and lag')).action(
  async (opts: StoreOptions) => {
    const store = await createEventStore({ url: opts.store, dataDir: opts.dataDir, schema: opts.schema });
    const runner = new ProjectionRunner(store, readStoreFor(opts));
    try {
      for (const s of await runner.status())
        console.log(`${s.name}\tlag ${s.lagEvents}\tcheckpoint ${s.checkpoint ?? '-'}`);
    } finally {
      await runner.read.close();
      await store.close();
    }
  },
);

program
  .command('store')
  .description('the event log itself')
  .command('copy')
  .description(
    'copy a whole log between engines, preserving order, ids and hashes (e.g. SQLite → PostgreSQL); into SQLite or PostgreSQL all or nothing, into KurrentDB resumable',
  )
  .requiredOption('--from <url>', 'source: a postgres:// or kurrentdb:// URL, or sqlite:<data dir>')
  .requiredOption('--to <url>', 'target: a postgres:// or kurrentdb:// URL, or sqlite:<data dir>')
  .option('--from-schema <name>', 'PostgreSQL schema of the source')
  .option('--to-schema <name>', 'PostgreSQL schema of the target')
  .action(async (opts: { from: string; to: string; fromSchema?: string; toSchema?: string }) => {
    const open = (url: string, schema?: string) =>
      url.startsWith('sqlite:')
        ? createEventStore({ dataDir: url.slice('sqlite:'.length) || './data' })
        : createEventStore({ url, schema });
    const from = await open(opts.from, opts.fromSchema);
    const to = await open(opts.to, opts.toSchema);
    try {
      const report = await copyLog(from, to, (n) => process.stderr.write(`\rcopied ${n} events`));
      console.log(
        `\ncopied ${report.events} events in ${report.streams} streams${report.atomic ? ' in one transaction' : ''}`,
      );
    } finally {
      await from.close();
      await to.close();
    }
  });

registerAudit(program);
registerLab(program);
registerBench(program);
storeOptions(
  program.commands
    .find((c) => c.name() === 'audit')!
    .command('export <fightId>')
    .description('write a fight log for verification (JSON, or NDJSON with --ndjson)'),
)
  .option('--ndjson', 'NDJSON instead of one JSON document')
  .action(async (fightId: string, opts: StoreOptions & { ndjson?: boolean }) => {
    const store = await createEventStore({ url: opts.store, dataDir: opts.dataDir, schema: opts.schema });
    try {
      const log = await new FightService(store).exportLog(fightId);
      process.stdout.write(opts.ndjson ? toNdjson(log) : JSON.stringify(log, null, 2) + '\n');
    } finally {
      await store.close();
    }
  });

program.parseAsync().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
