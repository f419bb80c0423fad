import { BeforeApplicationShutdown, Inject, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { EventStore } from '@app/event-store';
import { FightService, ProjectionRunner, RemoteTask, TailReader } from '@app/fights';
import {
  compiledOutboxThread,
  createWebhookStore,
  ForegroundGauge,
  WebhookActivity,
  readWebhookConfig,
  WebhookConfig,
  WebhookDispatcher,
  WebhookOutbox,
  WebhookPruner,
  WebhookService,
  WebhookStore,
  SqlWebhookStore,
} from '@app/webhooks';
import { ApiConfig, readSideUrl } from '../config';
import { API_CONFIG, EVENT_STORE, FightsModule } from '../fights.module';
import { WebhooksController } from './webhooks.controller';
import { WebhooksResolver } from './webhooks.resolver';
import { Counter, Gauge } from 'prom-client';
import { Metrics } from '../ops/metrics';
import { OpsModule } from '../ops/ops.module';

export const WEBHOOK_CONFIG = Symbol('WEBHOOK_CONFIG');
export const WEBHOOK_STORE = Symbol('WEBHOOK_STORE');

const logger = new Logger('Webhooks');
const logError = (e: unknown) => logger.error(e instanceof Error ? e.message : String(e));

/**
 * The outbox's catch-ups on the projections' worker thread (docs/webhooks.md "The outbox's thread"): where
 * the projections fold on one (SQLite) and the webhook store is a SQLite file; elsewhere, in this thread.
 */
function outboxThread(
  store: WebhookStore,
  runner: ProjectionRunner,
  config: ApiConfig,
  queued: () => void,
): RemoteTask | undefined {
  const file = config.foldWorker?.outboxFile ?? compiledOutboxThread();
  if (!runner.remote?.task || !(store instanceof SqlWebhookStore) || !store.file || !file) return undefined;
  return runner.remote.task(
    'webhook-outbox',
    file,
    { webhooksFile: store.file },
    {
      onNote: queued,
      onUnavailable: (e) =>
        logger.error(`the webhook outbox could not run on the worker thread (${e.message}); running here`),
    },
  );
}

/** Webhook management (REST, GraphQL), the outbox consumer, the dispatcher and the log's retention, started with the app and stopped before the event store closes. */
@Module({
  imports: [FightsModule, OpsModule],
  controllers: [WebhooksController],
  providers: [
    { provide: WEBHOOK_CONFIG, useFactory: () => readWebhookConfig(process.env) },
    {
      provide: WEBHOOK_STORE,
      inject: [API_CONFIG],
      useFactory: (config: ApiConfig) =>
        createWebhookStore({
          url: readSideUrl(config),
          dataDir: config.dataDir,
          schema: config.eventStoreSchema,
        }),
    },
    {
      // Deliveries yield to commands when both want the one thread (foreground.ts).
      provide: WebhookDispatcher,
      inject: [WEBHOOK_STORE, WEBHOOK_CONFIG, FightService],
      useFactory: (store: WebhookStore, config: WebhookConfig, fights: FightService) => {
        const foreground = new ForegroundGauge();
        fights.onCommit.add(() => foreground.noteCommand());
        return new WebhookDispatcher(store, config, undefined, undefined, logError, foreground);
      },
    },
    {
      provide: WebhookPruner,
      inject: [WEBHOOK_STORE, WEBHOOK_CONFIG],
      useFactory: (store: WebhookStore, config: WebhookConfig) =>
        new WebhookPruner(store, config.retentionDays, undefined, logError),
    },
    {
      // The outbox and the dispatcher's poll run only on the read side's owner, and only while endpoints exist.
      provide: WebhookActivity,
      inject: [WEBHOOK_STORE, ProjectionRunner],
      useFactory: (store: WebhookStore, runner: ProjectionRunner) =>
        new WebhookActivity(store, runner.owner, {
          // On PostgreSQL other instances create and delete endpoints too.
          recheckMs: store.engine === 'postgres' ? 1000 : undefined,
          onError: logError,
        }),
    },
    {
      provide: WebhookOutbox,
      inject: [
        EVENT_STORE,
        WEBHOOK_STORE,
        WebhookDispatcher,
        FightService,
        WebhookActivity,
        ProjectionRunner,
        API_CONFIG,
      ],
      useFactory: (
        events: EventStore,
        store: WebhookStore,
        dispatcher: WebhookDispatcher,
        fights: FightService,
        activity: WebhookActivity,
        runner: ProjectionRunner,
        config: ApiConfig,
      ) => {
        const outbox = new WebhookOutbox(events, store, () => dispatcher.queued(), logError, undefined, {
          tail: new TailReader(events),
          activity,
          remote: outboxThread(store, runner, config, () => dispatcher.queued()),
        });
        fights.onLogPage.add((page) => outbox.offer(page));
        return outbox;
      },
    },
    {
      provide: WebhookService,
      inject: [WEBHOOK_STORE, WebhookDispatcher, WEBHOOK_CONFIG, WebhookActivity],
      useFactory: (
        store: WebhookStore,
        dispatcher: WebhookDispatcher,
        config: WebhookConfig,
        activity: WebhookActivity,
      ) => new WebhookService(store, dispatcher, config, undefined, activity),
    },
    WebhooksResolver,
  ],
  exports: [WebhookService, WebhookDispatcher, WebhookOutbox, WEBHOOK_STORE],
})
export class WebhooksModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly dispatcher: WebhookDispatcher,
    private readonly pruner: WebhookPruner,
    private readonly activity: WebhookActivity,
    @Inject(WEBHOOK_STORE) private readonly store: WebhookStore,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookConfig,
    private readonly metrics: Metrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const store = this.store;
    new Gauge({
      name: 'crs_webhook_deliveries',
      help: 'Webhook deliveries by status (pending is the backlog)',
      labelNames: ['status'],
      registers: [this.metrics.registry],
      async collect() {
        const { deliveries } = await store.stats();
        for (const status of ['pending', 'delivered', 'failed'])
          this.set({ status }, deliveries[status] ?? 0);
      },
    });
    new Gauge({
      name: 'crs_webhook_failed_attempts',
      help: 'Webhook attempts that did not get a 2xx (in the kept delivery log)',
      registers: [this.metrics.registry],
      async collect() {
        this.set((await store.stats()).failedAttempts);
      },
    });
    const pruned = new Counter({
      name: 'crs_webhook_deliveries_pruned_total',
      help: 'Finished webhook deliveries deleted by retention on this instance',
      registers: [this.metrics.registry],
    });
    this.pruner.onPruned.add((count) => pruned.inc(count));
    await this.activity.start();
    this.outbox.start(this.config.pollMs);
    this.dispatcher.start(this.activity);
    this.pruner.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.outbox.stop();
    await this.dispatcher.stop();
    this.activity.stop();
    await this.pruner.stop();
    await this.store.close();
  }
}
