import { Body, Controller, HttpCode, Post } from '@nestjs/common';

const CONSTANT = { ok: true, seq: 1 };

/** The service's diagnostic Fastify route (server-process.ts): the app's hooks, without Nest's route pipeline. */
export const RAW_ROUTE = '/bench/raw-constant';

/**
 * The HTTP benchmark's baseline: a route on the same Nest app and adapter (same body parser, global
 * guards, pipe and filter: the tenant key is checked as on every route) that returns a constant.
 */
@Controller('bench')
export class BaselineController {
  @Post('constant')
  @HttpCode(200)
  constant(@Body() _body: unknown): Record<string, unknown> {
    return CONSTANT;
  }
}
