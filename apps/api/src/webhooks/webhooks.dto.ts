import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Field, InputType, Int } from '@nestjs/graphql';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { assertEventTypes, WEBHOOK_EVENT_TYPES } from '@app/webhooks';
import { Optional, QueryCursor, QueryInt, refuseRepeat } from '../common/validation';
import { IsDateTime } from '../common/date-time';

/**
 * An absolute http(s) URL as WHATWG's parser reads it: the parser the service stores the URL with and
 * delivers to (assertSafeUrl, fetch). validator.js's isURL disagreed with it both ways: it refused
 * `http://134744072/` (8.8.8.8 written as one number) and hosts with an underscore, which fetch reaches.
 */
const IsHttpUrl = () =>
  ValidateBy({
    name: 'isHttpUrl',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && /^https?:$/.test(URL.parse(value)?.protocol ?? ''),
      defaultMessage: () => 'url must be an absolute http or https URL',
    },
  });
const EVENT_TYPE = /^[A-Za-z][A-Za-z0-9.]{0,59}$/;

/**
 * The endpoint's fields, one decorator each (REST schema, GraphQL type, validation), shared by
 * create and update: only whether a field is required and its description differ.
 */
function UrlField(required: boolean, description?: string): PropertyDecorator {
  return applyDecorators(
    required
      ? ApiProperty({ example: 'https://overlay.example.com/hooks/crs', description })
      : ApiPropertyOptional({ description }),
    Field(() => String, {
      nullable: !required,
      description: description ?? 'The http(s) URL deliveries are POSTed to',
    }),
    ...(required ? [] : [Optional()]),
    IsString(),
    MaxLength(2000),
    IsHttpUrl(),
  );
}

function EventTypesField(description: string, example?: string[]): PropertyDecorator {
  return applyDecorators(
    // Each a known event type, each once (assertEventTypeList): checked by the handler, so declared here.
    ApiPropertyOptional({
      type: [String],
      example,
      description,
      uniqueItems: true,
      items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
    }),
    Field(() => [String], { nullable: true, description }),
    Optional(),
    IsArray(),
    // Each known type once: a list may name them all (an empty one is all of them too).
    ArrayMaxSize(WEBHOOK_EVENT_TYPES.length),
    Matches(EVENT_TYPE, {
      each: true,
      message: 'each value in eventTypes must be an event type name like WoundsApplied',
    }),
  );
}

/**
 * An endpoint's event types, checked before it is made or changed: each an event type (assertEventTypes), and
 * each once: a repeat is 422 INVALID_FIELD naming it (`eventTypes[1]`), as a repeated token's combatantIds
 * entry is, not silently kept once.
 */
export function assertEventTypeList(types: readonly string[] | undefined): void {
  assertEventTypes(types);
  types?.forEach((_, i) => refuseRepeat(types, i, 'eventTypes'));
}

function FightFilterField(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, description }),
    Field(() => String, { nullable: true, description }),
    // docs/webhooks.md: null is a value here, "all the tenant's fights" (it clears the filter).
    IsOptional(),
    IsString(),
    Length(1, 64),
  );
}

function DescriptionField(example?: string): PropertyDecorator {
  const description = 'Free text for the tenant (at most 500 characters)';
  return applyDecorators(
    ApiPropertyOptional({ example, description }),
    Field(() => String, { nullable: true, description }),
    Optional(),
    IsString(),
    MaxLength(500),
  );
}

function EnabledField(options: { default?: boolean; description?: string }): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional(options),
    Field(() => Boolean, { nullable: true, description: options.description }),
    Optional(),
    IsBoolean(),
  );
}

@InputType({ description: 'A new webhook endpoint' })
export class CreateWebhookEndpointInput {
  @UrlField(
    true,
    'http(s); private, loopback and link-local targets are refused unless WEBHOOK_ALLOW_PRIVATE=true',
  )
  url: string;

  @EventTypesField(
    'Event types to receive, each a fight event type of a system (GET /systems/:id lists them); absent or empty: all',
    ['WoundsApplied', 'ActivationStarted'],
  )
  eventTypes?: string[];

  @FightFilterField('Only this fight (one of the tenant’s); absent or null: all the tenant’s fights')
  fightId?: string | null;

  @DescriptionField('OBS overlay')
  description?: string;

  @EnabledField({ default: true, description: 'False: the endpoint is created disabled (default true)' })
  enabled?: boolean;
}

@InputType({ description: 'Changes to a webhook endpoint: only the fields given change' })
export class UpdateWebhookEndpointInput {
  @UrlField(false, 'A new http(s) URL')
  url?: string;

  @EventTypesField(
    'Each a fight event type of a system (GET /systems/:id lists them); empty: all event types',
  )
  eventTypes?: string[];

  @FightFilterField('Only this fight (one of the tenant’s); null: all the tenant’s fights')
  fightId?: string | null;

  @DescriptionField()
  description?: string;

  @EnabledField({ description: 'True re-enables a disabled endpoint: its waiting deliveries resume' })
  enabled?: boolean;
}

@InputType()
export class RotateWebhookSecretInput {
  @ApiPropertyOptional({
    default: 86400,
    minimum: 0,
    maximum: 604800,
    description: 'How long the old secret keeps signing beside the new one',
  })
  @Field(() => Int, { nullable: true })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(604800)
  overlapSeconds?: number;
}

const REDELIVER_SINCE =
  'Every kept delivery created since then is sent again (finished ones older than WEBHOOK_RETENTION_DAYS are pruned)';

@InputType({ description: 'Which deliveries to send again' })
export class RedeliverSinceInput {
  @ApiProperty({ example: '2026-05-01T18:00:00Z', description: REDELIVER_SINCE })
  @Field(() => String, { description: `${REDELIVER_SINCE}; ISO 8601` })
  @IsDateTime()
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
  @QueryInt(1, 200)
  limit?: number;

  @ApiPropertyOptional({
    description: 'Only deliveries created before this time (older paging; a cursor replaces it)',
  })
  @IsOptional()
  @IsDateTime()
  before?: string;

  @QueryCursor() cursor?: string;
}
