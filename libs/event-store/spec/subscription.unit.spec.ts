import { CommitNotifier } from '../src/notifier';
import type { StoredEvent, SubscriptionInterest } from '../src/port';
import { subscribeToLog, type LogPage, type LogSelection } from '../src/subscription';

const event = (n: number, stream = 'other'): StoredEvent => ({
  id: `e${n}`,
  stream,
  revision: 0n,
  type: 'T',
  data: {},
  metadata: {},
  checkpoint: `c${n}`,
  storedAt: new Date(0).toISOString(),
});

/** A log whose reads answer from a script, recording what each asked; each read waits until released. */
function scriptedLog(pages: LogPage[]) {
  const commits = new CommitNotifier();
  const reads: Array<{ after: string | undefined; streams?: string[] }> = [];
  const waiting: Array<() => void> = [];
  const readPage = async (after: string | undefined, _limit: number, selection?: LogSelection) => {
    reads.push({ after, ...(selection && { streams: [...selection.streams].sort() }) });
    await new Promise<void>((resolve) => waiting.push(resolve));
    return pages.shift() ?? { events: [], selected: !!selection };
  };
  const settle = () => new Promise((r) => setImmediate(r));
  return {
    commits,
    readPage,
    reads,
    /**
     * Lets the read in hand answer, then lets the subscription run on. A read may come on a timer (a
     * held-back retry): it is waited for as long as the machine takes, not for a count of short timers.
     */
    async answer(): Promise<void> {
      const deadline = Date.now() + 30_000;
      while (waiting.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
      const next = waiting.shift();
      if (!next) throw new Error(`no read came; reads so far: ${JSON.stringify(reads)}`);
      next();
      await settle();
    },
    /** Releases any read in hand (the subscription has been told to end). */
    release(): void {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

/** Runs the subscription, collecting what it delivers, until the controller aborts it. */
function follow(log: ReturnType<typeof scriptedLog>, interest: SubscriptionInterest) {
  const controller = new AbortController();
  const got: StoredEvent[] = [];
  const done = (async () => {
    for await (const e of subscribeToLog(log, { interest, signal: controller.signal })) got.push(e);
  })();
  /** Aborts it, lets a read in hand answer, and waits for it to end. */
  const end = async () => {
    controller.abort();
    log.release();
    await done;
  };
  return { got, end };
}

function interestIn(wanted: Set<string> | SubscriptionInterest['wants'], selective = () => true) {
  const passed: number[] = [];
  const interest: SubscriptionInterest = {
    prefix: 'fx-',
    selective,
    wants: wanted instanceof Set ? (stream) => wanted.has(stream) : wanted,
    always: () => [],
    passedOver: () => void passed.push(1),
  };
  return { interest, passed };
}

describe('subscribeToLog with a selective interest', () => {
  it('given reads that find nothing more, then each next read goes on from the head the one before read to', async () => {
    const log = scriptedLog([
      { events: [event(1)], selected: true, end: 'h1', passed: new Map() },
      { events: [], selected: true, end: 'h2', passed: new Map([['fx-b', 4n]]) },
      { events: [], selected: true, end: 'h3', passed: new Map() },
    ]);
    const { interest, passed } = interestIn(new Set());
    const { got, end } = follow(log, interest);
    await log.answer();
    log.commits.notify(new Map([['other', 0n]]));
    await log.answer();
    log.commits.notify(new Map([['other', 1n]]));
    await log.answer();
    log.commits.notify(new Map([['other', 2n]]));
    await log.answer();
    await end();
    expect(log.reads.map((r) => r.after)).toEqual([undefined, 'h1', 'h2', 'h3']);
    expect(got.map((e) => e.id)).toEqual(['e1']);
    // Before e1 (a selected read), and going on past fx-b; not past reads that passed over nothing.
    expect(passed).toHaveLength(2);
  });

  it('given a read that passed over a stream it wants before any wake-up named it, then it delivers nothing of that read and reads again from the same place with the stream selected', async () => {
    const log = scriptedLog([
      { events: [], selected: true, end: 'h0', passed: new Map() },
      {
        events: [event(3)],
        selected: true,
        end: 'h3',
        passed: new Map([
          ['fx-a', 0n],
          ['fx-b', 1n],
        ]),
      },
      { events: [event(2, 'fx-a'), event(3)], selected: true, end: 'h3', passed: new Map([['fx-b', 1n]]) },
      { events: [], selected: true, end: 'h4', passed: new Map() },
    ]);
    const { interest } = interestIn(new Set(['fx-a']));
    const { got, end } = follow(log, interest);
    await log.answer();
    // The wake-up of `other`'s commit comes; fx-a's, committed before it, has not come yet.
    log.commits.notify(new Map([['other', 0n]]));
    await log.answer();
    await log.answer();
    log.commits.notify(new Map([['other', 1n]]));
    await log.answer();
    await end();
    expect(log.reads).toEqual([
      { after: undefined, streams: [] },
      { after: 'h0', streams: [] },
      { after: 'h0', streams: ['fx-a'] },
      // A stream it was told of by a read is selected until a read that could see it brought everything.
      { after: 'h3', streams: [] },
    ]);
    expect(got.map((e) => e.id)).toEqual(['e2', 'e3']);
  });

  it('given a read that passed over only streams it does not want at that revision, then it goes on without reading again', async () => {
    const log = scriptedLog([
      { events: [event(1)], selected: true, end: 'h1', passed: new Map([['fx-a', 2n]]) },
      { events: [], selected: true, end: 'h2', passed: new Map() },
    ]);
    // Held at revision 2 already (its own commit, say): wanted only past it.
    const { interest, passed } = interestIn(
      (stream, revision) => stream === 'fx-a' && (revision === undefined || revision > 2n),
    );
    const { got, end } = follow(log, interest);
    await log.answer();
    log.commits.notify(new Map([['other', 0n]]));
    await log.answer();
    await end();
    expect(log.reads).toEqual([
      { after: undefined, streams: [] },
      { after: 'h1', streams: [] },
    ]);
    expect(got.map((e) => e.id)).toEqual(['e1']);
    // Before e1, and going on past fx-a's revision 2.
    expect(passed).toHaveLength(2);
  });

  it('given wake-ups that name only streams it does not want, then it does not read', async () => {
    const log = scriptedLog([{ events: [], selected: true }]);
    const { interest } = interestIn(new Set(['fx-a']));
    const { end } = follow(log, interest);
    await log.answer();
    log.commits.notify(new Map([['fx-b', 3n]]));
    log.commits.notify(new Map([['fx-c', 0n]]));
    await new Promise((r) => setTimeout(r, 20));
    expect(log.reads).toHaveLength(1);
    // A wake-up that does not say what it wrote is read.
    log.commits.notify();
    await log.answer();
    expect(log.reads).toHaveLength(2);
    await end();
  });

  it('given a held-back read, then the streams a wake-up named stay selected until a read sees past the hold', async () => {
    const log = scriptedLog([
      { events: [], selected: true, end: 'h0' },
      { events: [], selected: true, heldBack: true },
      { events: [event(2, 'fx-a')], selected: true, end: 'h2' },
    ]);
    const { interest, passed } = interestIn(new Set(['fx-a']));
    const { end } = follow(log, interest);
    await log.answer();
    log.commits.notify(new Map([['fx-a', 0n]]));
    await log.answer();
    // The held-back retry wakes it on its own.
    await log.answer();
    log.commits.notify();
    await log.answer();
    await end();
    expect(log.reads.map((r) => r.streams)).toEqual([[], ['fx-a'], ['fx-a'], []]);
    expect(passed.length).toBeGreaterThan(0);
  });

  it('given an interest that is not selective now, then it reads everything', async () => {
    const log = scriptedLog([{ events: [event(1, 'fx-z')] }]);
    const { interest, passed } = interestIn(new Set(), () => false);
    const { got, end } = follow(log, interest);
    await log.answer();
    log.commits.notify(new Map([['fx-z', 1n]]));
    await log.answer();
    await end();
    expect(log.reads).toEqual([{ after: undefined }, { after: 'c1' }]);
    expect(got.map((e) => e.id)).toEqual(['e1']);
    expect(passed).toEqual([]);
  });
});
