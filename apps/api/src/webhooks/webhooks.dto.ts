import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Field, InputType, Int } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUrl, Length, Matches, Max, MaxLength, Min } from 'class-validator';

const URL_RULE = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_valid_protocol: true };
const EVENT_TYPE = /^[A-Za-z][A-Za-z0-9.]{0,59}$/;

@InputType()
export class CreateWebhookEndpointInput {
  @ApiProperty({ example: 'https://overlay.example.com/hooks/crs', description: 'http(s); private, loopback and link-local targets are refused unless WEBHOOK_ALLOW_PRIVATE=true' })
  @Field(() => String)
  @IsString()
  @MaxLength(2000)
  @IsUrl(URL_RULE, { message: 'url must be an absolute http or https URL' })
  url: string;

  @ApiPropertyOptional({ type: [String], example: ['WoundsApplied', 'ActivationStarted'], description: 'Event types to receive; absent or empty: all' })
  @Field(() => [String], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(EVENT_TYPE, { each: true, message: 'each event type is a name like WoundsApplied' })
  eventTypes?: string[];

  @ApiPropertyOptional({ nullable: true, description: 'Only this fight (one of the tenant’s); absent or null: all the tenant’s fights' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  fightId?: string | null;

  @ApiPropertyOptional({ example: 'OBS overlay' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ default: true })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

@InputType()
export class UpdateWebhookEndpointInput {
  @ApiPropertyOptional()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @IsUrl(URL_RULE, { message: 'url must be an absolute http or https URL' })
  url?: string;

  @ApiPropertyOptional({ type: [String], description: 'Empty: all event types' })
  @Field(() => [String], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(EVENT_TYPE, { each: true, message: 'each event type is a name like WoundsApplied' })
  eventTypes?: string[];

  @ApiPropertyOptional({ nullable: true, description: 'null: all the tenant’s fights' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  fightId?: string | null;

  @ApiPropertyOptional()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ description: 'true re-enables a disabled endpoint: its waiting deliveries resume' })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

@InputType()
export class RotateWebhookSecretInput {
  @ApiPropertyOptional({ default: 86400, minimum: 0, maximum: 604800, description: 'How long the old secret keeps signing beside the new one' })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(604800)
  overlapSeconds?: number;
}

@InputType()
export class RedeliverSinceInput {
  @ApiProperty({ example: '2026-05-01T18:00:00Z', description: 'Every delivery created since then is sent again' })
  @Field(() => String)
  @IsISO8601()
  since: string;
}

export class DeliveriesQuery {
  @ApiPropertyOptional({ description: 'A key for clients that cannot send Authorization' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  token?: string;

  @ApiPropertyOptional({ enum: ['pending', 'delivered', 'failed'] })
  @IsOptional()
  @IsIn(['pending', 'delivered', 'failed'])
  status?: 'pending' | 'delivered' | 'failed';

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 64)
  fightId?: string;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 200 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @ApiPropertyOptional({ description: 'Only deliveries created before this time (paging back)' })
  @IsOptional()
  @IsISO8601()
  before?: string;
}
