import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { LabRunStatus } from '../common/graphql-enums';

@ObjectType({ description: 'A rate (0 to 1, 4 decimals) with its 95% Wilson interval' })
export class LabRateModel {
  @ApiProperty({ description: 'The rate, 0 to 1' })
  @Field(() => Float, { description: 'The rate, 0 to 1' })
  rate: number;
  @ApiProperty({ description: '95% Wilson interval, low end' })
  @Field(() => Float, { description: '95% Wilson interval, low end' })
  low: number;
  @ApiProperty({ description: '95% Wilson interval, high end' })
  @Field(() => Float, { description: '95% Wilson interval, high end' })
  high: number;
}

@ObjectType({ description: 'A number for each side of a cell' })
export class LabSidesModel {
  @ApiProperty({ description: 'The row side’s' })
  @Field(() => Float, { description: 'The row side’s' })
  row: number;
  @ApiProperty({ description: 'The column side’s' })
  @Field(() => Float, { description: 'The column side’s' })
  col: number;
}

const COLLAPSED =
  'Fights the loser lost by collapsing (Narateer: VIT ≤ 0; Arcana Beast: Knocked Out; Archsoul: Down)';
const WITHDRAWN =
  'Fights the loser lost by withdrawing (Narateer: a failed Continuation Check; Arcana Beast: called back)';

@ObjectType({ description: 'How a cell’s fights ended, by count' })
export class LabEndingsModel {
  @ApiProperty({ description: COLLAPSED }) @Field(() => Int, { description: COLLAPSED }) collapsed: number;
  @ApiProperty({ description: WITHDRAWN }) @Field(() => Int, { description: WITHDRAWN }) withdrawn: number;
  @ApiProperty({ description: 'Draws: the round cap was reached' })
  @Field(() => Int, { description: 'Draws: the round cap was reached' })
  roundCap: number;
  @ApiProperty({ description: 'Draws: neither side could pay an attack again' })
  @Field(() => Int, { description: 'Draws: neither side could pay an attack again' })
  stalemate: number;
}

@ObjectType({
  description: 'One matchup: the row strategy (first sheet) against the column strategy (second sheet)',
})
export class LabCellModel {
  @ApiProperty({ description: 'Row strategy (plays the first sheet)' })
  @Field({ description: 'Row strategy (plays the first sheet)' })
  row: string;
  @ApiProperty({ description: 'Column strategy (plays the second sheet)' })
  @Field({ description: 'Column strategy (plays the second sheet)' })
  col: string;
  @ApiProperty({ description: 'Fights played' })
  @Field(() => Int, { description: 'Fights played' })
  fights: number;
  @ApiProperty({ description: 'Fights the row side won' })
  @Field(() => Int, { description: 'Fights the row side won' })
  rowWins: number;
  @ApiProperty({ description: 'Fights the column side won' })
  @Field(() => Int, { description: 'Fights the column side won' })
  colWins: number;
  @ApiProperty({ description: 'Fights drawn' })
  @Field(() => Int, { description: 'Fights drawn' })
  draws: number;
  @ApiProperty({ type: LabRateModel, description: 'The row side’s win rate' })
  @Field(() => LabRateModel, { description: 'The row side’s win rate' })
  rowWin: LabRateModel;
  @ApiProperty({ type: LabRateModel, description: 'The column side’s win rate' })
  @Field(() => LabRateModel, { description: 'The column side’s win rate' })
  colWin: LabRateModel;
  @ApiProperty({ type: LabRateModel, description: 'The draw rate' })
  @Field(() => LabRateModel, { description: 'The draw rate' })
  draw: LabRateModel;
  @ApiProperty({ description: 'Average rounds per fight' })
  @Field(() => Float, { description: 'Average rounds per fight' })
  averageRounds: number;
  @ApiProperty({ type: LabSidesModel, description: 'Average Wounds dealt per fight by each side' })
  @Field(() => LabSidesModel, { description: 'Average Wounds dealt per fight by each side' })
  averageWounds: LabSidesModel;
  @ApiProperty({ type: LabEndingsModel, description: 'How the fights ended' })
  @Field(() => LabEndingsModel, { description: 'How the fights ended' })
  endings: LabEndingsModel;
  @ApiProperty({ description: 'Proposals the decider refused (should be 0)' })
  @Field(() => Int, { description: 'Proposals the decider refused (should be 0)' })
  illegalProposals: number;
}

@ObjectType({ description: 'A finished run’s result: the same document as the CLI’s lab.json' })
export class LabResultModel {
  @ApiProperty({ example: 'combat-lab/1', description: 'The document format' })
  @Field({ description: 'The document format: combat-lab/1' })
  format: string;
  @ApiProperty({ description: 'The rule system id' })
  @Field({ description: 'The rule system id' })
  system: string;
  @ApiProperty({ description: 'The seed every die derives from' })
  @Field({ description: 'The seed every die derives from' })
  seed: string;
  @ApiProperty({ description: 'Fights per cell' })
  @Field(() => Int, { description: 'Fights per cell' })
  fightsPerCell: number;
  @ApiProperty({ description: 'Rounds before a fight is a draw' })
  @Field(() => Int, { description: 'Rounds before a fight is a draw' })
  roundCap: number;
  @ApiProperty({ type: [String], description: 'Strategy ids in matrix order' })
  @Field(() => [String], { description: 'Strategy ids in matrix order' })
  strategies: string[];
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'The two sheets played: row side, then column side',
  })
  @Field(() => [GraphQLJSONObject], { description: 'The two sheets played: row side, then column side' })
  sheets: Record<string, unknown>[];
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { $ref: getSchemaPath(LabCellModel) } },
    description: 'The matrix: cells[r][c] is strategies[r] against strategies[c]',
  })
  @Field(() => [[LabCellModel]], {
    description: 'The matrix: cells[r][c] is strategies[r] against strategies[c]',
  })
  cells: LabCellModel[][];
}

@ObjectType({ description: 'How far a run has got' })
export class LabProgressModel {
  @ApiProperty({ description: 'Fights played' })
  @Field(() => Int, { description: 'Fights played' })
  done: number;
  @ApiProperty({ description: 'Fights in the run: cells × fights per cell' })
  @Field(() => Int, { description: 'Fights in the run: cells × fights per cell' })
  total: number;
}

@ObjectType({ description: 'A Combat Lab run, held in memory by the instance that started it' })
export class LabRunModel {
  @ApiProperty({ description: 'The run id' }) @Field(() => ID, { description: 'The run id' }) id: string;
  @ApiProperty({ enum: ['running', 'done', 'failed'], description: 'Running, done or failed' })
  @Field(() => LabRunStatus, { description: 'Running, done or failed' })
  status: LabRunStatus;
  @ApiProperty({ description: 'The rule system id' })
  @Field({ description: 'The rule system id' })
  system: string;
  @ApiProperty({ description: 'Fights per cell' })
  @Field(() => Int, { description: 'Fights per cell' })
  fights: number;
  @ApiProperty({ description: 'The seed every die derives from' })
  @Field({ description: 'The seed every die derives from' })
  seed: string;
  @ApiProperty({ type: [String], description: 'Strategy ids in matrix order' })
  @Field(() => [String], { description: 'Strategy ids in matrix order' })
  strategies: string[];
  @ApiProperty({ type: LabProgressModel, description: 'Fights played so far, of the total' })
  @Field(() => LabProgressModel, { description: 'Fights played so far, of the total' })
  progress: LabProgressModel;
  @ApiProperty({ description: 'When the run started, ISO 8601' })
  @Field({ description: 'When the run started, ISO 8601' })
  createdAt: string;
  @ApiProperty({ type: String, nullable: true, description: 'When the run finished; null while running' })
  @Field(() => String, { nullable: true, description: 'When the run finished, ISO 8601; null while running' })
  finishedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why a failed run failed; null otherwise' })
  @Field(() => String, { nullable: true, description: 'Why a failed run failed; null otherwise' })
  error: string | null;
  @ApiProperty({
    type: LabResultModel,
    nullable: true,
    description: 'Once status is done, the same document as the CLI’s lab.json; null until then',
  })
  @Field(() => LabResultModel, {
    nullable: true,
    description: 'Once status is done, the same document as the CLI’s lab.json; null until then',
  })
  result: LabResultModel | null;
}
