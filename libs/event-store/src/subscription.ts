import type { StoredEvent, SubscribeOptions, SubscriptionInterest } from './port';
import type { CommitNotifier } from './notifier';

const PAGE = 500;
const RETRY_MIN_MS = 5;
const RETRY_MAX_MS = 250;

export interface LogPage {
  events: StoredEvent[];
  /** Committed events exist after this page but wait behind an older open transaction (PostgreSQL). */
  heldBack?: boolean;
  /** The read honoured a LogSelection: events of other streams between these were passed over. */
  selected?: boolean;
  /**
   * A selected read that brought everything there was: the head of the log it read to, where the next
   * read starts (events after the last one returned and up to this were passed over).
   */
  end?: string;
  /**
   * A selected read: each stream under the selection's prefix it passed over, with the revision of the
   * last event of it passed over (up to the last event returned when the page is full, else up to `end`).
   * Undefined when the store cannot say.
   */
  passed?: ReadonlyMap<string, bigint>;
}

/** The streams a read must bring: every one not named with `prefix`, and `streams` of those that are. */
export interface LogSelection {
  prefix: string;
  streams: string[];
}

export interface GlobalLog {
  readonly commits: CommitNotifier;
  /** A store that cannot select ignores `selection` and returns every event. */
  readPage(after: string | undefined, limit: number, selection?: LogSelection): Promise<LogPage>;
}

/**
 * Catch-up then live. The wake-up listener is registered before the first read and the
 * `woken` flag is cleared before every read, so a commit landing during the last catch-up
 * read forces one more read: no gap. Reads always start at the last delivered checkpoint
 * (or, reading selected streams, where the last read ended): no repeat. Held-back events are
 * retried soon, since the transaction holding them may end without a wake-up (a rollback, or
 * a transaction outside the store).
 *
 * With an `interest` that is selective, a wake-up that names only streams the subscriber does
 * not want is slept through, and each read asks only for the streams it wants: every stream
 * outside the interest's prefix, those it always wants, and those a wake-up named since a read
 * that could see their commit (one that started after the wake-up and was not held back). A read
 * can see a commit before its wake-up has named its stream (a NOTIFY held up, or one that said
 * nothing), so each selected read also says which streams it passed over: if the interest wants
 * one of them, nothing of the page is delivered, and the same read is made again with it selected.
 */
export async function* subscribeToLog(
  log: GlobalLog,
  options: SubscribeOptions = {},
): AsyncGenerator<StoredEvent> {
  const { signal, filter, interest } = options;
  let after = options.after;
  // Cleared before every read (below); only a wake-up after that counts.
  let woken: boolean;
  let resume: (() => void) | undefined;
  let retryMs = RETRY_MIN_MS;
  /** Streams under the interest's prefix that wake-ups named, with the number of the last wake-up that did. */
  const named = new Map<string, number>();
  let wakes = 0;
  /** Names the streams under the prefix it wants of these (a wake-up's, or what a read passed over); false: none wanted. */
  const nameWanted = (selective: SubscriptionInterest, streams: ReadonlyMap<string, bigint>): boolean => {
    const wanted = [...streams].filter(
      ([s, rev]) => !s.startsWith(selective.prefix) || selective.wants(s, rev),
    );
    if (wanted.length === 0) return false;
    wakes++;
    for (const [s] of wanted) if (s.startsWith(selective.prefix)) named.set(s, wakes);
    return true;
  };
  const wake = (streams?: ReadonlyMap<string, bigint>): void => {
    if (streams && interest?.selective() && !nameWanted(interest, streams)) return;
    woken = true;
    resume?.();
  };
  const ended = (): boolean => signal?.aborted === true || log.commits.closed;
  const unlisten = log.commits.listen(wake);
  const onAbort = (): void => wake();
  signal?.addEventListener('abort', onAbort);
  try {
    while (!ended()) {
      woken = false;
      const selection = interest?.selective()
        ? { prefix: interest.prefix, streams: [...new Set([...interest.always(), ...named.keys()])] }
        : undefined;
      const seen = wakes;
      let page: LogPage;
      try {
        page = await log.readPage(after, PAGE, selection);
      } catch (err) {
        if (ended()) return;
        throw err;
      }
      // A stream it wants that the read passed over: read again from the same place with it selected.
      if (interest && selection && page.passed && nameWanted(interest, page.passed)) continue;
      const full = page.events.length === PAGE;
      for (const event of page.events) {
        if (ended()) return;
        after = event.checkpoint;
        // All through a selected read, what comes next may not follow on from what was delivered last.
        if (page.selected) interest?.passedOver();
        if (!filter || filter(event)) yield event;
      }
      // Everything up to the head it read to was delivered or passed over: the next read starts there.
      if (page.selected && !full && page.end !== undefined && page.end !== after) {
        after = page.end;
        if (page.passed === undefined || page.passed.size > 0) interest?.passedOver();
      }
      // What a wake-up named is read once a read that could see it has brought everything there was.
      if (selection && !full && !page.heldBack) for (const [s, n] of named) if (n <= seen) named.delete(s);
      if (!selection) named.clear();
      if (full || woken || ended()) continue;
      const timer = page.heldBack ? setTimeout(() => wake(), retryMs) : undefined;
      retryMs = page.heldBack ? Math.min(retryMs * 2, RETRY_MAX_MS) : RETRY_MIN_MS;
      await new Promise<void>((resolve) => (resume = resolve));
      resume = undefined;
      clearTimeout(timer);
    }
  } finally {
    unlisten();
    signal?.removeEventListener('abort', onAbort);
  }
}
