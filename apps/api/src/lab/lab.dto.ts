import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Field, InputType, Int } from '@nestjs/graphql';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { LAB_SYSTEMS, MAX_FIGHTS_PER_CELL } from '@app/lab';
import { AsSent, Optional } from '../common/validation';

/** POST /lab/runs and the startLabRun mutation (the Combat Lab, docs/lab.md). */
@InputType({ description: 'A Combat Lab run: the system, fights per cell, seed, sheets and strategies' })
export class StartLabRunInput {
  @ApiProperty({ example: 'narateer', enum: Object.keys(LAB_SYSTEMS) })
  @Field(() => String, { description: 'The rule system to play.' })
  @IsIn(Object.keys(LAB_SYSTEMS))
  system: string;

  @ApiProperty({
    example: 10000,
    minimum: 1,
    maximum: MAX_FIGHTS_PER_CELL,
    description: 'Fights per cell of the matrix.',
  })
  @Field(() => Int, { description: `Fights per cell of the matrix (1 to ${MAX_FIGHTS_PER_CELL}).` })
  @IsInt()
  @Min(1)
  @Max(MAX_FIGHTS_PER_CELL, { message: `fights is per cell and at most ${MAX_FIGHTS_PER_CELL}` })
  fights: number;

  @ApiProperty({
    example: '42',
    description:
      'Every fight’s dice derive from (seed, row, column, fight index): the same input gives the same result.',
  })
  @Field(() => String, {
    description:
      'Every fight’s dice derive from (seed, row, column, fight index): the same input gives the same result.',
  })
  @IsString()
  @Length(1, 200)
  seed: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    minItems: 2,
    maxItems: 2,
    description: 'Two sheets of the system (row side, column side); default the bundled duellists.',
  })
  @Field(() => [GraphQLJSONObject], {
    nullable: true,
    description: 'Two sheets of the system (row side, column side); default the bundled duellists.',
  })
  @Optional()
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(2)
  @IsObject({ each: true })
  @AsSent()
  sheets?: Record<string, unknown>[];

  @ApiPropertyOptional({
    type: [String],
    example: ['heavy', 'guard'],
    description: 'Strategy ids in matrix order; default all of the system’s (RULINGS.md N14).',
  })
  @Field(() => [String], {
    nullable: true,
    description: 'Strategy ids in matrix order; default all of the system’s.',
  })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ArrayUnique()
  @IsString({ each: true })
  @Length(1, 40, { each: true })
  strategies?: string[];

  @ApiPropertyOptional({
    example: 30,
    minimum: 1,
    maximum: 1000,
    description: 'Rounds before a fight is a draw (default 30).',
  })
  @Field(() => Int, {
    nullable: true,
    description: 'Rounds before a fight is a draw (1 to 1000; default 30).',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(1000)
  roundCap?: number;
}
