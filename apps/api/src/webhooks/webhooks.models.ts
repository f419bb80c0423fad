import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Field, ID, Int, ObjectType } from '@nestjs/graphql';

const PREVIOUS_SECRET_EXPIRES =
  'Until then a previous secret also signs: the end of the last rotation overlap still running (each previous secret signs until its own ends), ISO 8601; null when none runs';
const DISABLED_REASON = 'Why the endpoint was disabled; null while enabled';
const FAILING_SINCE = 'First failure since the last success, ISO 8601; null when none';

@ObjectType({ description: 'A webhook endpoint of the tenant (never its secret)' })
export class WebhookEndpointModel {
  @ApiProperty({ example: 'ep_3f0c…', description: 'The endpoint id' })
  @Field(() => ID, { description: 'The endpoint id' })
  id: string;
  @ApiProperty({ description: 'The http(s) URL deliveries are POSTed to' })
  @Field({ description: 'The http(s) URL deliveries are POSTed to' })
  url: string;
  @ApiProperty({ description: 'Free text for the tenant' })
  @Field({ description: 'Free text for the tenant' })
  description: string;
  @ApiProperty({ type: [String], description: 'Empty: every event type' })
  @Field(() => [String], { description: 'The event types delivered; empty: every event type' })
  eventTypes: string[];
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Null: every fight of the tenant' })
  @Field(() => String, {
    nullable: true,
    description: 'The one fight delivered; null: every fight of the tenant',
  })
  fightId: string | null;
  @ApiProperty({
    description: 'False: nothing is sent or queued; waiting deliveries resume once it is enabled again',
  })
  @Field({
    description: 'False: nothing is sent or queued; waiting deliveries resume once it is enabled again',
  })
  enabled: boolean;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'the receiver answered 410 Gone',
    description: DISABLED_REASON,
  })
  @Field(() => String, { nullable: true, description: DISABLED_REASON })
  disabledReason: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: FAILING_SINCE })
  @Field(() => String, { nullable: true, description: FAILING_SINCE })
  failingSince: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: PREVIOUS_SECRET_EXPIRES })
  @Field(() => String, { nullable: true, description: PREVIOUS_SECRET_EXPIRES })
  previousSecretExpiresAt: string | null;
  @ApiProperty({ description: 'When the endpoint was created, ISO 8601' })
  @Field({ description: 'When the endpoint was created, ISO 8601' })
  createdAt: string;
  @ApiProperty({ description: 'When the endpoint last changed, ISO 8601' })
  @Field({ description: 'When the endpoint last changed, ISO 8601' })
  updatedAt: string;
}

@ObjectType({ description: 'An endpoint with its new signing secret' })
export class WebhookEndpointSecretModel {
  @ApiProperty({ type: WebhookEndpointModel, description: 'The endpoint' })
  @Field(() => WebhookEndpointModel, { description: 'The endpoint' })
  endpoint: WebhookEndpointModel;
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Shown only in this response',
  })
  @Field({ description: 'The signing secret (whsec_…): shown only in this response' })
  secret: string;
}

const DELIVERY_ID = 'The webhook-id header: the same on every attempt';
const NEXT_ATTEMPT = 'When the next attempt is due, ISO 8601; null unless pending';
const LAST_STATUS = 'HTTP status of the last attempt; null before the first or when no response arrived';
const LAST_ERROR = 'Why the last attempt failed; null before the first and after a success';

@ObjectType({ description: 'One event (or ping) queued for one endpoint, and how its sending went' })
export class WebhookDeliveryModel {
  @ApiProperty({ description: DELIVERY_ID })
  @Field(() => ID, { description: DELIVERY_ID })
  id: string;
  @ApiProperty({ description: 'The endpoint id' })
  @Field({ description: 'The endpoint id' })
  endpointId: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Null for a ping' })
  @Field(() => String, { nullable: true, description: 'The fight id; null for a ping' })
  fightId: string | null;
  @ApiProperty({ description: 'The event’s seq in its fight; 0 for a ping' })
  @Field(() => Int, { description: 'The event’s seq in its fight; 0 for a ping' })
  seq: number;
  @ApiProperty({ description: 'The event type, or webhook.ping' })
  @Field({ description: 'The event type, or webhook.ping' })
  eventType: string;
  @ApiProperty({
    enum: ['pending', 'delivered', 'failed'],
    description: 'Pending, delivered or failed (every retry failed)',
  })
  @Field({ description: 'Pending, delivered or failed (every retry failed)' })
  status: string;
  @ApiProperty({ description: 'Attempts made so far' })
  @Field(() => Int, { description: 'Attempts made so far' })
  attempts: number;
  @ApiPropertyOptional({ nullable: true, type: String, description: NEXT_ATTEMPT })
  @Field(() => String, { nullable: true, description: NEXT_ATTEMPT })
  nextAttemptAt: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number, description: LAST_STATUS })
  @Field(() => Int, { nullable: true, description: LAST_STATUS })
  lastStatus: number | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: LAST_ERROR })
  @Field(() => String, { nullable: true, description: LAST_ERROR })
  lastError: string | null;
  @ApiProperty({ description: 'When the delivery was queued, ISO 8601' })
  @Field({ description: 'When the delivery was queued, ISO 8601' })
  createdAt: string;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'When a 2xx answered it, ISO 8601; null until then',
  })
  @Field(() => String, { nullable: true, description: 'When a 2xx answered it, ISO 8601; null until then' })
  deliveredAt: string | null;
}

@ObjectType({
  description: 'A page of the tenant’s webhook endpoints: pass nextCursor as cursor for the next one',
})
export class WebhookEndpointPageModel {
  @Field(() => [WebhookEndpointModel], { description: 'The endpoints of this page, oldest first' })
  items: WebhookEndpointModel[];
  @Field(() => Int, { description: 'The page size asked for (or the default)' }) limit: number;
  @Field(() => String, {
    nullable: true,
    description: 'The next page’s cursor (the same as REST’s X-Next-Cursor); null on the last page',
  })
  nextCursor?: string;
}

@ObjectType({
  description: 'A page of an endpoint’s delivery log: pass nextCursor as cursor for the next one',
})
export class WebhookDeliveryPageModel {
  @Field(() => [WebhookDeliveryModel], { description: 'The deliveries of this page, newest first' })
  items: WebhookDeliveryModel[];
  @Field(() => Int, { description: 'The page size asked for (or the default)' }) limit: number;
  @Field(() => String, {
    nullable: true,
    description: 'The next page’s cursor (the same as REST’s X-Next-Cursor); null on the last page',
  })
  nextCursor?: string;
}

const ATTEMPT_ERROR = 'Why the attempt failed (e.g. HTTP 500, a timeout); null when it succeeded';

@ObjectType({ description: 'One attempt to send a delivery' })
export class WebhookAttemptModel {
  @ApiProperty({ description: '1-based number of the attempt, over the delivery’s life' })
  @Field(() => Int, { description: '1-based number of the attempt, over the delivery’s life' })
  attemptNo: number;
  @ApiProperty({ description: 'When it was sent, ISO 8601' })
  @Field({ description: 'When it was sent, ISO 8601' })
  attemptedAt: string;
  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    description: 'HTTP status; null when no response arrived',
  })
  @Field(() => Int, { nullable: true, description: 'HTTP status; null when no response arrived' })
  status: number | null;
  @ApiProperty({ description: 'How long it took, in ms' })
  @Field(() => Int, { description: 'How long it took, in ms' })
  latencyMs: number;
  @ApiProperty({ description: 'The first 1 KiB of the response body' })
  @Field({ description: 'The first 1 KiB of the response body' })
  responseExcerpt: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: ATTEMPT_ERROR })
  @Field(() => String, { nullable: true, description: ATTEMPT_ERROR })
  error: string | null;
}

@ObjectType({ description: 'A delivery with its body and every attempt' })
export class WebhookDeliveryDetailModel {
  @ApiProperty({ type: WebhookDeliveryModel, description: 'The delivery' })
  @Field(() => WebhookDeliveryModel, { description: 'The delivery' })
  delivery: WebhookDeliveryModel;
  @ApiProperty({ description: 'The exact JSON body sent on every attempt' })
  @Field({ description: 'The exact JSON body sent on every attempt' })
  payload: string;
  @ApiProperty({ type: [WebhookAttemptModel], description: 'Its attempts, in order' })
  @Field(() => [WebhookAttemptModel], { description: 'Its attempts, in order' })
  attempts: WebhookAttemptModel[];
}

@ObjectType({ description: 'How many deliveries a redelivery queued again' })
export class WebhookRequeuedModel {
  @ApiProperty({ description: 'Deliveries queued again' })
  @Field(() => Int, { description: 'Deliveries queued again' })
  requeued: number;
}
