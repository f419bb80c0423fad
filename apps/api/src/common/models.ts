import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType()
export class FightEventModel {
  @ApiProperty() @Field(() => ID) fightId: string;
  @ApiProperty({ description: '1-based position in the fight’s log' }) @Field(() => Int) seq: number;
  @ApiProperty({ example: 'ExchangeResolved' }) @Field() type: string;
  @ApiProperty({ description: 'Event version' }) @Field(() => Int) v: number;
  @ApiProperty({ description: 'Server time, ISO 8601' }) @Field() at: string;
  @ApiProperty() @Field() actor: string;
  @ApiProperty() @Field() commandId: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) @Field(() => GraphQLJSONObject) data: Record<
    string,
    unknown
  >;
  @ApiProperty({
    description:
      'sha256(previous hash + RFC 8785 canonical JSON of this event without its hash); the first event’s previous hash is ""',
  })
  @Field()
  hash: string;
}

@ObjectType()
export class CommandResultModel {
  @ApiProperty() @Field(() => ID) fightId: string;
  @ApiProperty({ description: 'seq of the fight’s last event' }) @Field(() => Int) seq: number;
  @ApiProperty({ type: [FightEventModel] }) @Field(() => [FightEventModel]) events: FightEventModel[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The fight view after the events' })
  @Field(() => GraphQLJSONObject)
  view: Record<string, unknown>;
  @ApiProperty({ description: 'True when the commandId was seen before: the first result, nothing appended' })
  @Field()
  replayed: boolean;
}

@ObjectType()
export class FightModel {
  @ApiProperty() @Field(() => ID) fightId: string;
  @ApiProperty() @Field(() => Int) seq: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) @Field(() => GraphQLJSONObject) view: Record<
    string,
    unknown
  >;
}

@ObjectType()
export class FightSummaryModel {
  @ApiProperty() @Field(() => ID) fightId: string;
  @ApiProperty() @Field() system: string;
  @ApiProperty() @Field() name: string;
  @ApiProperty({ enum: ['setup', 'active', 'ended'] }) @Field() status: string;
  @ApiProperty() @Field(() => Int) round: number;
  @ApiProperty() @Field(() => Int) combatants: number;
  @ApiProperty() @Field(() => Int) seq: number;
  @ApiProperty() @Field() createdAt: string;
  @ApiProperty() @Field() updatedAt: string;
}

@ObjectType()
export class FightPageModel {
  @ApiProperty({ type: [FightSummaryModel] }) @Field(() => [FightSummaryModel]) items: FightSummaryModel[];
  @ApiPropertyOptional({
    description:
      'How many fights match the filters: only with ?total=true. Counted by the first page that asks; the pages after it, by its cursor, repeat that count (the listing as it started) and count nothing',
  })
  @Field(() => Int, {
    description:
      'How many fights match the filters: counted only when asked for, by the first page that asks; the pages after it, by its cursor, repeat that count (the listing as it started)',
  })
  total?: number;
  @ApiProperty() @Field(() => Int) limit: number;
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
  @Field(() => [FightEventModel]) items: FightEventModel[];
  @Field(() => Int) limit: number;
  @Field(() => String, {
    nullable: true,
    description: 'The next page’s cursor (the same as REST’s X-Next-Cursor); null on the last page',
  })
  nextCursor?: string;
}

@ObjectType()
export class RulingModel {
  @ApiProperty({ example: 'N8' }) @Field() id: string;
  @ApiProperty() @Field() text: string;
}

@ObjectType()
export class CommandInfoModel {
  @ApiProperty({ example: 'DeclareExchange' }) @Field() type: string;
  @ApiProperty() @Field() description: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'JSON Schema (draft 2020-12) of the command body: `type` and its fields; unknown fields are refused.',
  })
  @Field(() => GraphQLJSONObject, { description: 'JSON Schema (draft 2020-12) of the command body.' })
  schema: Record<string, unknown>;
}

@ObjectType()
export class EventInfoModel {
  @ApiProperty({ example: 'ExchangeResolved' }) @Field() type: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'JSON Schema (draft 2020-12) of the event’s `data`.',
  })
  @Field(() => GraphQLJSONObject, { description: 'JSON Schema (draft 2020-12) of the event’s data.' })
  schema: Record<string, unknown>;
}

@ObjectType()
export class SystemModel {
  @ApiProperty({ example: 'narateer' }) @Field(() => ID) id: string;
  @ApiProperty() @Field() name: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @Field(() => GraphQLJSONObject)
  data: Record<string, unknown>;
  @ApiProperty({ type: [RulingModel] }) @Field(() => [RulingModel]) rulings: RulingModel[];
  @ApiProperty({ type: [CommandInfoModel] }) @Field(() => [CommandInfoModel]) commands: CommandInfoModel[];
  @ApiProperty({ type: [EventInfoModel], description: 'Every event type a fight of this system may hold.' })
  @Field(() => [EventInfoModel])
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

@ObjectType()
export class CombatantSummaryModel {
  @ApiProperty() @Field(() => ID) fightId: string;
  @ApiProperty() @Field() combatantId: string;
  @ApiProperty() @Field() system: string;
  @ApiProperty() @Field() name: string;
  @ApiProperty() @Field() side: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The combatant as the fight view shows it',
  })
  @Field(() => GraphQLJSONObject)
  summary: Record<string, unknown>;
}

@ObjectType()
export class ProjectionStatusModel {
  @ApiProperty({ example: 'fight-views' }) @Field() name: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The position of the last folded event in the global log, as the engine writes it',
  })
  @Field(() => String, { nullable: true })
  checkpoint: string | null;
  @ApiProperty({ description: 'Events in the global log not yet folded (capped at 10,000)' })
  @Field(() => Int)
  lagEvents: number;
}
