import { FightEvent } from '@app/fight-log';
import { PushIterator, PushObserver } from './push-iterator';

/** Push-mode consumer of a LiveFightStream: called synchronously, in seq order. */
export type LiveObserver = PushObserver<FightEvent>;

/** Events a catch-up reads from the store at a time. */
export const CATCH_UP_PAGE = 500;

/**
 * One subscriber's view of a fight: every event after `after`, in seq order, with
 * no gap and no repeat. Live events are registered before the catch-up read, held
 * while it runs, and de-duplicated by seq; a gap triggers a re-read from the store.
 * The catch-up reads CATCH_UP_PAGE events at a time, with a turn of the event loop
 * between pages: a subscriber that starts at the beginning of a 10,000-event fight
 * does not hold every other request up while its history is read and sent. A reader by
 * `next()` gets the next page read only once it has taken the last one, so one that reads
 * slowly (an SSE client on a slow link) holds one page in memory, not the whole history; an
 * observer that says it is busy (PushObserver.busy: a WebSocket whose unsent frames pile up) holds
 * the catch-up back the same way.
 * Read it either by `next()` or, with no promise per event, by `observe()` (push-iterator.ts).
 * It ends after `FightEnded`, which nothing follows (no command is accepted after it, and it cannot be
 * undone): a reader gets the end, an observer is completed. A stream opened at the last seq of a fight
 * that has ended is over from the start (`over`).
 */
export class LiveFightStream extends PushIterator<FightEvent> {
  /** Events in order, not yet read; `held`: events out of order, waiting on a repair. */
  private ready: FightEvent[] = [];
  private held: FightEvent[] = [];
  private repairing = false;
  /** A full page is waiting in `ready`: the catch-up goes on once the reader has taken it. */
  private pageHeld = false;
  private off?: () => void;

  constructor(
    private last: number,
    private readonly read: (after: number, limit: number) => Promise<FightEvent[]>,
    listen: (deliver: (e: FightEvent) => void) => () => void,
    private readonly page = CATCH_UP_PAGE,
    over = false,
  ) {
    super();
    if (over) {
      this.finish();
      return;
    }
    this.off = listen((e) => this.deliver(e));
    this.repair();
  }

  get lastSeq(): number {
    return this.last;
  }

  /** Whether the fight has ended and the stream has had (or was opened after) its last event. */
  get over(): boolean {
    return this.finished;
  }

  private deliver(e: FightEvent): void {
    if (this.closed || this.finished || e.seq <= this.last) return;
    if (this.repairing) return void this.held.push(e);
    if (e.seq > this.last + 1) {
      this.held.push(e);
      return this.repair();
    }
    this.last = e.seq;
    this.emit(e);
    if (e.type !== 'FightEnded') return;
    this.off?.();
    this.held = [];
    this.finish();
  }

  private repair(): void {
    this.repairing = true;
    this.read(this.last, this.page).then(
      (events) => {
        this.repairing = false;
        if (events.length >= this.page) {
          // A full page: more may follow. Live events stay held until the read reaches the end.
          for (const e of events) this.deliver(e);
          if (this.closed || this.finished || this.repairing) return;
          this.repairing = true;
          if (this.ready.length > 0) this.pageHeld = true;
          else this.nextPage();
          return;
        }
        const held = this.held;
        this.held = [];
        for (const e of [...events, ...held.sort((a, b) => a.seq - b.seq)]) this.deliver(e);
      },
      (error: unknown) => this.fail(error),
    );
  }

  protected override fail(error: unknown): void {
    this.off?.();
    super.fail(error);
  }

  /**
   * The next page of the catch-up, after a turn of the loop (by then the observer has written the last
   * page out), and once an observer that is busy is not.
   */
  private nextPage(): void {
    setImmediate(() => {
      if (this.closed || this.finished) return;
      const busy = this.observerBusy();
      if (busy) void busy.then(() => void (this.closed || this.repair()));
      else this.repair();
    });
  }

  protected take(): FightEvent | undefined {
    const e = this.ready.shift();
    if (this.pageHeld && this.ready.length === 0) {
      this.pageHeld = false;
      this.nextPage();
    }
    return e;
  }

  protected hold(e: FightEvent): void {
    this.ready.push(e);
  }

  protected release(): void {
    this.off?.();
    this.ready = [];
  }
}
