import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ReplyStream } from '../common/http-reply';
import { AccessService, type FightEvent, FightService, Principal } from '@app/fights';
import { onCredentialEnd } from '../auth/credential-end';
import { LiveConnections } from '../ops/live-connections';
import type { ApiError } from '../common/api-error';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { EventsQuery } from '../common/dto';
import { ErrorModel } from '../common/models';
import { ValidationFailed } from '../common/validation';
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

/**
 * The seq the stream resumes after: Last-Event-ID when sent (it must be a seq), else ?after=, else 0. An empty
 * Last-Event-ID is none, as EventSource reads an empty id (WHATWG HTML, "Server-sent events": it then sends none).
 */
function resumeAfter(after: number | undefined, lastEventId: string | undefined): number {
  if (lastEventId === undefined || lastEventId === '') return after ?? 0;
  // As ?after= reads it: up to 2^53 - 1 (a seq past the fight's last is then 422 SEQ_OUT_OF_RANGE).
  if (!/^\d{1,16}$/.test(lastEventId) || !Number.isSafeInteger(Number(lastEventId)))
    throw new ValidationFailed([
      {
        field: 'Last-Event-ID',
        code: 'INVALID_FIELD',
        message: 'Last-Event-ID must be a seq: a whole number from 0, the id of the last message received',
      },
    ]);
  return Number(lastEventId);
}

/** Starts the event stream: its headers, sent at once (no proxy buffering), and the reconnection delay. */
function openEventStream(reply: FastifyReply): ReplyStream {
  void reply.status(200).headers({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const out = new ReplyStream(reply);
  void out.write('retry: 2000\n\n');
  return out;
}

/** One event as an SSE message: `id` the seq, `event` the type (none when unnamed), `data` the event. */
function eventMessage(e: FightEvent, named: boolean): string {
  return named
    ? `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`
    : `id: ${e.seq}\ndata: ${JSON.stringify(e)}\n\n`;
}

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
      'Server-Sent Events: every event after Last-Event-ID (or ?after=), then live, until FightEnded. Each message: id = seq, event = type (none with ?messages=unnamed, for EventSource.onmessage), data = the event JSON.',
  })
  @ApiProduces('text/event-stream')
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description:
      'The last seq received; the stream resumes after it (and ?after= is not read). Empty: none, as EventSource sends it. Anything but a seq is 400 VALIDATION_FAILED naming Last-Event-ID.',
  })
  @ApiOkResponse({
    description:
      'A text/event-stream: every event after the resume point, then each as it happens. It ends after FightEnded (nothing follows it); EventSource then reconnects and gets 204.',
  })
  @ApiResponse({
    status: 204,
    description:
      'The fight has ended and the resume point is its last event (FightEnded): nothing will follow. EventSource stops reconnecting on a 204.',
  })
  @ApiResponse({ status: 404, type: ErrorModel })
  @ApiResponse({
    status: 422,
    type: ErrorModel,
    description:
      'SEQ_OUT_OF_RANGE: ?after= or Last-Event-ID is past the fight’s last seq (field after or Last-Event-ID)',
  })
  async stream(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Query() q: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const after = resumeAfter(q.after, lastEventId);
    this.access.assertRead(p, id);
    // Past the fight's last seq, the seq is named as the client sent it (resumeAfter's choice).
    const events = await this.fights.watch(id, after, lastEventId ? 'Last-Event-ID' : 'after');
    // The fight has ended and the client has its last event (FightEnded): nothing will follow. 204 is what
    // tells EventSource not to reconnect (WHATWG HTML, "Server-sent events").
    if (events.over) {
      void events.return();
      return void reply.status(204).send();
    }
    // Revoked or expired: the stream ends with an `error` event in the error shape (TOKEN_EXPIRED,
    // CREDENTIALS_REVOKED); a client that reconnects with the same token then gets a 401.
    let ended: ApiError | undefined;
    const off = onCredentialEnd(this.access.registry, p, (why) => {
      ended = why;
      void events.return();
    });
    const out = openEventStream(reply);
    const res = reply.raw;
    const keepalive = setInterval(() => void out.write(': keepalive\n\n'), KEEPALIVE_MS);
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
      // Each message waits for the socket to take the one before: a client that reads slowly holds back
      // the stream's catch-up (one page held at most, live-stream.ts) instead of the whole history
      // piling up in this process.
      for await (const e of events) await out.write(eventMessage(e, named));
    } catch {
      void out.write(
        'event: error\ndata: {"code":"STREAM_FAILED","message":"the event store could not be read; reconnect with Last-Event-ID"}\n\n',
      );
    } finally {
      off();
      untrack();
      clearInterval(keepalive);
      if (ended) void out.write(`event: error\ndata: ${JSON.stringify(ended)}\n\n`);
      else if (shutdown) void out.write(SHUTDOWN);
      out.end();
    }
  }
}
