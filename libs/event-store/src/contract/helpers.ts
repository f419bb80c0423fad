import { randomUUID } from 'node:crypto';
import type { EventStore, NewEvent, StoredEvent, SubscribeOptions } from '../port';

export function newEvent(data: unknown = { n: 1 }, type = 'Tested'): NewEvent {
  return { id: randomUUID(), type, data };
}

export function newEvents(count: number, type = 'Tested'): NewEvent[] {
  return Array.from({ length: count }, (_, i) => newEvent({ i }, type));
}

export const ids = (events: { id: string }[]): string[] => events.map((e) => e.id);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export type Outcome<T> = { ok: T } | { error: unknown };

export async function outcome<T>(promise: Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: await promise };
  } catch (error) {
    return { error };
  }
}

/**
 * readAll once `count` events are visible. PostgreSQL holds a commit back from readers while an
 * older transaction anywhere in the cluster is open (docs/event-store.md), e.g. a parallel test run.
 */
export async function logOf(store: EventStore, count: number, after?: string): Promise<StoredEvent[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const log = await store.readAll({ after });
    if (log.length >= count || Date.now() > deadline) return log;
    await sleep(10);
  }
}

export interface Collector {
  received: StoredEvent[];
  until(count: number, timeoutMs?: number): Promise<void>;
  /** Aborts the subscription and resolves once its iterator has returned. */
  stop(): Promise<StoredEvent[]>;
}

export function collect(store: EventStore, options: Omit<SubscribeOptions, 'signal'> = {}): Collector {
  const controller = new AbortController();
  const received: StoredEvent[] = [];
  let failure: Error | undefined;
  const done = (async () => {
    for await (const event of store.subscribeAll({ ...options, signal: controller.signal }))
      received.push(event);
  })().catch(
    (error: unknown) =>
      (failure = error instanceof Error ? error : new Error(`subscription failed: ${String(error)}`)),
  );
  return {
    received,
    async until(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (failure) throw failure;
        if (Date.now() > deadline)
          throw new Error(`subscription delivered ${received.length} of ${count} events`);
        await sleep(5);
      }
    },
    async stop() {
      controller.abort();
      await done;
      if (failure) throw failure;
      return received;
    },
  };
}
