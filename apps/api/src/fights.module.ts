import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { createEventStore, EventStore, SqliteEventStore } from '@app/event-store';
import {
  AccessRegistry,
  AccessService,
  createReadStore,
  createSnapshotStore,
  FightQueries,
  FightService,
  createReadSideOwner,
  ProjectionRunner,
  TailReader,
  compiledFoldWorker,
  FoldWorker,
  PROJECTIONS,
  ReadStore,
  SqliteReadStore,
} from '@app/fights';
import { Logger } from '@nestjs/common';
import { ApiConfig, readSideUrl } from './config';

export const API_CONFIG = Symbol('API_CONFIG');

/**
 * The projections' passes on a worker thread (docs/event-store.md "Read side thread"): SQLite files only,
 * the one process that owns them; elsewhere, or with PROJECTIONS_THREAD=main, the runner folds in this thread.
 */
function foldWorker(
  store: EventStore,
  read: ReadStore,
  config: ApiConfig,
  logger: Logger,
): FoldWorker | undefined {
  if (config.projectionsThread === 'main') return undefined;
  if (!(store instanceof SqliteEventStore) || !(read instanceof SqliteReadStore)) return undefined;
  const file = config.foldWorker?.file ?? compiledFoldWorker();
  if (!file) return undefined;
  return new FoldWorker(
    file,
    { eventsFile: store.file, readFile: read.file, names: [...PROJECTIONS] },
    {
      execArgv: config.foldWorker?.execArgv,
      onLost: (e) =>
        logger.error(`the projections' worker thread was lost (${e.message}); folding on the main thread`),
    },
  );
}
export const EVENT_STORE = Symbol('EVENT_STORE');

@Module({
  providers: [
    {
      provide: EVENT_STORE,
      inject: [API_CONFIG],
      useFactory: (config: ApiConfig) =>
        createEventStore({
          url: config.eventStoreUrl,
          dataDir: config.dataDir,
          schema: config.eventStoreSchema,
        }),
    },
    {
      provide: FightService,
      inject: [EVENT_STORE, API_CONFIG],
      // Started by the AccessService below, from where its read of the log stopped.
      // Snapshots of long fights in the event store's own database (docs/event-store.md "Snapshots").
      useFactory: (store: EventStore, config: ApiConfig) =>
        new FightService(store, undefined, {
          snapshots: createSnapshotStore(store, {
            url: config.eventStoreUrl,
            schema: config.eventStoreSchema,
          }),
        }),
    },
    {
      provide: ProjectionRunner,
      inject: [EVENT_STORE, API_CONFIG, FightService],
      useFactory: async (store: EventStore, config: ApiConfig, fights: FightService) => {
        const logger = new Logger('Projections');
        const logError = (e: unknown) => logger.error(e instanceof Error ? e.message : String(e));
        // One owner of the read side (docs/event-store.md): elected on PostgreSQL, this process elsewhere.
        const owner = createReadSideOwner({
          url: readSideUrl(config),
          schema: config.eventStoreSchema,
          role: config.readSide,
          onError: logError,
        });
        await owner.start();
        const read = createReadStore({
          url: readSideUrl(config),
          dataDir: config.dataDir,
          schema: config.eventStoreSchema,
        });
        const remote = foldWorker(store, read, config, logger);
        const runner = new ProjectionRunner(
          store,
          read,
          undefined,
          logError,
          // Folds the pages the log follower reads (one tail read for the instance), not reads of its own.
          // The views the command path built are written as they are, not built again. On a worker thread
          // (SQLite), the worker reads the log and builds the views itself, off the requests' thread.
          {
            owner,
            tail: new TailReader(store),
            heldView: (id, seq, hash) => fights.cache.heldView(id, seq, hash),
            remote,
          },
        );
        await runner.start();
        fights.onLogPage.add((page) => runner.offer(page));
        // Only the read side's owner needs every event; other instances follow what they hold or watch.
        fights.wholeLog = () => owner.owned;
        return runner;
      },
    },
    {
      provide: AccessService,
      inject: [EVENT_STORE, API_CONFIG, FightService],
      useFactory: async (store: EventStore, config: ApiConfig, fights: FightService) => {
        // The registry's snapshot sits beside the fights' (docs/event-store.md "Boot").
        const access = new AccessService(store, new AccessRegistry(), undefined, {
          snapshots: fights.cache.snapshots,
        });
        const generated = await access.start(config.adminApiKey);
        fights.onOtherEvent.add((e) => access.observe(e));
        fights.start(access.scannedTo);
        if (generated) {
          // Shown once on the terminal, outside the structured log: logs never carry secrets.
          process.stdout.write(
            `\nNo admin key existed, so one was generated. It is shown only this once; only its hash is stored:\n\n    ADMIN API KEY: ${generated}\n\nUse it to create tenants (POST /admin/tenants). Set ADMIN_API_KEY to choose your own instead.\n\n`,
          );
          new Logger('Access').warn(
            'a new admin key was generated and printed on the terminal (not in this log)',
          );
        }
        return access;
      },
    },
    {
      provide: FightQueries,
      inject: [ProjectionRunner, FightService],
      useFactory: (runner: ProjectionRunner, fights: FightService) => new FightQueries(runner, fights),
    },
  ],
  exports: [FightService, FightQueries, ProjectionRunner, AccessService, EVENT_STORE],
})
export class FightsModule implements OnApplicationShutdown {
  constructor(
    private readonly fights: FightService,
    private readonly runner: ProjectionRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.fights.stop();
    await this.fights.cache.close();
    await this.fights.cache.snapshots?.close();
    await this.runner.stop();
    await this.runner.owner.stop();
    await this.runner.read.close();
    await this.store.close();
  }
}
