import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply as Response, FastifyRequest as Request } from 'fastify';
import Negotiator from 'negotiator';
import { LOG_TYPES, sendFightLog } from './streamed-log';
import {
  ApiBearerAuth,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { AccessService, actorName, AppError, FightQueries, FightService, Principal } from '@app/fights';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { viewAtHeld } from '../common/view-at';
import { RequestId } from '../ops/request-id.decorator';
import { requireTenant } from '../auth/roles';
import { parseCommandBody } from '../common/command-body';
import {
  CombatantsQuery,
  CreateFightInput,
  EVENTS_PAGE,
  EventsPageQuery,
  FightQueryDto,
  ListFightsQuery,
  LogQuery,
} from '../common/dto';
import { eventsPage, fightsPage, linkNext, READ_MODEL_STALE } from '../common/pagination';
import {
  CombatantSummaryModel,
  CommandResultModel,
  ErrorModel,
  FightEventModel,
  FightModel,
  FightPageModel,
} from '../common/models';
import { Location, seg } from '../common/location';
import {
  fightTagOf,
  preconditionFailed,
  refuseNoneMatch,
  seenSeq,
  withFightETag,
} from '../common/fight-etag';

@ApiTags('fights')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorModel, description: 'UNAUTHENTICATED or INVALID_CREDENTIALS' })
@Controller('fights')
export class FightsController {
  constructor(
    private readonly fights: FightService,
    private readonly queries: FightQueries,
    private readonly access: AccessService,
  ) {}

  @Post()
  @Location((r: CommandResultModel) => `/fights/${seg(r.fightId)}`)
  @ApiOperation({ summary: 'Create a fight: system, dice mode, combatant sheets' })
  @ApiResponse({ status: 201, type: CommandResultModel })
  @ApiResponse({ status: 422, type: ErrorModel, description: 'A sheet or setting breaks the rules' })
  async create(
    @CurrentPrincipal() p: Principal,
    @RequestId() requestId: string | undefined,
    @Body() input: CreateFightInput,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CommandResultModel> {
    requireTenant(p);
    return withFightETag(
      res,
      await this.fights.create(
        input,
        { name: actorName(p), scope: 'all', tenantId: p.tenantId, requestId },
        (fightId) => this.access.ownFight(fightId, p),
      ),
    );
  }

  @Get()
  @ApiOperation({
    summary:
      'List fights, newest first; the next page is in Link rel="next", X-Next-Cursor and nextCursor. Pages are keyset pages: nothing is counted unless ?total=true asks, and then once per listing. The list holds every write committed before the request (it waits up to 2 s for the read side; X-Read-Model-Stale: true when it was still behind)',
  })
  @ApiOkResponse({ type: FightPageModel })
  async list(
    @CurrentPrincipal() p: Principal,
    @Query() q: ListFightsQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FightPageModel> {
    const { next, stale, ...page } = await fightsPage(this.queries, p, q, { total: q.total });
    if (stale) void res.header(READ_MODEL_STALE, 'true');
    const nextCursor = linkNext(req, res, next);
    return { ...page, ...(nextCursor ? { nextCursor } : {}) };
  }

  @Get(':id')
  @ApiOperation({
    summary: 'The fight view, from the fight-views projection (use ?minSeq= to read past your own write)',
  })
  @ApiOkResponse({ type: FightModel })
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description:
      'An ETag of this fight (from a GET, a command or the creation): 304 while the fight is still in that state. The answer is never older than the state it names, even before the read side has caught up with it.',
  })
  @ApiResponse({ status: 304, description: 'Not Modified: If-None-Match names the state the fight is in' })
  @ApiResponse({ status: 404, type: ErrorModel })
  @ApiResponse({
    status: 422,
    type: ErrorModel,
    description: 'SEQ_OUT_OF_RANGE: ?at= or ?minSeq= is past the fight’s last seq (field at or minSeq)',
  })
  async get(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Query() q: FightQueryDto,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FightModel> {
    this.access.assertRead(p, id);
    return withFightETag(
      res,
      q.at === undefined
        ? await this.queries.fight(id, q.minSeq ?? 0, seenSeq(ifNoneMatch))
        : await viewAtHeld(this.fights, id, { at: q.at, minSeq: q.minSeq }),
    );
  }

  @Get(':id/log')
  @ApiOperation({
    summary:
      'Export the whole fight for offline verification: setup, every command with actor and commandId, every event, the dice commitment and (once revealed) the seed',
  })
  @ApiProduces('application/json', 'application/x-ndjson')
  @ApiOkResponse({ description: 'The fight log (format combat-rules-fight-log/1)' })
  @ApiResponse({ status: 404, type: ErrorModel })
  async log(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Query() q: LogQuery,
    @Headers('accept') accept: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    this.access.assertRead(p, id);
    const log = await this.fights.exportLog(id);
    // Without ?format= the Accept header chooses, by its q-values; JSON unless NDJSON is preferred.
    if (q.format === undefined) void res.header('vary', 'Accept');
    // Offered as they are sent, with their charset, so an Accept that names it (`; charset=utf-8`) matches.
    const ndjson =
      q.format === 'ndjson' ||
      (q.format === undefined &&
        new Negotiator({ headers: { accept } }).mediaType([LOG_TYPES.json, LOG_TYPES.ndjson]) ===
          LOG_TYPES.ndjson);
    await sendFightLog(res, log, ndjson);
  }

  @Get(':id/combatants')
  @ApiOperation({
    summary:
      'Per-combatant summaries: the combatant entries of the fight view GET /fights/:id answers, in order (use ?minSeq= to read past your own write)',
  })
  @ApiOkResponse({ type: [CombatantSummaryModel] })
  @ApiResponse({ status: 404, type: ErrorModel })
  @ApiResponse({
    status: 422,
    type: ErrorModel,
    description: 'SEQ_OUT_OF_RANGE: ?minSeq= is past the fight’s last seq (field minSeq)',
  })
  combatants(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Query() q: CombatantsQuery,
  ): Promise<CombatantSummaryModel[]> {
    this.access.assertRead(p, id);
    return this.queries.combatants(id, q.minSeq ?? 0);
  }

  @Get(':id/events')
  @ApiOperation({
    summary: `The fight’s ordered event log, ${EVENTS_PAGE} events a page unless ?limit= says; the next page is in Link rel="next" and X-Next-Cursor`,
  })
  @ApiOkResponse({ type: [FightEventModel] })
  @ApiResponse({ status: 404, type: ErrorModel })
  async events(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Query() q: EventsPageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FightEventModel[]> {
    this.access.assertRead(p, id);
    const { items, next } = await eventsPage(this.fights, id, q);
    linkNext(req, res, next);
    return items;
  }

  @Post(':id/commands')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a command: { type, commandId?, expectedSeq?, ...its fields }' })
  // The body is the Command union, typed per system in publishContract (common/openapi-contract.ts).
  @ApiOkResponse({ type: CommandResultModel })
  @ApiResponse({ status: 404, type: ErrorModel })
  @ApiResponse({
    status: 409,
    type: ErrorModel,
    description: 'EXPECTED_SEQ_MISMATCH or CONCURRENCY_CONFLICT',
  })
  @ApiResponse({
    status: 412,
    type: ErrorModel,
    description:
      'PRECONDITION_FAILED: the fight is not in the state If-Match names (its ETag), or is in one If-None-Match names; nothing applied',
  })
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description:
      'The fight’s ETag (GET /fights/:id, a command’s or the creation’s answer): apply only in that state, else 412. Same as expectedSeq; a resend of a commandId still replays.',
  })
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description:
      'Fight ETags: apply only if the fight is in none of those states, else 412 (`*`: only where no fight exists, so always 412 here).',
  })
  @ApiResponse({ status: 422, type: ErrorModel, description: 'A rule forbids it; `code` names the rule' })
  async command(
    @CurrentPrincipal() p: Principal,
    @RequestId() requestId: string | undefined,
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CommandResultModel> {
    const scope = this.access.commandScope(p, id);
    const actor = { name: actorName(p), scope, requestId };
    const command = parseCommandBody(body);
    if (ifNoneMatch !== undefined) refuseNoneMatch(ifNoneMatch, await this.fights.view(id));
    const tag = fightTagOf(ifMatch);
    if (!tag) return withFightETag(res, await this.fights.execute(id, command, actor));
    // If-Match is expectedSeq in HTTP's words: checked where the command is admitted, after a replay of its commandId.
    if (command.expectedSeq !== undefined && command.expectedSeq !== tag.seq)
      throw new AppError(
        400,
        'VALIDATION_FAILED',
        'If-Match and expectedSeq name different states',
        'if-match',
      );
    const now = await this.fights.view(id);
    if (now.seq === tag.seq && now.view.headHash !== tag.hash)
      throw preconditionFailed('If-Match names no state of this fight');
    try {
      return withFightETag(res, await this.fights.execute(id, { ...command, expectedSeq: tag.seq }, actor));
    } catch (e) {
      if (e instanceof AppError && e.code === 'EXPECTED_SEQ_MISMATCH')
        throw preconditionFailed(`If-Match names seq ${tag.seq}; ${e.message.replace(/^.* but /, '')}`);
      throw e;
    }
  }
}
