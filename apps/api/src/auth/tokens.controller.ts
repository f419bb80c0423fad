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
import { Field, InputType } from '@nestjs/graphql';
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

@InputType('IssueFightTokenInput', { description: 'A player or spectator token to issue' })
export class IssueTokenDto {
  @ApiProperty({ enum: ['player', 'spectator'] })
  @Field(() => String, {
    description: 'player (acts for combatantIds) or spectator (reads only, names no combatant)',
  })
  @IsIn(['player', 'spectator'])
  role: 'player' | 'spectator';
  @ApiPropertyOptional({
    type: [String],
    // Each once: a repeat is refused by the handler (refuseRepeat).
    uniqueItems: true,
    description: 'Player tokens: the combatants this player acts for, each once',
  })
  @Field(() => [String], {
    nullable: true,
    description:
      'Player tokens: the combatants this player acts for, each once (at most 50); none for a spectator token',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  combatantIds?: string[];
  @ApiPropertyOptional({ example: '2026-12-31T23:00:00Z' })
  @Field(() => String, {
    nullable: true,
    description: 'When the token stops working, ISO 8601, in the future; absent: never',
  })
  @Optional()
  @IsDateTime()
  expiresAt?: string;
  @ApiPropertyOptional({ example: 'Alice (Mira)' })
  @Field(() => String, {
    nullable: true,
    description: 'Free text for the GM, 1 to 100 characters; absent: the role',
  })
  @Optional()
  @IsString()
  @Length(1, 100)
  label?: string;
}

/**
 * C3: the GM issues a token for `fightId`: a player's bound to combatants the fight has, each named once (422
 * naming the entry otherwise), or a read-only spectator's. REST's route and GraphQL's mutation alike.
 */
export async function issueFightToken(
  access: AccessService,
  fights: FightService,
  p: Principal,
  fightId: string,
  body: IssueTokenDto,
): Promise<TokenIssuedModel> {
  access.assertGm(p, fightId);
  const { view } = await fights.view(fightId);
  const known = new Set(((view.combatants as Array<{ id: string }>) ?? []).map((c) => c.id));
  body.combatantIds?.forEach((c, i, ids) => {
    refuseRepeat(ids, i, 'combatantIds');
    if (!known.has(c))
      throw new AppError(422, 'COMBATANT_NOT_FOUND', `no combatant ${c} in this fight`, `combatantIds[${i}]`);
  });
  const token = await access.issueToken(fightId, body);
  return {
    tokenId: token.id,
    token: token.secret,
    role: body.role,
    combatantIds: body.combatantIds ?? [],
    expiresAt: body.expiresAt ?? null,
  };
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
    return issueFightToken(this.access, this.fights, p, id, body);
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
