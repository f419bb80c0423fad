import { Args, ID, Int, Resolver, Subscription } from '@nestjs/graphql';
import { FightService } from '@app/fights';
import { AppError } from '@app/fights';
import { FightEventModel, FightModel } from '../common/models';

@Resolver()
export class LiveResolver {
  constructor(private readonly service: FightService) {}

  @Subscription(() => FightEventModel, {
    description: 'Every event after `after` (a seq; default 0 = from the start), then live. Reconnect with the last seq you saw to miss nothing.',
    resolve: (event: FightEventModel) => event,
  })
  fightEvents(@Args('fightId', { type: () => ID }) fightId: string, @Args('after', { type: () => Int, nullable: true }) after?: number) {
    if (after !== undefined && after !== null && (!Number.isInteger(after) || after < 0)) throw new AppError(400, 'VALIDATION_FAILED', 'after must be a non-negative integer', 'after');
    return this.service.watch(fightId, after ?? 0);
  }

  @Subscription(() => FightModel, { description: 'The fight view now, then after each change.', resolve: (view: FightModel) => view })
  fightView(@Args('fightId', { type: () => ID }) fightId: string) {
    return this.service.watchViews(fightId);
  }
}
