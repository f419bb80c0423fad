import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AccessService, FightService, Principal } from '@app/fights';
import { onCredentialEnd } from '../auth/credential-end';
import { LiveConnections } from '../ops/live-connections';
import type { ApiError } from '../common/api-error';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { EventsQuery } from '../common/dto';
import { ErrorModel } from '../common/models';
import { AppError } from '@app/fights';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export class StreamQuery extends EventsQuery {
  @ApiPropertyOptional({
    enum: ['named', 'unnamed'],
    default: 'named',
    description:
      'named: each message has `event: <type>` (addEventListener(type)); unnamed: no event name, so a plain EventSource.onmessage gets every event (the type is in the data).',
  })
  @IsOptional()
  @IsIn(['named', 'unnamed'])
  messages?: 'named' | 'unnamed';
}

const KEEPALIVE_MS = 15_000;
/** The last message of a stream the server ends because it shuts down; `retry:` was sent first, so EventSource comes back by itself. */
const SHUTDOWN =
  'event: shutdown\ndata: {"code":"SERVER_SHUTTING_DOWN","message":"the server is shutting down; reconnect with Last-Event-ID"}\n\n';

@ApiTags('fights')
@Controller('fights')
export class StreamController {
  constructor(
    private readonly fights: FightService,
    private readonly access: AccessService,
    private readonly live: LiveConnections,
  ) {}

  @Get(':id/stream')
  @ApiOperation({
    summary:
      'Server-Sent Events: every event after Last-Event-ID (or ?after=), then live. Each message: id = seq, event = type (none with ?messages=unnamed, for EventSource.onmessage), data = the event JSON.',
  })
  @ApiProduces('text/event-stream')
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The last seq received; the stream resumes after it.',
  })
  @ApiOkResponse({ description: 'An endless text/event-stream' })
  @ApiResponse({ status: 404, type: ErrorModel })
  async stream(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Query() q: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    let after = q.after ?? 0;
    if (lastEventId !== undefined) {
      if (!/^\d{1,15}$/.test(lastEventId))
        throw new AppError(400, 'VALIDATION_FAILED', 'Last-Event-ID must be a seq', 'Last-Event-ID');
      after = Number(lastEventId);
    }
    this.access.assertRead(p, id);
    const events = await this.fights.watch(id, after);
    // Revoked or expired: the stream ends with an `error` event in the error shape (TOKEN_EXPIRED,
    // CREDENTIALS_REVOKED); a client that reconnects with the same token then gets a 401.
    let ended: ApiError | undefined;
    const off = onCredentialEnd(this.access.registry, p, (why) => {
      ended = why;
      void events.return();
    });
    res.status(200).set({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    res.write('retry: 2000\n\n');
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    let shutdown = false;
    const untrack = this.live.trackSse(res, () => {
      shutdown = true;
      void events.return();
    });
    res.on('close', () => {
      off();
      untrack();
      clearInterval(keepalive);
      void events.return();
    });
    try {
      const named = q.messages !== 'unnamed';
      for await (const e of events)
        res.write(
          named
            ? `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`
            : `id: ${e.seq}\ndata: ${JSON.stringify(e)}\n\n`,
        );
    } catch {
      res.write(
        'event: error\ndata: {"code":"STREAM_FAILED","message":"the event store could not be read; reconnect with Last-Event-ID"}\n\n',
      );
    } finally {
      off();
      untrack();
      clearInterval(keepalive);
      if (ended) res.write(`event: error\ndata: ${JSON.stringify(ended)}\n\n`);
      else if (shutdown) res.write(SHUTDOWN);
      res.end();
    }
  }
}
