import { Command } from 'commander';
import { createEventStore } from '@app/event-store';
import { FightService } from '@app/fights';
import { SYSTEMS } from '@app/rules';

const program = new Command('cli').description('Combat rules service from a terminal (same libraries as the API)');

const storeOptions = (cmd: Command) =>
  cmd
    .option('--store <url>', 'event store URL (default: EVENT_STORE_URL, else SQLite in --data-dir)', process.env.EVENT_STORE_URL)
    .option('--data-dir <dir>', 'SQLite data directory', process.env.DATA_DIR ?? './data');

program
  .command('systems')
  .description('list the rule systems with their rulings')
  .action(() => {
    for (const s of Object.values(SYSTEMS)) console.log(`${s.id}\t${s.name}\t${s.rulings.map((r) => r.id).join(' ')}`);
  });

storeOptions(program.command('log <fightId>').description("print a fight's event log as NDJSON")).action(async (fightId: string, opts: { store?: string; dataDir: string }) => {
  const store = await createEventStore({ url: opts.store, dataDir: opts.dataDir });
  try {
    for (const e of await new FightService(store).events(fightId)) console.log(JSON.stringify(e));
  } finally {
    await store.close();
  }
});

program.parseAsync().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
