import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Field, ID, Int, ObjectType } from '@nestjs/graphql';

@ObjectType()
export class WebhookEndpointModel {
  @ApiProperty({ example: 'ep_3f0c…' }) @Field(() => ID) id: string;
  @ApiProperty() @Field() url: string;
  @ApiProperty() @Field() description: string;
  @ApiProperty({ type: [String], description: 'Empty: every event type' })
  @Field(() => [String])
  eventTypes: string[];
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Null: every fight of the tenant' })
  @Field(() => String, { nullable: true })
  fightId: string | null;
  @ApiProperty() @Field() enabled: boolean;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'the receiver answered 410 Gone' })
  @Field(() => String, { nullable: true })
  disabledReason: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'First failure since the last success' })
  @Field(() => String, { nullable: true })
  failingSince: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description:
      'Until then a previous secret also signs: the end of the last rotation overlap still running (each previous secret signs until its own ends)',
  })
  @Field(() => String, { nullable: true })
  previousSecretExpiresAt: string | null;
  @ApiProperty() @Field() createdAt: string;
  @ApiProperty() @Field() updatedAt: string;
}

@ObjectType()
export class WebhookEndpointSecretModel {
  @ApiProperty({ type: WebhookEndpointModel })
  @Field(() => WebhookEndpointModel)
  endpoint: WebhookEndpointModel;
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Shown only in this response',
  })
  @Field()
  secret: string;
}

@ObjectType()
export class WebhookDeliveryModel {
  @ApiProperty({ description: 'The webhook-id header: the same on every attempt' })
  @Field(() => ID)
  id: string;
  @ApiProperty() @Field() endpointId: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Null for a ping' })
  @Field(() => String, { nullable: true })
  fightId: string | null;
  @ApiProperty() @Field(() => Int) seq: number;
  @ApiProperty() @Field() eventType: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) @Field() status: string;
  @ApiProperty() @Field(() => Int) attempts: number;
  @ApiPropertyOptional({ nullable: true, type: String })
  @Field(() => String, { nullable: true })
  nextAttemptAt: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) @Field(() => Int, { nullable: true }) lastStatus:
    number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) @Field(() => String, { nullable: true }) lastError:
    string | null;
  @ApiProperty() @Field() createdAt: string;
  @ApiPropertyOptional({ nullable: true, type: String })
  @Field(() => String, { nullable: true })
  deliveredAt: string | null;
}

@ObjectType({
  description: 'A page of the tenant’s webhook endpoints: pass nextCursor as cursor for the next one',
})
export class WebhookEndpointPageModel {
  @Field(() => [WebhookEndpointModel]) items: WebhookEndpointModel[];
  @Field(() => Int) limit: number;
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
  @Field(() => [WebhookDeliveryModel]) items: WebhookDeliveryModel[];
  @Field(() => Int) limit: number;
  @Field(() => String, {
    nullable: true,
    description: 'The next page’s cursor (the same as REST’s X-Next-Cursor); null on the last page',
  })
  nextCursor?: string;
}

@ObjectType()
export class WebhookAttemptModel {
  @ApiProperty() @Field(() => Int) attemptNo: number;
  @ApiProperty() @Field() attemptedAt: string;
  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    description: 'HTTP status; null when no response arrived',
  })
  @Field(() => Int, { nullable: true })
  status: number | null;
  @ApiProperty() @Field(() => Int) latencyMs: number;
  @ApiProperty({ description: 'The first 1 KiB of the response body' }) @Field() responseExcerpt: string;
  @ApiPropertyOptional({ nullable: true, type: String }) @Field(() => String, { nullable: true }) error:
    string | null;
}

@ObjectType()
export class WebhookDeliveryDetailModel {
  @ApiProperty({ type: WebhookDeliveryModel })
  @Field(() => WebhookDeliveryModel)
  delivery: WebhookDeliveryModel;
  @ApiProperty({ description: 'The exact JSON body sent on every attempt' }) @Field() payload: string;
  @ApiProperty({ type: [WebhookAttemptModel] })
  @Field(() => [WebhookAttemptModel])
  attempts: WebhookAttemptModel[];
}

@ObjectType()
export class WebhookRequeuedModel {
  @ApiProperty({ description: 'Deliveries queued again' }) @Field(() => Int) requeued: number;
}
