import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply as Response, FastifyRequest as Request } from 'fastify';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { TokenIssuedModel, TokenModel } from './access.models';
import { ArrayMaxSize, IsArray, IsIn, IsString, Length } from 'class-validator';
import { AccessService, AppError, FightService, Principal } from '@app/fights';
import { ErrorModel } from '../common/models';
import { CurrentPrincipal } from './principal.decorator';
import { Location, seg } from '../common/location';
import { SmallPageQuery, TokenQuery } from '../common/dto';
import { linkNext, smallPage } from '../common/pagination';
import { checkPreconditions, Preconditioned } from '../common/preconditions';
import { Optional, refuseRepeat } from '../common/validation';
import { IsDateTime } from '../common/date-time';

export class IssueTokenDto {
  @ApiProperty({ enum: ['player', 'spectator'] }) @IsIn(['player', 'spectator']) role: 'player' | 'spectator';
  @ApiPropertyOptional({
    type: [String],
    // Each once: a repeat is refused by the handler (refuseRepeat).
    uniqueItems: true,
    description: 'Player tokens: the combatants this player acts for, each once',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  combatantIds?: string[];
  @ApiPropertyOptional({ example: '2026-12-31T23:00:00Z' }) @Optional() @IsDateTime() expiresAt?: string;
  @ApiPropertyOptional({ example: 'Alice (Mira)' }) @Optional() @IsString() @Length(1, 100) label?: string;
}

/** C3: the GM issues player tokens (bound to combatants) and read-only spectator tokens. */
@ApiTags('fights')
@ApiBearerAuth()
@ApiResponse({ status: 403, type: ErrorModel })
@ApiResponse({ status: 404, type: ErrorModel })
@Controller('fights/:id/tokens')
export class TokensController {
  constructor(
    private readonly access: AccessService,
    private readonly fights: FightService,
  ) {}

  @Post()
  @Location((r: { tokenId: string }, req) => `/fights/${seg(req.params.id)}/tokens/${seg(r.tokenId)}`)
  @ApiOperation({ summary: 'Issue a player or spectator token (shown only in this response)' })
  @ApiCreatedResponse({ type: TokenIssuedModel })
  async issue(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: IssueTokenDto) {
    this.access.assertGm(p, id);
    const { view } = await this.fights.view(id);
    const known = new Set(((view.combatants as Array<{ id: string }>) ?? []).map((c) => c.id));
    body.combatantIds?.forEach((c, i, ids) => {
      refuseRepeat(ids, i, 'combatantIds');
      if (!known.has(c))
        throw new AppError(
          422,
          'COMBATANT_NOT_FOUND',
          `no combatant ${c} in this fight`,
          `combatantIds[${i}]`,
        );
    });
    const token = await this.access.issueToken(id, body);
    return {
      tokenId: token.id,
      token: token.secret,
      role: body.role,
      combatantIds: body.combatantIds ?? [],
      expiresAt: body.expiresAt ?? null,
    };
  }

  @Get()
  @ApiOperation({
    summary:
      'The fight’s tokens (never the secrets), oldest first, 1000 a page unless ?limit= says; the next page is in Link rel="next" and X-Next-Cursor',
  })
  @ApiOkResponse({ type: [TokenModel] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Query() q: SmallPageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    this.access.assertGm(p, id);
    const { items, next } = smallPage('tokens', await this.access.listTokens(id), (t) => t.tokenId, q, id);
    linkNext(req, res, next);
    return items;
  }

  @Get(':tokenId')
  @ApiOperation({ summary: 'One token, never its secret (where an issued token’s Location points)' })
  @ApiOkResponse({ type: TokenModel })
  async token(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Param('tokenId') tokenId: string,
    @Query() _query: TokenQuery,
  ) {
    this.access.assertGm(p, id);
    return this.access.token(id, tokenId);
  }

  @Delete(':tokenId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Revoke a token: it stops working at once, also on open subscriptions and streams',
  })
  @ApiNoContentResponse({ description: 'Revoked (or already revoked)' })
  @Preconditioned()
  async revoke(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Param('tokenId') tokenId: string,
    @Req() req: Request,
  ): Promise<void> {
    this.access.assertGm(p, id);
    await checkPreconditions(req.headers, async () => this.access.token(id, tokenId));
    await this.access.revokeToken(id, tokenId);
  }
}
