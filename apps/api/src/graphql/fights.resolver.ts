import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { AccessService, actorName, AppError, FightQueries, FightService, Principal } from '@app/fights';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { RequestId } from '../ops/request-id.decorator';
import { requireTenant } from '../auth/roles';
import { LogFormatError, parseFightLog, readVerifyOptions, verifyFightLog, VerifyOptionError } from '@app/audit';
import { GraphQLJSONObject } from 'graphql-scalars';
import { CommandInputGql, CreateFightInput } from '../common/dto';
import { CombatantSummaryModel, CommandResultModel, FightEventModel, FightModel, FightPageModel, ProjectionStatusModel } from '../common/models';
import { ProjectionRunner } from '@app/fights';


@Resolver()
export class FightsResolver {
  constructor(
    private readonly service: FightService,
    private readonly queries: FightQueries,
    private readonly runner: ProjectionRunner,
    private readonly access: AccessService,
  ) {}

  @Query(() => FightPageModel, { description: 'Fights, newest first' })
  fights(
    @CurrentPrincipal() p: Principal,
    @Args('system', { nullable: true }) system?: string,
    @Args('status', { nullable: true }) status?: string,
    @Args('limit', { type: () => Int, nullable: true }) limit?: number,
    @Args('offset', { type: () => Int, nullable: true }) offset?: number,
  ): Promise<FightPageModel> {
    return this.queries.listFor(p, { system, status, limit: Math.min(Math.max(limit ?? 20, 1), 100), offset: Math.max(offset ?? 0, 0) });
  }

  @Query(() => FightModel, { description: 'The fight view, from the fight-views projection; minSeq waits (up to 2 s) until it has reached that seq' })
  fight(
    @CurrentPrincipal() p: Principal,
    @Args('fightId', { type: () => ID }) fightId: string,
    @Args('minSeq', { type: () => Int, nullable: true }) minSeq?: number,
    @Args('at', { type: () => Int, nullable: true, description: 'Time travel: the state right after the event with this seq' }) at?: number,
  ): Promise<FightModel> {
    this.access.assertRead(p, fightId);
    if (at !== undefined && at !== null) return this.service.viewAt(fightId, at);
    return this.queries.fight(fightId, Math.max(minSeq ?? 0, 0));
  }

  @Query(() => GraphQLJSONObject, { description: 'The fight log for offline verification (the same document as GET /fights/:id/log)' })
  fightExport(@CurrentPrincipal() p: Principal, @Args('fightId', { type: () => ID }) fightId: string): Promise<Record<string, unknown>> {
    this.access.assertRead(p, fightId);
    return this.service.exportLog(fightId) as unknown as Promise<Record<string, unknown>>;
  }

  @Mutation(() => GraphQLJSONObject, {
    description:
      'Verify a fight log (the same verifier and report as POST /audit/verify and the CLI). A prefix of a log, its header rebuilt, verifies on its own but is not complete; give headHash and/or events to require the log to end where you expect. The report says what it proved (proven) and what not (notProven, with why).',
  })
  verifyFightLog(
    @Args('log', { type: () => GraphQLJSONObject }) log: Record<string, unknown>,
    @Args('headHash', { nullable: true, description: 'The head hash the auditor trusts (64 hex digits): the log must end exactly at it' }) headHash?: string,
    @Args('events', { type: () => Int, nullable: true, description: 'The number of events the auditor expects the log to hold' }) events?: number,
  ): Record<string, unknown> {
    try {
      return verifyFightLog(parseFightLog(JSON.stringify(log)), readVerifyOptions({ headHash, events })) as unknown as Record<string, unknown>;
    } catch (e) {
      if (e instanceof LogFormatError || e instanceof VerifyOptionError) throw new AppError(400, e.code, e.message, e.field);
      throw e;
    }
  }

  @Query(() => [CombatantSummaryModel], { description: 'Per-combatant summaries, from the combatants projection' })
  fightCombatants(@CurrentPrincipal() p: Principal, @Args('fightId', { type: () => ID }) fightId: string): Promise<CombatantSummaryModel[]> {
    this.access.assertRead(p, fightId);
    return this.queries.combatants(fightId);
  }

  @Query(() => [ProjectionStatusModel], { description: 'Each projection’s checkpoint and lag' })
  projections(@CurrentPrincipal() p: Principal): Promise<ProjectionStatusModel[]> {
    if (p.kind !== 'admin' && p.kind !== 'tenant') throw new AppError(403, 'FORBIDDEN', 'projection status needs an API key');
    return this.runner.status();
  }

  @Query(() => [FightEventModel], { description: 'The fight’s ordered events, after `after`' })
  events(@CurrentPrincipal() p: Principal, @Args('fightId', { type: () => ID }) fightId: string, @Args('after', { type: () => Int, nullable: true }) after?: number): Promise<FightEventModel[]> {
    this.access.assertRead(p, fightId);
    return this.service.events(fightId, Math.max(after ?? 0, 0));
  }

  @Mutation(() => CommandResultModel, { description: 'Create a fight' })
  createFight(@CurrentPrincipal() p: Principal, @RequestId() requestId: string | undefined, @Args('input') input: CreateFightInput): Promise<CommandResultModel> {
    requireTenant(p);
    return this.service.create(input, { name: actorName(p), scope: 'all', tenantId: p.tenantId, requestId }, (fightId) => this.access.ownFight(fightId, p));
  }

  @Mutation(() => CommandResultModel, { description: 'Send a command to a fight (the same path as POST /fights/:id/commands)' })
  command(@CurrentPrincipal() p: Principal, @RequestId() requestId: string | undefined, @Args('fightId', { type: () => ID }) fightId: string, @Args('input') input: CommandInputGql): Promise<CommandResultModel> {
    const scope = this.access.commandScope(p, fightId);
    const { payload, type, commandId, expectedSeq } = input;
    return this.service.execute(fightId, { ...(payload ?? {}), type, commandId, expectedSeq }, { name: actorName(p), scope, requestId });
  }
}
