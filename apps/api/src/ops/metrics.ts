import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { FightService, ProjectionRunner } from '@app/fights';

/** Prometheus metrics (issue "Production"); one registry per app so tests and instances don't share state. */
export class Metrics {
  readonly registry = new Registry();
  readonly commandSeconds = new Histogram({
    name: 'crs_command_duration_seconds',
    help: 'Command latency, from receipt to appended events, by system, command type and outcome',
    labelNames: ['system', 'type', 'outcome'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly eventsAppended = new Counter({ name: 'crs_events_appended_total', help: 'Fight events appended by this instance', labelNames: ['system'], registers: [this.registry] });

  constructor(fights: FightService, runner: ProjectionRunner) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'crs_open_subscriptions',
      help: 'Open live subscriptions (GraphQL and SSE) on this instance',
      registers: [this.registry],
      collect() {
        this.set(fights.feed.subscribers);
      },
    });
    new Gauge({
      name: 'crs_projection_lag_events',
      help: 'Events in the global log not yet folded, by projection (capped at 10,000)',
      labelNames: ['projection'],
      registers: [this.registry],
      async collect() {
        for (const s of await runner.status()) this.set({ projection: s.name }, s.lagEvents);
      },
    });
    fights.onCommandDone.add(({ system, type, seconds, outcome, events }) => {
      this.commandSeconds.observe({ system, type, outcome }, seconds);
      if (events > 0) this.eventsAppended.inc({ system }, events);
    });
  }
}
