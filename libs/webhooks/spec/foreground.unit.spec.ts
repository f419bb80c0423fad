import type { EventLoopUtilization } from 'node:perf_hooks';
import { ForegroundGauge } from '../src/foreground';

/** A thread whose utilisation the test sets per window: readings are cumulative, as perf_hooks' are. */
function fakeLoop() {
  let active = 0;
  let idle = 0;
  const reading = (): EventLoopUtilization => ({ active, idle, utilization: active / (active + idle || 1) });
  return {
    spend(ms: number, utilization: number) {
      active += ms * utilization;
      idle += ms * (1 - utilization);
    },
    utilization: (since?: EventLoopUtilization): EventLoopUtilization => {
      const now = reading();
      if (!since) return now;
      const a = now.active - since.active;
      const i = now.idle - since.idle;
      return { active: a, idle: i, utilization: a / (a + i || 1) };
    },
  };
}

describe('ForegroundGauge: commands have the thread first', () => {
  const setUp = () => {
    let now = 0;
    const loop = fakeLoop();
    const gauge = new ForegroundGauge({
      clock: () => now,
      utilization: loop.utilization,
      activeMs: 250,
      windowMs: 50,
      saturated: 0.7,
    });
    const advance = (ms: number, utilization: number) => {
      loop.spend(ms, utilization);
      now += ms;
    };
    return { gauge, advance };
  };

  it('given a saturated thread and a command just now, it is busy; given no command for a while, it is not', () => {
    const { gauge, advance } = setUp();
    gauge.busy();
    advance(60, 0.95);
    expect(gauge.busy()).toBe(false); // no command yet: the drain has the thread to itself
    gauge.noteCommand();
    expect(gauge.busy()).toBe(true);
    advance(100, 0.95);
    expect(gauge.busy()).toBe(true);
    advance(200, 0.95);
    expect(gauge.busy()).toBe(false); // 300 ms since the last command
  });

  it('given commands on a thread with time to spare (slow receivers), it is not busy', () => {
    const { gauge, advance } = setUp();
    gauge.busy();
    for (let i = 0; i < 5; i++) {
      gauge.noteCommand();
      advance(60, 0.3);
      expect(gauge.busy()).toBe(false);
    }
    advance(60, 0.9);
    gauge.noteCommand();
    expect(gauge.busy()).toBe(true);
  });
});
