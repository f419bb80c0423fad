import { Controller, Get, Headers, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { FastifyReply as Response } from 'fastify';
import { EventStore } from '@app/event-store';
import { ProjectionRunner } from '@app/fights';
import { Public } from '../auth/public.decorator';
import { AppError } from '@app/fights';
import { ApiConfig } from '../config';
import { API_CONFIG, EVENT_STORE } from '../fights.module';
import { Metrics } from './metrics';
import { WriteHealth, WRITE_FAULT_HOLD_MS } from './write-health';
import { ErrorModel } from '../common/models';

/**
 * What Terminus answers for a check of no indicators, as a constant: liveness asks nothing of the
 * process but that it answers, and a probe every few seconds should not pay for a check run.
 */
const LIVE = Object.freeze({ status: 'ok', info: {}, error: {}, details: {} } as const);

/** One indicator's state in a health answer: up or down, with what it reported. */
const INDICATOR = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['up', 'down'] } },
  additionalProperties: true,
};
/** A Terminus health check answer (liveness and readiness alike). */
const HEALTH_SCHEMA = {
  type: 'object',
  required: ['status', 'details'],
  properties: {
    status: { type: 'string', enum: ['ok', 'error', 'shutting_down'] },
    info: {
      type: 'object',
      additionalProperties: INDICATOR,
      description: 'The indicators that are up, by name',
    },
    error: {
      type: 'object',
      additionalProperties: INDICATOR,
      description: 'The indicators that are down, by name',
    },
    details: { type: 'object', additionalProperties: INDICATOR, description: 'Every indicator, by name' },
  },
  additionalProperties: false,
};

/** Projections further behind than this make the instance not ready. */
export const READY_MAX_LAG = 1000;

@ApiTags('operations')
@Public()
@Controller()
export class OpsController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly runner: ProjectionRunner,
    private readonly metrics: Metrics,
    private readonly writes: WriteHealth,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  @Get('health/live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ description: 'The process answers: status ok, no indicators', schema: HEALTH_SCHEMA })
  live(): typeof LIVE {
    return LIVE;
  }

  @Get('health/ready')
  @ApiOperation({
    summary: `Readiness: the event store answers and takes writes, and every projection is within ${READY_MAX_LAG} events of the log (503 otherwise)`,
  })
  @ApiOkResponse({
    description:
      'Ready: eventStore, eventStoreWrites, projections (lag in events by projection) and readSide are up',
    schema: HEALTH_SCHEMA,
  })
  @ApiResponse({
    status: 503,
    description: `Not ready (status error): the event store does not answer; or it failed this instance's latest append with a fault of its own (eventStoreWrites down: fault full, read-only, busy, io or connection, since, failures), which holds until an append is stored or ${WRITE_FAULT_HOLD_MS / 1000} s pass without another failure; or a projection is too far behind`,
    schema: HEALTH_SCHEMA,
  })
  async ready(@Res() res: Response): Promise<void> {
    try {
      void res.send(
        await this.health.check([
          () =>
            this.indicators
              .check('eventStore')
              .attempt(async () => ({
                engine: this.store.engine,
                probe: (await this.store.readAll({ limit: 1 })).length,
              }))
              .withTimeout(3000),
          () => {
            const session = this.indicators.check('eventStoreWrites');
            const fault = this.writes.current();
            return fault
              ? session.down({
                  fault: fault.fault,
                  since: fault.since.toISOString(),
                  failures: fault.failures,
                })
              : session.up();
          },
          async () => {
            const lag = await this.runner.status();
            const behind = lag.filter((s) => s.lagEvents > READY_MAX_LAG);
            const session = this.indicators.check('projections');
            const data = Object.fromEntries(lag.map((s) => [s.name, s.lagEvents]));
            return behind.length ? session.down(data) : session.up(data);
          },
          // Informative, never down: an instance that does not own the read side serves all the same.
          () =>
            this.indicators.check('readSide').up({
              owner: this.runner.owner.owned,
              mode: this.runner.owner.mode,
            }),
        ]),
      );
    } catch (e) {
      if (!(e instanceof ServiceUnavailableException)) throw e;
      void res.status(503).send(e.getResponse());
    }
  }

  @Get('metrics')
  @ApiOperation({
    summary:
      'Prometheus metrics: command latency, events appended, HTTP requests, projection lag, open subscriptions, process. With METRICS_TOKEN set: Authorization: Bearer <METRICS_TOKEN>.',
  })
  @ApiOkResponse({
    description: 'The Prometheus text exposition format (version 0.0.4)',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @ApiResponse({
    status: 401,
    type: ErrorModel,
    description:
      'METRICS_TOKEN is set and the request has no Authorization: Bearer <METRICS_TOKEN> (UNAUTHENTICATED) or another one (INVALID_CREDENTIALS)',
  })
  async prometheus(
    @Headers('authorization') authorization: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    if (
      this.config.metricsToken &&
      !sameSecret(/^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1], this.config.metricsToken)
    ) {
      throw new AppError(
        401,
        authorization ? 'INVALID_CREDENTIALS' : 'UNAUTHENTICATED',
        'this instance protects /metrics: send Authorization: Bearer <METRICS_TOKEN>',
        'authorization',
      );
    }
    void res.type(this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}

/** Compares digests, so neither the time taken nor a length difference tells how much of a guess was right. */
function sameSecret(given: string | undefined, expected: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}
