import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { FightStatus } from './graphql-enums';

const EVENT_HASH =
  'SHA-256 of the previous hash + the RFC 8785 canonical JSON of this event without its hash; the first event’s previous hash is ""';
const EVENT_ACTOR =
  'Who sent the command: gm:<keyId>, admin:<keyId>, player:<tokenId> or spectator:<tokenId>';
const EVENT_COMMAND_ID =
  'The commandId of the command that appended the event (generated when none was sent)';

@ObjectType({ description: 'One event of a fight’s hash-chained log' })
export class FightEventModel {
  @ApiProperty({ description: 'The fight id' })
  @Field(() => ID, { description: 'The fight id' })
  fightId: string;
  @ApiProperty({ description: '1-based position in the fight’s log' })
  @Field(() => Int, { description: '1-based position in the fight’s log' })
  seq: number;
  @ApiProperty({ example: 'ExchangeResolved', description: 'The event type' })
  @Field({ description: 'The event type (GET /systems/:id lists them)' })
  type: string;
  @ApiProperty({ description: 'Event version' })
  @Field(() => Int, { description: 'Event version' })
  v: number;
  @ApiProperty({ description: 'Server time, ISO 8601' })
  @Field({ description: 'Server time, ISO 8601' })
  at: string;
  @ApiProperty({ description: EVENT_ACTOR }) @Field({ description: EVENT_ACTOR }) actor: string;
  @ApiProperty({ description: EVENT_COMMAND_ID }) @Field({ description: EVENT_COMMAND_ID }) commandId: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The event’s data; its schema is the event type’s',
  })
  @Field(() => GraphQLJSONObject, { description: 'The event’s data as JSON; its schema is the event type’s' })
  data: Record<string, unknown>;
  @ApiProperty({ description: EVENT_HASH })
  @Field({ description: EVENT_HASH })
  hash: string;
}

const REPLAYED = 'True when the commandId was seen before: the first result, nothing appended';

@ObjectType({
  description: 'The result of a command (or of creating a fight): its events and the fight view',
})
export class CommandResultModel {
  @ApiProperty({ description: 'The fight id' })
  @Field(() => ID, { description: 'The fight id' })
  fightId: string;
  @ApiProperty({ description: 'The seq of the fight’s last event' })
  @Field(() => Int, { description: 'The seq of the fight’s last event' })
  seq: number;
  @ApiProperty({ type: [FightEventModel], description: 'The events the command appended, in seq order' })
  @Field(() => [FightEventModel], { description: 'The events the command appended, in seq order' })
  events: FightEventModel[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The fight view after the events' })
  @Field(() => GraphQLJSONObject, { description: 'The fight view after the events, as JSON' })
  view: Record<string, unknown>;
  @ApiProperty({ description: REPLAYED })
  @Field({ description: REPLAYED })
  replayed: boolean;
}

@ObjectType({ description: 'A fight’s view at a seq' })
export class FightModel {
  @ApiProperty({ description: 'The fight id' })
  @Field(() => ID, { description: 'The fight id' })
  fightId: string;
  @ApiProperty({ description: 'The seq of the last event the view folds' })
  @Field(() => Int, { description: 'The seq of the last event the view folds' })
  seq: number;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The fight view' })
  @Field(() => GraphQLJSONObject, { description: 'The fight view, as JSON' })
  view: Record<string, unknown>;
}

@ObjectType({ description: 'A fight in a list of fights' })
export class FightSummaryModel {
  @ApiProperty({ description: 'The fight id' })
  @Field(() => ID, { description: 'The fight id' })
  fightId: string;
  @ApiProperty({ description: 'The rule system id' })
  @Field({ description: 'The rule system id' })
  system: string;
  @ApiProperty({ description: 'The fight name' }) @Field({ description: 'The fight name' }) name: string;
  @ApiProperty({ enum: ['setup', 'active', 'ended'], description: 'The fight’s status' })
  @Field(() => FightStatus, { description: 'The fight’s status: setup, active or ended' })
  status: string;
  @ApiProperty({ description: 'The current round (0 before the first)' })
  @Field(() => Int, { description: 'The current round (0 before the first)' })
  round: number;
  @ApiProperty({ description: 'How many combatants the fight view lists' })
  @Field(() => Int, { description: 'How many combatants the fight view lists' })
  combatants: number;
  @ApiProperty({ description: 'The seq of the fight’s last event' })
  @Field(() => Int, { description: 'The seq of the fight’s last event' })
  seq: number;
  @ApiProperty({ description: 'When the fight was created, ISO 8601' })
  @Field({ description: 'When the fight was created, ISO 8601' })
  createdAt: string;
  @ApiProperty({ description: 'When its last event was appended, ISO 8601' })
  @Field({ description: 'When its last event was appended, ISO 8601' })
  updatedAt: string;
}

@ObjectType({ description: 'A page of fights, newest first: pass nextCursor as cursor for the next one' })
export class FightPageModel {
  @ApiProperty({ type: [FightSummaryModel], description: 'The fights of this page, newest first' })
  @Field(() => [FightSummaryModel], { description: 'The fights of this page, newest first' })
  items: FightSummaryModel[];
  @ApiPropertyOptional({
    description:
      'How many fights match the filters: only with ?total=true. Counted by the first page that asks; the pages after it, by its cursor, repeat that count (the listing as it started) and count nothing',
  })
  @Field(() => Int, {
    description:
      'How many fights match the filters: counted only when asked for, by the first page that asks; the pages after it, by its cursor, repeat that count (the listing as it started)',
  })
  total?: number;
  @ApiProperty({ description: 'The page size asked for (or the default)' })
  @Field(() => Int, { description: 'The page size asked for (or the default)' })
  limit: number;
  @ApiPropertyOptional({
    description: 'The offset the page was asked with (0 from the start); absent on a cursor page',
  })
  @Field(() => Int, {
    nullable: true,
    description: 'The offset the page was asked with (0 from the start); null on a cursor page',
  })
  offset?: number;
  @ApiPropertyOptional({
    description:
      'The next page’s cursor (also in X-Next-Cursor and Link rel="next"); absent on the last page',
  })
  @Field(() => String, {
    nullable: true,
    description: 'The next page’s cursor: pass it as `cursor`; null on the last page',
  })
  nextCursor?: string;
}

@ObjectType({ description: 'A page of a fight’s events: pass nextCursor as cursor for the next one' })
export class FightEventPageModel {
  @Field(() => [FightEventModel], { description: 'The events of this page, in seq order' })
  items: FightEventModel[];
  @Field(() => Int, { description: 'The page size asked for (or the default)' }) limit: number;
  @Field(() => String, {
    nullable: true,
    description: 'The next page’s cursor (the same as REST’s X-Next-Cursor); null on the last page',
  })
  nextCursor?: string;
}

@ObjectType({ description: 'A ruling the system applies' })
export class RulingModel {
  @ApiProperty({ example: 'N8', description: 'The ruling id (RULINGS.md, docs/rulings*.md)' })
  @Field({ description: 'The ruling id (RULINGS.md, docs/rulings*.md)' })
  id: string;
  @ApiProperty({ description: 'The ruling' }) @Field({ description: 'The ruling' }) text: string;
}

@ObjectType({ description: 'A command type of a rule system and the schema of its body' })
export class CommandInfoModel {
  @ApiProperty({ example: 'DeclareExchange', description: 'The command type' })
  @Field({ description: 'The command type' })
  type: string;
  @ApiProperty({ description: 'What the command does' })
  @Field({ description: 'What the command does' })
  description: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'JSON Schema (draft 2020-12) of the command body: `type` and its fields; unknown fields are refused.',
  })
  @Field(() => GraphQLJSONObject, { description: 'JSON Schema (draft 2020-12) of the command body.' })
  schema: Record<string, unknown>;
}

@ObjectType({ description: 'An event type of a rule system and the schema of its data' })
export class EventInfoModel {
  @ApiProperty({ example: 'ExchangeResolved', description: 'The event type' })
  @Field({ description: 'The event type' })
  type: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'JSON Schema (draft 2020-12) of the event’s `data`.',
  })
  @Field(() => GraphQLJSONObject, { description: 'JSON Schema (draft 2020-12) of the event’s data.' })
  schema: Record<string, unknown>;
}

const SYSTEM_DATA = 'The system’s tables and constants';

@ObjectType({ description: 'A rule system: its data, rulings, commands, events and schemas' })
export class SystemModel {
  @ApiProperty({ example: 'narateer', description: 'The rule system id' })
  @Field(() => ID, { description: 'The rule system id' })
  id: string;
  @ApiProperty({ description: 'The rule system’s name' })
  @Field({ description: 'The rule system’s name' })
  name: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: SYSTEM_DATA })
  @Field(() => GraphQLJSONObject, { description: SYSTEM_DATA })
  data: Record<string, unknown>;
  @ApiProperty({ type: [RulingModel], description: 'Every ruling the system applies' })
  @Field(() => [RulingModel], { description: 'Every ruling the system applies' })
  rulings: RulingModel[];
  @ApiProperty({ type: [CommandInfoModel], description: 'Every command type the system accepts' })
  @Field(() => [CommandInfoModel], { description: 'Every command type the system accepts' })
  commands: CommandInfoModel[];
  @ApiProperty({ type: [EventInfoModel], description: 'Every event type a fight of this system may hold.' })
  @Field(() => [EventInfoModel], { description: 'Every event type a fight of this system may hold.' })
  events: EventInfoModel[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'JSON Schema of a combatant sheet.',
  })
  @Field(() => GraphQLJSONObject, { description: 'JSON Schema of a combatant sheet.' })
  sheetSchema: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'JSON Schema of the `options` of POST /fights.',
  })
  @Field(() => GraphQLJSONObject, { description: 'JSON Schema of the options of createFight.' })
  optionsSchema: Record<string, unknown>;
}

export class ErrorModel {
  @ApiProperty({ example: 422 }) statusCode: number;
  @ApiProperty({ example: 'NARATEER_PROACTIVE_LIMIT' }) code: string;
  @ApiProperty() message: string;
  @ApiPropertyOptional({
    example: 'boost',
    description:
      'The offending field or parameter: the first failing one, as a path (`combatants[0].name`, `dice.mode`)',
  })
  field?: string;
  @ApiPropertyOptional({
    type: 'array',
    description:
      'UNKNOWN_FIELD and INVALID_FIELD (422), VALIDATION_FAILED (400): every failing field, unknown fields first; the first is `field`. LOG_FORMAT_INVALID (a fight log POST /audit/verify cannot read): the header’s first error and each broken entry’s, the first 100, each with code LOG_FORMAT_INVALID',
    items: {
      type: 'object',
      required: ['field', 'code', 'message'],
      properties: {
        field: { type: 'string' },
        code: { type: 'string', enum: ['UNKNOWN_FIELD', 'INVALID_FIELD', 'LOG_FORMAT_INVALID'] },
        message: { type: 'string' },
      },
    },
  })
  issues?: Array<{
    field: string;
    code: 'UNKNOWN_FIELD' | 'INVALID_FIELD' | 'LOG_FORMAT_INVALID';
    message: string;
  }>;
}

@ObjectType({ description: 'A combatant of a fight: its entry in the fight view' })
export class CombatantSummaryModel {
  @ApiProperty({ description: 'The fight id' })
  @Field(() => ID, { description: 'The fight id' })
  fightId: string;
  @ApiProperty({ description: 'The combatant id' })
  @Field({ description: 'The combatant id' })
  combatantId: string;
  @ApiProperty({ description: 'The rule system id' })
  @Field({ description: 'The rule system id' })
  system: string;
  @ApiProperty({ description: 'The combatant name' })
  @Field({ description: 'The combatant name' })
  name: string;
  @ApiProperty({ description: 'The combatant’s side' })
  @Field({ description: 'The combatant’s side' })
  side: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The combatant as the fight view shows it',
  })
  @Field(() => GraphQLJSONObject, { description: 'The combatant as the fight view shows it, as JSON' })
  summary: Record<string, unknown>;
}

const CHECKPOINT = 'The position of the last folded event in the global log, as the engine writes it';
const LAG = 'Events in the global log not yet folded (capped at 10,000)';

@ObjectType({ description: 'A read model’s progress through the global log' })
export class ProjectionStatusModel {
  @ApiProperty({ example: 'fight-views', description: 'The projection name' })
  @Field({ description: 'The projection name: fight-views' })
  name: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: CHECKPOINT })
  @Field(() => String, { nullable: true, description: CHECKPOINT })
  checkpoint: string | null;
  @ApiProperty({ description: LAG })
  @Field(() => Int, { description: LAG })
  lagEvents: number;
}
