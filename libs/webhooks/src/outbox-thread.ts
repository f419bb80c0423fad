/**
 * The webhook outbox on the projections' worker thread (SQLite; docs/webhooks.md "The outbox's thread").
 * The worker loads this module by file (FoldWorker.task) when the service's outbox first asks it for a
 * catch-up: an instance without endpoints never loads it. Each run queues one page of the log (the
 * service's outbox asks again while there is more) over the worker's own
 * connection to the log and a connection of its own to the webhook store, and notes each batch it queues,
 * so the service's thread wakes its dispatcher as it would have.
 */
import type { WorkerTask, WorkerTaskHost } from '@app/fights';
import { WebhookOutbox } from './outbox';
import { SqlWebhookStore } from './store/sql-store';
import { SqliteDriver } from './store/sqlite-driver';

export interface OutboxThreadData {
  /** The webhook store's SQLite file (the service's own connection stays open beside this one). */
  webhooksFile: string;
}

export function attach(host: WorkerTaskHost<OutboxThreadData>): WorkerTask {
  const store = new SqlWebhookStore(new SqliteDriver(host.data.webhooksFile));
  const outbox = new WebhookOutbox(host.events, store, () => host.note());
  return { run: () => outbox.step() };
}
