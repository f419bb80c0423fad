import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { FightQueries, FightService } from '@app/fights';
import { CommandInputGql, CreateFightInput } from '../common/dto';
import { CombatantSummaryModel, CommandResultModel, FightEventModel, FightModel, FightPageModel, ProjectionStatusModel } from '../common/models';
import { ProjectionRunner } from '@app/fights';

const ACTOR = 'gm';

@Resolver()
export class FightsResolver {
  constructor(
    private readonly service: FightService,
    private readonly queries: FightQueries,
    private readonly runner: ProjectionRunner,
  ) {}

  @Query(() => FightPageModel, { description: 'Fights, newest first' })
  fights(
    @Args('system', { nullable: true }) system?: string,
    @Args('status', { nullable: true }) status?: string,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
    @Args('offset', { type: () => Int, nullable: true }) offset?: number,
  ): Promise<FightPageModel> {
    return this.queries.list({ system, status, limit: Math.min(Math.max(limit ?? 20, 1), 100), offset: Math.max(offset ?? 0, 0) });
  }

  @Query(() => FightModel, { description: 'The fight view, from the fight-views projection; minSeq waits (up to 2 s) until it has reached that seq' })
  fight(@Args('fightId', { type: () => ID }) fightId: string, @Args('minSeq', { type: () => Int, nullable: true }) minSeq?: number): Promise<FightModel> {
    return this.queries.fight(fightId, Math.max(minSeq ?? 0, 0));
  }

  @Query(() => [CombatantSummaryModel], { description: 'Per-combatant summaries, from the combatants projection' })
  fightCombatants(@Args('fightId', { type: () => ID }) fightId: string): Promise<CombatantSummaryModel[]> {
    return this.queries.combatants(fightId);
  }

  @Query(() => [ProjectionStatusModel], { description: 'Each projection’s checkpoint and lag' })
  projections(): Promise<ProjectionStatusModel[]> {
    return this.runner.status();
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
