import { Args, Int, Resolver, Subscription } from '@nestjs/graphql';
import { AccessService, AppError, FightService, Principal } from '@app/fights';
import { onCredentialEnd } from '../auth/credential-end';
import { EndableStream } from './ending-stream';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { FightEventModel, FightModel } from '../common/models';
import { FIGHT_ID_ARG } from './args';

@Resolver()
export class LiveResolver {
  constructor(
    private readonly service: FightService,
    private readonly access: AccessService,
  ) {}

  /** A revoked or expired key or token ends open subscriptions at once, with an error saying which (TOKEN_EXPIRED, CREDENTIALS_REVOKED). */
  private closeOnRevoke<T>(p: Principal, source: AsyncIterator<T>): EndableStream<T> {
    let off = () => {};
    const stream = new EndableStream(source, () => off());
    off = onCredentialEnd(this.access.registry, p, (why) => stream.fail(why));
    return stream;
  }

  @Subscription(() => FightEventModel, {
    description:
      'Every event after `after` (a seq; default 0 = from the start), then live. Reconnect with the last seq you saw to miss nothing. Completed after FightEnded: nothing follows it.',
    resolve: (event: FightEventModel) => event,
  })
  async fightEvents(
    @CurrentPrincipal() p: Principal,
    @Args('fightId', FIGHT_ID_ARG) fightId: string,
    @Args('after', {
      type: () => Int,
      nullable: true,
      description: 'Replay the events after this seq (default 0: from the start)',
    })
    after?: number,
  ) {
    this.access.assertRead(p, fightId);
    if (after !== undefined && after !== null && (!Number.isInteger(after) || after < 0))
      throw new AppError(400, 'VALIDATION_FAILED', 'after must be a non-negative integer', 'after');
    return this.closeOnRevoke(p, await this.service.watch(fightId, after ?? 0));
  }

  @Subscription(() => FightModel, {
    description: 'The fight view now, then after each change; completed after the view of an ended fight.',
    resolve: (view: FightModel) => view,
  })
  async fightView(@CurrentPrincipal() p: Principal, @Args('fightId', FIGHT_ID_ARG) fightId: string) {
    this.access.assertRead(p, fightId);
    return this.closeOnRevoke(p, await this.service.watchViews(fightId));
  }
}
