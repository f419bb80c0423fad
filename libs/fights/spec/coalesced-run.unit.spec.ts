import { CoalescedRun } from '../src/coalesced-run';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('CoalescedRun', () => {
  it('runs one pass at a time; kicks during a pass ask for exactly one more', async () => {
    const gates: Array<() => void> = [];
    let passes = 0;
    const run = new CoalescedRun(
      () => new Promise<void>((r) => (passes++, gates.push(r))),
      (e) => {
        throw e;
      },
    );
    run.kick();
    run.kick();
    run.kick();
    await tick();
    expect(passes).toBe(1);
    gates.shift()!();
    await tick();
    expect(passes).toBe(2);
    gates.shift()!();
    await tick();
    expect(passes).toBe(2);
    expect(run.busy).toBe(false);
  });

  it('close waits for the pass in hand and runs none after it', async () => {
    let release!: () => void;
    let finished = false;
    let passes = 0;
    const run = new CoalescedRun(
      async () => {
        passes++;
        await new Promise<void>((r) => (release = r));
        finished = true;
      },
      (e) => {
        throw e;
      },
    );
    run.kick();
    run.kick();
    await tick();
    let closed = false;
    const closing = run.close().then(() => (closed = true));
    await tick();
    expect(closed).toBe(false);
    release();
    await closing;
    expect({ finished, passes }).toEqual({ finished: true, passes: 1 });
    run.kick();
    await tick();
    expect(passes).toBe(1);
  });

  it('close resolves at once when idle', async () => {
    const run = new CoalescedRun(
      async () => undefined,
      () => undefined,
    );
    await expect(run.close()).resolves.toBeUndefined();
  });
});
