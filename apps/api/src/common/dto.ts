import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Field, InputType, Int } from '@nestjs/graphql';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Min,
} from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { SYSTEMS } from '@app/rules';
import { AsSent, NestedObject, Optional, QueryBool, QueryCursor, QueryInt } from './validation';

@InputType({ description: 'How the fight’s dice are rolled (RULINGS.md C2)' })
export class DiceInput {
  @ApiPropertyOptional({ enum: ['fair', 'seeded', 'manual'], default: 'fair', description: 'RULINGS.md C2' })
  @Field(() => String, { nullable: true, description: 'fair (default), seeded or manual (RULINGS.md C2)' })
  @Optional()
  @IsIn(['fair', 'seeded', 'manual'])
  mode?: 'fair' | 'seeded' | 'manual';

  @ApiPropertyOptional({
    description:
      "Only for seeded dice: the seed the fight's rolls derive from, with the drawKey (default: the fight id) and clientSeed (RULINGS.md C5, docs/rulings.md C14). The same seed alone reproduces one fight's faces; add the same drawKey to get them in a new fight.",
  })
  @Field(() => String, {
    nullable: true,
    description:
      'Seeded dice only: the seed the fight’s rolls derive from, with the drawKey and clientSeed (RULINGS.md C5)',
  })
  @Optional()
  @IsString()
  @Length(1, 200)
  seed?: string;

  @ApiPropertyOptional({ description: 'Mixed into every roll (RULINGS.md C2/C5).' })
  @Field(() => String, { nullable: true, description: 'Mixed into every roll (RULINGS.md C2/C5).' })
  @Optional()
  @IsString()
  @Length(0, 200)
  clientSeed?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 64,
    description:
      "Only for seeded dice (docs/rulings.md C14): takes the fight id's place in every draw (RULINGS.md C5) and is recorded in FightStarted. Two fights with the same seed, drawKey, clientSeed and commands roll the same faces. Default: the fight id.",
  })
  @Field(() => String, {
    nullable: true,
    description:
      'Seeded dice only: replaces the fight id in the draw derivation, so the same seed and drawKey give the same faces in another fight (docs/rulings.md C14). Default: the fight id.',
  })
  @Optional()
  @IsString()
  @Length(1, 64)
  drawKey?: string;
}

const CREATION_KEY =
  'Idempotency key of the creation: sent again (by the same tenant) with the same fields, it answers the fight the first request created (replayed: true) and creates nothing; with other fields, 422 COMMAND_ID_REUSED. The fight’s id is derived from it, and it is the creation’s commandId in the log. Without it, every request creates a new fight.';

@InputType({ description: 'A new fight' })
export class CreateFightInput {
  @ApiProperty({ example: 'narateer', description: 'A rule system id from GET /systems.' })
  @Field(() => String, { description: 'A rule system id (systems lists them).' })
  @IsString()
  @Length(1, 40)
  system: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    description: CREATION_KEY,
  })
  @Field(() => String, { nullable: true, description: CREATION_KEY })
  @Optional()
  @IsString()
  @Length(1, 100)
  commandId?: string;

  @ApiPropertyOptional({
    example: 'Duel at the ford',
    description: 'The fight name; default "Untitled fight".',
  })
  @Field(() => String, { nullable: true, description: 'The fight name; default "Untitled fight".' })
  @Optional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: DiceInput, description: 'How the dice are rolled; default fair.' })
  @Field(() => DiceInput, { nullable: true, description: 'How the dice are rolled; default fair.' })
  @Optional()
  @NestedObject(() => DiceInput)
  dice?: DiceInput;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description:
      '{ id?, name, side?, sheet } per combatant; the sheet follows the system (GET /systems/:id).',
  })
  @Field(() => [GraphQLJSONObject], {
    nullable: true,
    description:
      '{ id?, name, side?, sheet } per combatant; the sheet follows the system (system(id) gives its schema).',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @AsSent()
  combatants?: Record<string, unknown>[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The system’s fight options (GET /systems/:id gives their schema).',
  })
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'The system’s fight options (system(id) gives their schema as optionsSchema).',
  })
  @Optional()
  @IsObject()
  @AsSent()
  options?: Record<string, unknown>;
}

@InputType({ description: 'A command, untyped: its type, envelope and own fields' })
export class CommandInputGql {
  @Field(() => String, { description: 'A command type of the fight’s system (GET /systems/:id lists them).' })
  @IsString()
  @Matches(/^[A-Za-z]{1,60}$/, { message: 'type must be a command type name' })
  type: string;

  @Field(() => String, {
    nullable: true,
    description:
      'Idempotency key: the same command sent again with it returns the first result and appends nothing; another command with it is 422 COMMAND_ID_REUSED.',
  })
  @Optional()
  @IsString()
  @Length(1, 100)
  commandId?: string;

  @Field(() => Int, {
    nullable: true,
    description: 'The seq the caller last saw; a mismatch is EXPECTED_SEQ_MISMATCH.',
  })
  @Optional()
  @IsInt()
  @Min(0)
  expectedSeq?: number;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The command’s own fields.' })
  @Optional()
  @IsObject()
  @AsSent()
  payload?: Record<string, unknown>;
}

/** GET routes accept the key or token as `?token=` too (EventSource and OBS cannot set headers). */
export class TokenQuery {
  @ApiPropertyOptional({ description: 'A key or token, for clients that cannot send Authorization' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  token?: string;
}

/** The service's rule systems: a fight list filtered by another is refused, as `status` is. */
const SYSTEM_IDS = Object.keys(SYSTEMS);

export class ListFightsQuery extends TokenQuery {
  @ApiPropertyOptional({ enum: SYSTEM_IDS, description: 'Only fights of this rule system (GET /systems).' })
  @IsOptional()
  @IsString()
  @IsIn(SYSTEM_IDS)
  system?: string;

  @ApiPropertyOptional({ enum: ['setup', 'active', 'ended'] })
  @IsOptional()
  @IsIn(['setup', 'active', 'ended'])
  status?: string;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100 })
  @IsOptional()
  @QueryInt(1, 100)
  limit?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0, description: 'Older paging; a cursor replaces it.' })
  @IsOptional()
  @QueryInt(0)
  offset?: number;

  @QueryCursor() cursor?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description:
      'Also count every matching fight (`total`): a scan, so only when asked, and once per listing: the next cursor carries the count, and the pages after it repeat it (the count when the listing started). Default: false, except with a cursor of a listing that counted (followed from X-Next-Cursor alone, its pages keep their total); `false` leaves it out.',
  })
  @IsOptional()
  @QueryBool()
  total?: boolean;
}

export class EventsQuery extends TokenQuery {
  @ApiPropertyOptional({ default: 0, description: 'Only events with seq greater than this.' })
  @IsOptional()
  @QueryInt(0)
  after?: number;
}

/** Events in pages: at most EVENTS_MAX_PAGE in one answer, EVENTS_PAGE unless `limit` says. */
export const EVENTS_PAGE = 1000;
export const EVENTS_MAX_PAGE = 10_000;

export class EventsPageQuery extends EventsQuery {
  @ApiPropertyOptional({
    default: EVENTS_PAGE,
    minimum: 1,
    maximum: EVENTS_MAX_PAGE,
    description: 'Events per page; Link rel="next" and X-Next-Cursor point at the rest.',
  })
  @IsOptional()
  @QueryInt(1, EVENTS_MAX_PAGE)
  limit?: number;

  @QueryCursor() cursor?: string;
}

/** A query of a projection (GET /fights/:id/combatants): read your own write with minSeq. */
export class CombatantsQuery extends TokenQuery {
  @ApiPropertyOptional({
    description:
      'Wait (up to 2 s) until the projection has reached this seq: read your own write. Past the fight’s last seq: 422 SEQ_OUT_OF_RANGE.',
  })
  @IsOptional()
  @QueryInt(0)
  minSeq?: number;
}

/** GET /fights/:id: minSeq as every projection query, and time travel. */
export class FightQueryDto extends CombatantsQuery {
  @ApiPropertyOptional({ description: 'Time travel: the state right after the event with this seq.' })
  @IsOptional()
  @QueryInt(1)
  at?: number;
}

export class LogQuery extends TokenQuery {
  @ApiPropertyOptional({
    enum: ['json', 'ndjson'],
    description: 'Default json; ndjson also when Accept asks for application/x-ndjson.',
  })
  @IsOptional()
  @IsIn(['json', 'ndjson'])
  format?: 'json' | 'ndjson';
}

/** ?limit and ?cursor of the lists the service holds whole (tenants, keys, tokens, webhook endpoints). */
export class SmallPageQuery extends TokenQuery {
  @ApiPropertyOptional({
    default: 1000,
    minimum: 1,
    maximum: 1000,
    description: 'Items per page, oldest first; Link rel="next" and X-Next-Cursor point at the rest.',
  })
  @IsOptional()
  @QueryInt(1, 1000)
  limit?: number;

  @QueryCursor() cursor?: string;
}
