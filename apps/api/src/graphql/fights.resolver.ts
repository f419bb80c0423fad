import { Args, Context, Info, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { FastifyReply } from 'fastify';
import { GraphQLResolveInfo, Kind, SelectionSetNode } from 'graphql';
import {
  AccessService,
  actorName,
  AppError,
  DECLARED_FOR,
  FightQueries,
  FightService,
  Principal,
} from '@app/fights';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { RequestId } from '../ops/request-id.decorator';
import { requireTenant } from '../auth/roles';
import { LogFormatError } from '@app/audit';
import { LogVerifier, verifyOptionsOf } from '../common/log-verifier';
import { GraphQLJSONObject } from 'graphql-scalars';
import { logFormatRefusal } from '../rest/audit.controller';
import {
  CombatantsQuery,
  CommandInputGql,
  CreateFightInput,
  EVENTS_MAX_PAGE,
  EVENTS_PAGE,
  EventsPageQuery,
  FightQueryDto,
  ListFightsQuery,
} from '../common/dto';
import {
  CombatantSummaryModel,
  CommandResultModel,
  FightEventModel,
  FightEventPageModel,
  FightModel,
  FightPageModel,
  ProjectionStatusModel,
} from '../common/models';
import { encodeCursor, eventsPage, fightsPage, READ_MODEL_STALE } from '../common/pagination';
import { ProjectionRunner } from '@app/fights';
import { ContractIssue, ContractViolation } from '@app/rules';
import { validArguments } from '../common/validation';
import { viewAtHeld } from '../common/view-at';
import { systemOfCommandField } from './typed-contract';
import { hiddenNumberIn } from './hidden-numbers';
import { TextContext, variablesTextOf } from './variables-text';
import { FIGHT_ID_ARG, MIN_SEQ_ARG } from './args';

@Resolver()
export class FightsResolver {
  constructor(
    private readonly service: FightService,
    private readonly queries: FightQueries,
    private readonly runner: ProjectionRunner,
    private readonly access: AccessService,
    private readonly verifier: LogVerifier,
  ) {}

  @Query(() => FightPageModel, {
    description:
      'Fights, newest first, a page at a time: pass nextCursor back as cursor (the same cursor as REST’s X-Next-Cursor). offset is the older paging. Holds every write committed before the request (waits up to 2 s for the read side; over HTTP, X-Read-Model-Stale: true when it was still behind).',
  })
  async fights(
    @CurrentPrincipal() p: Principal,
    @Info() info: GraphQLResolveInfo,
    @Context() context: { res?: FastifyReply },
    @Args('system', { nullable: true, description: 'Only fights of this rule system (systems lists them)' })
    system?: string,
    @Args('status', { nullable: true, description: 'Only fights in this status: setup, active or ended' })
    status?: string,
    @Args('limit', { type: () => Int, nullable: true, description: 'Fights per page (1 to 100; default 20)' })
    limit?: number,
    @Args('offset', {
      type: () => Int,
      nullable: true,
      description: 'Fights to skip (older paging; a cursor replaces it)',
    })
    offset?: number,
    @Args('cursor', { type: () => String, nullable: true, description: 'nextCursor of the page before' })
    cursor?: string,
  ): Promise<FightPageModel> {
    // Refused as GET /fights refuses them, never clamped.
    const q = await validArguments(ListFightsQuery, { system, status, limit, offset });
    const { next, stale, ...page } = await fightsPage(
      this.queries,
      p,
      { ...q, cursor },
      { total: selects(info, 'total') },
    );
    // Over HTTP, as REST says it; a WebSocket operation has no headers.
    if (stale) void context.res?.header(READ_MODEL_STALE, 'true');
    return { ...page, nextCursor: next && encodeCursor(next) };
  }

  @Query(() => FightModel, {
    description:
      'The fight view, from the fight-views projection; minSeq waits (up to 2 s) until it has reached that seq (past the fight’s last seq: SEQ_OUT_OF_RANGE)',
  })
  async fight(
    @CurrentPrincipal() p: Principal,
    @Args('fightId', FIGHT_ID_ARG) fightId: string,
    @Args('minSeq', MIN_SEQ_ARG)
    minSeq?: number,
    @Args('at', {
      type: () => Int,
      nullable: true,
      description: 'Time travel: the state right after the event with this seq',
    })
    at?: number,
  ): Promise<FightModel> {
    this.access.assertRead(p, fightId);
    const q = await validArguments(FightQueryDto, { minSeq, at });
    if (q.at !== undefined) return viewAtHeld(this.service, fightId, { at: q.at, minSeq: q.minSeq });
    return this.queries.fight(fightId, q.minSeq ?? 0);
  }

  @Query(() => GraphQLJSONObject, {
    description: 'The fight log for offline verification (the same document as GET /fights/:id/log)',
  })
  fightExport(
    @CurrentPrincipal() p: Principal,
    @Args('fightId', FIGHT_ID_ARG) fightId: string,
  ): Promise<Record<string, unknown>> {
    this.access.assertRead(p, fightId);
    return this.service.exportLog(fightId) as unknown as Promise<Record<string, unknown>>;
  }

  @Mutation(() => GraphQLJSONObject, {
    description:
      'Verify a fight log (the same verifier and report as POST /audit/verify and the CLI). A prefix of a log, its header rebuilt, verifies on its own but is not complete; give headHash and/or events to require the log to end where you expect. The report says what it proved (proven) and what not (notProven, with why).',
  })
  async verifyFightLog(
    @Info() info: GraphQLResolveInfo,
    @Context() context: TextContext,
    @Args('log', {
      type: () => GraphQLJSONObject,
      description: 'The fight log, as fightExport and GET /fights/:id/log give it',
    })
    log: Record<string, unknown>,
    @Args('headHash', {
      nullable: true,
      description: 'The head hash the auditor trusts (64 hex digits): the log must end exactly at it',
    })
    headHash?: string,
    @Args('events', {
      type: () => Int,
      nullable: true,
      description: 'The number of events the auditor expects the log to hold',
    })
    events?: number,
  ): Promise<Record<string, unknown>> {
    const options = verifyOptionsOf({ headHash, events });
    // The value hides how its numbers were written (`4.0000000000000001` is 4): they are read off the request.
    const hidden = hiddenNumberIn(info, 'log', variablesTextOf(context));
    try {
      return (await this.verifier.verify(JSON.stringify(log), options, hidden)) as unknown as Record<
        string,
        unknown
      >;
    } catch (e) {
      if (e instanceof LogFormatError) throw logFormatRefusal(e);
      throw e;
    }
  }

  @Query(() => [CombatantSummaryModel], {
    description:
      'Per-combatant summaries: the combatant entries of the fight view `fight` answers, in order; minSeq waits (up to 2 s) until the read side has reached that seq (past the fight’s last seq: SEQ_OUT_OF_RANGE)',
  })
  async fightCombatants(
    @CurrentPrincipal() p: Principal,
    @Args('fightId', FIGHT_ID_ARG) fightId: string,
    @Args('minSeq', MIN_SEQ_ARG)
    minSeq?: number,
  ): Promise<CombatantSummaryModel[]> {
    this.access.assertRead(p, fightId);
    const q = await validArguments(CombatantsQuery, { minSeq });
    return this.queries.combatants(fightId, q.minSeq ?? 0);
  }

  @Query(() => [ProjectionStatusModel], { description: 'Each projection’s checkpoint and lag' })
  projections(@CurrentPrincipal() p: Principal): Promise<ProjectionStatusModel[]> {
    if (p.kind !== 'admin' && p.kind !== 'tenant')
      throw new AppError(403, 'FORBIDDEN', 'projection status needs an API key', 'authorization');
    return this.runner.status();
  }

  @Query(() => [FightEventModel], {
    description: `The fight’s ordered events, after \`after\`: at most \`limit\` (default ${EVENTS_PAGE}). eventsPage gives the same with the next page’s cursor.`,
  })
  async events(
    @CurrentPrincipal() p: Principal,
    @Args('fightId', FIGHT_ID_ARG) fightId: string,
    @Args('after', {
      type: () => Int,
      nullable: true,
      description: 'Only events with seq greater than this (default 0)',
    })
    after?: number,
    @Args('limit', {
      type: () => Int,
      nullable: true,
      description: `Events at most (1 to ${EVENTS_MAX_PAGE}; default ${EVENTS_PAGE})`,
    })
    limit?: number,
  ): Promise<FightEventModel[]> {
    this.access.assertRead(p, fightId);
    return (await eventsPage(this.service, fightId, await validArguments(EventsPageQuery, { after, limit })))
      .items;
  }

  @Query(() => FightEventPageModel, {
    description:
      'The fight’s ordered events a page at a time: pass nextCursor back as cursor (the same cursor as REST’s X-Next-Cursor)',
  })
  async eventsPage(
    @CurrentPrincipal() p: Principal,
    @Args('fightId', FIGHT_ID_ARG) fightId: string,
    @Args('after', {
      type: () => Int,
      nullable: true,
      description: 'Start after this seq (instead of a cursor)',
    })
    after?: number,
    @Args('limit', {
      type: () => Int,
      nullable: true,
      description: `Events per page (1 to ${EVENTS_MAX_PAGE}; default ${EVENTS_PAGE})`,
    })
    limit?: number,
    @Args('cursor', { type: () => String, nullable: true, description: 'nextCursor of the page before' })
    cursor?: string,
  ): Promise<FightEventPageModel> {
    this.access.assertRead(p, fightId);
    const q = await validArguments(EventsPageQuery, { after, limit });
    const page = await eventsPage(this.service, fightId, { ...q, cursor });
    return { items: page.items, limit: page.limit, nextCursor: page.next && encodeCursor(page.next) };
  }

  @Mutation(() => CommandResultModel, { description: 'Create a fight' })
  createFight(
    @CurrentPrincipal() p: Principal,
    @RequestId() requestId: string | undefined,
    @Args('input', { description: 'The fight: system, name, dice, first combatants, options' })
    input: CreateFightInput,
  ): Promise<CommandResultModel> {
    requireTenant(p);
    return this.service.create(
      input,
      { name: actorName(p), scope: 'all', tenantId: p.tenantId, requestId },
      (fightId) => this.access.ownFight(fightId, p),
    );
  }

  @Mutation(() => CommandResultModel, {
    description: 'Send a command to a fight (the same path as POST /fights/:id/commands)',
  })
  async command(
    @CurrentPrincipal() p: Principal,
    @RequestId() requestId: string | undefined,
    @Args('fightId', FIGHT_ID_ARG) fightId: string,
    @Args('input', { description: 'The command: type, envelope and payload' }) input: CommandInputGql,
    @Info() info: GraphQLResolveInfo,
  ): Promise<CommandResultModel> {
    const scope = this.access.commandScope(p, fightId);
    const { payload, type, commandId, expectedSeq } = input;
    refuseEnvelopeInPayload(payload);
    // narateerCommand & co. forward here: their command is declared for one system, which admission checks.
    const typed = systemOfCommandField(info.fieldName);
    return this.service.execute(
      fightId,
      {
        ...(payload ?? {}),
        type,
        commandId,
        expectedSeq,
        ...(typed ? { [DECLARED_FOR]: { system: typed, via: info.fieldName } } : {}),
      },
      { name: actorName(p), scope, requestId },
    );
  }
}

/** The envelope's own fields, beside `payload`: inside it they are not the command's fields, so they are refused. */
const ENVELOPE = ['type', 'commandId', 'expectedSeq'] as const;

function refuseEnvelopeInPayload(payload: Record<string, unknown> | undefined): void {
  if (!payload) return;
  const issues: ContractIssue[] = ENVELOPE.filter((key) => Object.hasOwn(payload, key)).map((key) => ({
    field: `payload.${key}`,
    code: 'UNKNOWN_FIELD',
    message: `payload.${key} is not a field of a command: send ${key} beside payload, in input`,
  }));
  if (issues.length > 0) throw new ContractViolation(issues);
}

/** Whether the query selects `field` of this resolver's result, directly or through a fragment. */
function selects(info: GraphQLResolveInfo, field: string): boolean {
  const within = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).some((s) =>
      s.kind === Kind.FIELD
        ? s.name.value === field
        : within(
            s.kind === Kind.INLINE_FRAGMENT ? s.selectionSet : info.fragments[s.name.value]?.selectionSet,
          ),
    );
  return info.fieldNodes.some((node) => within(node.selectionSet));
}
