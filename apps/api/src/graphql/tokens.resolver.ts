import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { AccessService, FightService, Principal } from '@app/fights';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { IssueTokenDto, issueFightToken } from '../auth/tokens.controller';
import { FightTokenPageModel, TokenIssuedModel, TokenModel } from '../auth/access.models';
import { SmallPageQuery } from '../common/dto';
import { encodeCursor, PAGES, smallPage } from '../common/pagination';
import { validArguments } from '../common/validation';
import { FIGHT_ID_ARG } from './args';

const TOKEN_ID_ARG = { type: () => ID, description: 'The token id, as issueFightToken gave it' };

/**
 * The fight-token routes of REST (tokens.controller.ts) as GraphQL operations, so a client that speaks only
 * GraphQL can invite players and spectators: the same service, the same GM-only rule, and the same checks
 * in the same order, so every refusal has REST's code and field.
 */
@Resolver()
export class TokensResolver {
  constructor(
    private readonly access: AccessService,
    private readonly fights: FightService,
  ) {}

  @Mutation(() => TokenIssuedModel, {
    description:
      'Issue a player or spectator token (the same as POST /fights/:id/tokens); its secret is shown only in this answer. The fight’s GM only.',
  })
  async issueFightToken(
    @CurrentPrincipal() p: Principal,
    @Args('fightId', FIGHT_ID_ARG) fightId: string,
    @Args('input', { description: 'The token: role, combatantIds (player tokens), expiresAt, label' })
    input: IssueTokenDto,
  ): Promise<TokenIssuedModel> {
    return issueFightToken(this.access, this.fights, p, fightId, input);
  }

  @Query(() => FightTokenPageModel, {
    description:
      'The fight’s tokens (never their secrets), oldest first, a page at a time: pass nextCursor back as cursor (the same cursor as REST’s X-Next-Cursor on GET /fights/:id/tokens). The fight’s GM only.',
  })
  async fightTokens(
    @CurrentPrincipal() p: Principal,
    @Args('fightId', FIGHT_ID_ARG) fightId: string,
    @Args('limit', {
      type: () => Int,
      nullable: true,
      description: `Tokens per page (1 to ${PAGES.small.max}; default ${PAGES.small.fallback})`,
    })
    limit?: number,
    @Args('cursor', { type: () => String, nullable: true, description: 'nextCursor of the page before' })
    cursor?: string,
  ): Promise<FightTokenPageModel> {
    // REST's pipe judges ?limit before the handler asks who the caller is: the same order here.
    const q = await validArguments(SmallPageQuery, { limit });
    this.access.assertGm(p, fightId);
    const page = smallPage(
      'tokens',
      await this.access.listTokens(fightId),
      (t) => t.tokenId,
      { limit: q.limit, cursor },
      fightId,
    );
    return { items: page.items, limit: page.limit, nextCursor: page.next && encodeCursor(page.next) };
  }

  @Query(() => TokenModel, {
    description:
      'One of the fight’s tokens, revoked or not, never its secret (the same as GET /fights/:id/tokens/:tokenId); another fight’s or an unknown one is TOKEN_NOT_FOUND. The fight’s GM only.',
  })
  fightToken(
    @CurrentPrincipal() p: Principal,
    @Args('fightId', FIGHT_ID_ARG) fightId: string,
    @Args('tokenId', TOKEN_ID_ARG) tokenId: string,
  ): Promise<TokenModel> {
    this.access.assertGm(p, fightId);
    return this.access.token(fightId, tokenId);
  }

  @Mutation(() => Boolean, {
    description:
      'Revoke a token (the same as DELETE /fights/:id/tokens/:tokenId): it stops working at once, also on open subscriptions and streams. True once revoked, and again for a token already revoked; an unknown one is TOKEN_NOT_FOUND. The fight’s GM only.',
  })
  async revokeFightToken(
    @CurrentPrincipal() p: Principal,
    @Args('fightId', FIGHT_ID_ARG) fightId: string,
    @Args('tokenId', TOKEN_ID_ARG) tokenId: string,
  ): Promise<boolean> {
    this.access.assertGm(p, fightId);
    await this.access.revokeToken(fightId, tokenId);
    return true;
  }
}
