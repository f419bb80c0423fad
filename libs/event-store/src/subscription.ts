import type { StoredEvent, SubscribeOptions } from './port';
import type { CommitNotifier } from './notifier';

const PAGE = 500;
const RETRY_MIN_MS = 5;
const RETRY_MAX_MS = 250;

export interface LogPage {
  events: StoredEvent[];
  /** Committed events exist after this page but wait behind an older open transaction (PostgreSQL). */
  heldBack?: boolean;
}

export interface GlobalLog {
  readonly commits: CommitNotifier;
  readPage(after: string | undefined, limit: number): Promise<LogPage>;
}

/**
 * Catch-up then live. The wake-up listener is registered before the first read and the
 * `woken` flag is cleared before every read, so a commit landing during the last catch-up
 * read forces one more read: no gap. Reads always start at the last delivered checkpoint:
 * no repeat. Held-back events are retried soon, since the transaction holding them may end
 * without a wake-up (a rollback, or a transaction outside the store).
 */
export async function* subscribeToLog(
  log: GlobalLog,
  options: SubscribeOptions = {},
): AsyncGenerator<StoredEvent> {
  const { signal, filter } = options;
  let after = options.after;
  // Cleared before every read (below); only a wake-up after that counts.
  let woken: boolean;
  let resume: (() => void) | undefined;
  let retryMs = RETRY_MIN_MS;
  const wake = (): void => {
    woken = true;
    resume?.();
  };
  const ended = (): boolean => signal?.aborted === true || log.commits.closed;
  const unlisten = log.commits.listen(wake);
  signal?.addEventListener('abort', wake);
  try {
    while (!ended()) {
      woken = false;
      let page: LogPage;
      try {
        page = await log.readPage(after, PAGE);
      } catch (err) {
        if (ended()) return;
        throw err;
      }
      for (const event of page.events) {
        if (ended()) return;
        after = event.checkpoint;
        if (!filter || filter(event)) yield event;
      }
      if (page.events.length === PAGE || woken || ended()) continue;
      const timer = page.heldBack ? setTimeout(wake, retryMs) : undefined;
      retryMs = page.heldBack ? Math.min(retryMs * 2, RETRY_MAX_MS) : RETRY_MIN_MS;
      await new Promise<void>((resolve) => (resume = resolve));
      resume = undefined;
      clearTimeout(timer);
    }
  } finally {
    unlisten();
    signal?.removeEventListener('abort', wake);
  }
}
