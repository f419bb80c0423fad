import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** Whether the process's foreground work (commands) needs the thread the dispatcher shares with it. */
export interface Foreground {
  busy(): boolean;
}

export interface ForegroundGaugeOptions {
  /** How long after the last command the foreground counts as active. */
  activeMs?: number;
  /** Event-loop utilisation (0–1) over the last window above which the thread counts as saturated. */
  saturated?: number;
  /** The window over which utilisation is measured. */
  windowMs?: number;
  clock?: () => number;
  /** Utilisation since a previous reading (perf_hooks' eventLoopUtilization, replaceable in tests). */
  utilization?: (since?: EventLoopUtilization) => EventLoopUtilization;
}

/**
 * Commands and webhook deliveries share one JavaScript thread. When commands are coming in and the
 * thread is saturated, the dispatcher sends fewer at once (its busy concurrency), so a large
 * backlog draining does not queue every command behind it; with no commands, or a thread with
 * time to spare (slow receivers), it sends at full concurrency. `noteCommand` is called per commit.
 */
export class ForegroundGauge implements Foreground {
  private readonly activeMs: number;
  private readonly saturated: number;
  private readonly windowMs: number;
  private readonly clock: () => number;
  private readonly utilization: (since?: EventLoopUtilization) => EventLoopUtilization;
  private lastCommand = Number.NEGATIVE_INFINITY;
  private windowStart: { at: number; elu: EventLoopUtilization } | undefined;
  private lastUtilization = 0;

  constructor(options: ForegroundGaugeOptions = {}) {
    this.activeMs = options.activeMs ?? 250;
    this.saturated = options.saturated ?? 0.7;
    this.windowMs = options.windowMs ?? 50;
    this.clock = options.clock ?? (() => performance.now());
    this.utilization = options.utilization ?? ((since) => performance.eventLoopUtilization(since));
  }

  noteCommand(): void {
    this.lastCommand = this.clock();
  }

  busy(): boolean {
    const now = this.clock();
    // Measured on every call, so the window is current when the first command comes.
    const utilization = this.loopUtilization(now);
    return now - this.lastCommand <= this.activeMs && utilization > this.saturated;
  }

  /** Utilisation over the last full window (re-measured once a window has passed). */
  private loopUtilization(now: number): number {
    if (!this.windowStart) {
      this.windowStart = { at: now, elu: this.utilization() };
      return this.lastUtilization;
    }
    if (now - this.windowStart.at >= this.windowMs) {
      const elu = this.utilization();
      this.lastUtilization = this.utilization(this.windowStart.elu).utilization;
      this.windowStart = { at: now, elu };
    }
    return this.lastUtilization;
  }
}
