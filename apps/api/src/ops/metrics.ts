import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FightService, ProjectionRunner } from '@app/fights';
import { SYSTEMS } from '@app/rules';

/** A label value outside its known set: every label of every metric takes its values from a fixed set. */
export const UNKNOWN = 'unknown';

/** Command types each system declares (its contract, its list, UndoCommands): a client's typo is not a new series. */
const COMMAND_TYPES: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries(SYSTEMS).map(([id, system]) => [
    id,
    new Set([...Object.keys(system.contract.commands), ...Object.keys(system.commands), 'UndoCommands']),
  ]),
);
/** A command to a fight that was not found has no system: its type counts if some system declares it. */
const ANY_COMMAND_TYPE: ReadonlySet<string> = new Set(
  [...COMMAND_TYPES.values()].flatMap((types) => [...types]),
);

export function commandLabels(system: string, type: string): { system: string; type: string } {
  const types = COMMAND_TYPES.get(system);
  return { system: types ? system : UNKNOWN, type: (types ?? ANY_COMMAND_TYPE).has(type) ? type : UNKNOWN };
}

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Plugins mount these with routes of their own (Swagger UI's files): counted under the mount. */
const MOUNTS = ['/graphql', '/docs'];

/** The route pattern (`/fights/:id/commands`), never the raw URL; `unmatched` for a 404 without a route. */
export function httpLabels(
  req: { method: string; routeOptions?: { url?: string } },
  status: number,
): { method: string; route: string; status: string } {
  // Nest answers an unknown path from Fastify's not-found handler, which has no route url.
  const pattern = req.routeOptions?.url;
  const route =
    typeof pattern === 'string' && pattern !== ''
      ? (MOUNTS.find((m) => pattern === m || pattern.startsWith(`${m}/`)) ?? pattern)
      : 'unmatched';
  return {
    method: METHODS.has(req.method) ? req.method : 'OTHER',
    route,
    status: status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : UNKNOWN,
  };
}

/** Prometheus metrics (README "Operations"); one registry per app so tests and instances don't share state. */
export class Metrics {
  readonly registry = new Registry();
  readonly commandSeconds = new Histogram({
    name: 'crs_command_duration_seconds',
    help: 'Command latency, from receipt to appended events, by system, command type (unknown: one the system does not declare) and outcome',
    labelNames: ['system', 'type', 'outcome'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly eventsAppended = new Counter({
    name: 'crs_events_appended_total',
    help: 'Fight events appended by this instance',
    labelNames: ['system'],
    registers: [this.registry],
  });
  /**
   * Requests answered since the counter was last read, by method, route pattern and status: added to
   * it when it is read (a scrape), so a request costs a map lookup, not prom-client's label hashing.
   */
  private readonly answered = new Map<string, { labels: ReturnType<typeof httpLabels>; count: number }>();
  readonly httpRequests: Counter = new Counter({
    name: 'crs_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern (unmatched: no route) and status class',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
    collect: () => {
      for (const a of this.answered.values())
        if (a.count > 0) {
          this.httpRequests.inc(a.labels, a.count);
          a.count = 0;
        }
    },
  });

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
    new Gauge({
      name: 'crs_read_side_owner',
      help: 'Whether this instance runs the read side (projections, webhook outbox): 1 owner, 0 follower',
      registers: [this.registry],
      collect() {
        this.set(runner.owner.owned ? 1 : 0);
      },
    });
    fights.onCommandDone.add(({ system, type, seconds, outcome, events }) => {
      const labels = commandLabels(system, type);
      this.commandSeconds.observe({ ...labels, outcome }, seconds);
      if (events > 0) this.eventsAppended.inc({ system: labels.system }, events);
    });
  }

  /** Fastify `onResponse` hook: counts each answered request once it has finished, by its route pattern. */
  readonly countRequests = (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    // Node's parser knows a fixed list of methods, the routes are the app's, a status three digits: few keys.
    const key = `${req.method} ${reply.statusCode} ${req.routeOptions?.url ?? ''}`;
    const seen = this.answered.get(key);
    if (seen) seen.count++;
    else this.answered.set(key, { labels: httpLabels(req, reply.statusCode), count: 1 });
    done();
  };
}
