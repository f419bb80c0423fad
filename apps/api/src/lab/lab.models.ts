import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Field, Float, ID, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType()
export class LabRateModel {
  @ApiProperty() @Field(() => Float) rate: number;
  @ApiProperty({ description: '95% Wilson interval, low end' }) @Field(() => Float) low: number;
  @ApiProperty({ description: '95% Wilson interval, high end' }) @Field(() => Float) high: number;
}

@ObjectType()
export class LabSidesModel {
  @ApiProperty() @Field(() => Float) row: number;
  @ApiProperty() @Field(() => Float) col: number;
}

@ObjectType()
export class LabEndingsModel {
  @ApiProperty() @Field(() => Int) collapsed: number;
  @ApiProperty() @Field(() => Int) withdrawn: number;
  @ApiProperty({ description: 'Draws: the round cap was reached' }) @Field(() => Int) roundCap: number;
  @ApiProperty({ description: 'Draws: neither side could pay an attack again' })
  @Field(() => Int)
  stalemate: number;
}

@ObjectType()
export class LabCellModel {
  @ApiProperty({ description: 'Row strategy (plays the first sheet)' }) @Field() row: string;
  @ApiProperty({ description: 'Column strategy (plays the second sheet)' }) @Field() col: string;
  @ApiProperty() @Field(() => Int) fights: number;
  @ApiProperty() @Field(() => Int) rowWins: number;
  @ApiProperty() @Field(() => Int) colWins: number;
  @ApiProperty() @Field(() => Int) draws: number;
  @ApiProperty({ type: LabRateModel }) @Field(() => LabRateModel) rowWin: LabRateModel;
  @ApiProperty({ type: LabRateModel }) @Field(() => LabRateModel) colWin: LabRateModel;
  @ApiProperty({ type: LabRateModel }) @Field(() => LabRateModel) draw: LabRateModel;
  @ApiProperty() @Field(() => Float) averageRounds: number;
  @ApiProperty({ type: LabSidesModel, description: 'Average Wounds dealt per fight by each side' })
  @Field(() => LabSidesModel)
  averageWounds: LabSidesModel;
  @ApiProperty({ type: LabEndingsModel }) @Field(() => LabEndingsModel) endings: LabEndingsModel;
  @ApiProperty({ description: 'Proposals the decider refused (should be 0)' })
  @Field(() => Int)
  illegalProposals: number;
}

@ObjectType()
export class LabResultModel {
  @ApiProperty({ example: 'combat-lab/1' }) @Field() format: string;
  @ApiProperty() @Field() system: string;
  @ApiProperty() @Field() seed: string;
  @ApiProperty() @Field(() => Int) fightsPerCell: number;
  @ApiProperty() @Field(() => Int) roundCap: number;
  @ApiProperty({ type: [String] }) @Field(() => [String]) strategies: string[];
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  @Field(() => [GraphQLJSONObject])
  sheets: Record<string, unknown>[];
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { $ref: getSchemaPath(LabCellModel) } },
    description: 'cells[r][c]: strategies[r] against strategies[c]',
  })
  @Field(() => [[LabCellModel]])
  cells: LabCellModel[][];
}

@ObjectType()
export class LabProgressModel {
  @ApiProperty({ description: 'Fights played' }) @Field(() => Int) done: number;
  @ApiProperty({ description: 'Fights in the run: cells × fights per cell' }) @Field(() => Int) total: number;
}

@ObjectType()
export class LabRunModel {
  @ApiProperty() @Field(() => ID) id: string;
  @ApiProperty({ enum: ['running', 'done', 'failed'] }) @Field() status: string;
  @ApiProperty() @Field() system: string;
  @ApiProperty({ description: 'Fights per cell' }) @Field(() => Int) fights: number;
  @ApiProperty() @Field() seed: string;
  @ApiProperty({ type: [String] }) @Field(() => [String]) strategies: string[];
  @ApiProperty({ type: LabProgressModel }) @Field(() => LabProgressModel) progress: LabProgressModel;
  @ApiProperty() @Field() createdAt: string;
  @ApiProperty({ type: String, nullable: true, description: 'When the run finished; null while running' })
  @Field(() => String, { nullable: true })
  finishedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why a failed run failed; null otherwise' })
  @Field(() => String, { nullable: true })
  error: string | null;
  @ApiProperty({
    type: LabResultModel,
    nullable: true,
    description: 'Once status is done, the same document as the CLI’s lab.json; null until then',
  })
  @Field(() => LabResultModel, { nullable: true })
  result: LabResultModel | null;
}
