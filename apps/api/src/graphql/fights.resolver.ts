import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { FightService } from '@app/fights';
import { CommandInputGql, CreateFightInput } from '../common/dto';
import { CommandResultModel, FightEventModel, FightModel, FightPageModel } from '../common/models';

const ACTOR = 'gm';

@Resolver()
export class FightsResolver {
  constructor(private readonly service: FightService) {}

  @Query(() => FightPageModel, { description: 'Fights, newest first' })
  fights(
    @Args('system', { nullable: true }) system?: string,
    @Args('status', { nullable: true }) status?: string,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
    @Args('offset', { type: () => Int, nullable: true }) offset?: number,
  ): FightPageModel {
    return this.service.fights({ system, status, limit: Math.min(Math.max(limit ?? 20, 1), 100), offset: Math.max(offset ?? 0, 0) });
  }

  @Query(() => FightModel, { description: 'The current fight view' })
  fight(@Args('fightId', { type: () => ID }) fightId: string): Promise<FightModel> {
    return this.service.view(fightId);
  }

  @Query(() => [FightEventModel], { description: 'The fight’s ordered event log, after `after`' })
  fightLog(@Args('fightId', { type: () => ID }) fightId: string, @Args('after', { type: () => Int, nullable: true }) after?: number): Promise<FightEventModel[]> {
    return this.service.events(fightId, Math.max(after ?? 0, 0));
  }

  @Mutation(() => CommandResultModel, { description: 'Create a fight' })
  createFight(@Args('input') input: CreateFightInput): Promise<CommandResultModel> {
    return this.service.create(input, ACTOR);
  }

  @Mutation(() => CommandResultModel, { description: 'Send a command to a fight (the same path as POST /fights/:id/commands)' })
  command(@Args('fightId', { type: () => ID }) fightId: string, @Args('input') input: CommandInputGql): Promise<CommandResultModel> {
    const { payload, type, commandId, expectedSeq } = input;
    return this.service.execute(fightId, { ...(payload ?? {}), type, commandId, expectedSeq }, ACTOR);
  }
}
