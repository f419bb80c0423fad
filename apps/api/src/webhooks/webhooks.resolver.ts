import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { AccessService, invalidField, Principal } from '@app/fights';
import { WebhookService } from '@app/webhooks';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { DEFAULT_OVERLAP_SECONDS, webhookTenant } from './webhooks.access';
import {
  assertEventTypeList,
  CreateWebhookEndpointInput,
  DeliveriesQuery,
  RedeliverSinceInput,
  UpdateWebhookEndpointInput,
} from './webhooks.dto';
import {
  WebhookDeliveryDetailModel,
  WebhookDeliveryModel,
  WebhookDeliveryPageModel,
  WebhookEndpointModel,
  WebhookEndpointPageModel,
  WebhookEndpointSecretModel,
  WebhookRequeuedModel,
} from './webhooks.models';
import { deliveriesPage, encodeCursor, PAGES, smallPage } from '../common/pagination';
import { SmallPageQuery } from '../common/dto';
import { validArguments } from '../common/validation';

/** The REST webhook routes as GraphQL operations: the same service, the same tenant-only rule. */
@Resolver()
export class WebhooksResolver {
  constructor(
    private readonly webhooks: WebhookService,
    private readonly access: AccessService,
  ) {}

  @Query(() => [WebhookEndpointModel], {
    description: 'The tenant’s webhook endpoints (never their secrets)',
  })
  webhookEndpoints(@CurrentPrincipal() p: Principal): Promise<WebhookEndpointModel[]> {
    return this.webhooks.list(webhookTenant(this.access, p));
  }

  @Query(() => WebhookEndpointPageModel, {
    description:
      'The tenant’s webhook endpoints, oldest first, a page at a time: pass nextCursor back as cursor (the same cursor as REST’s X-Next-Cursor)',
  })
  async webhookEndpointsPage(
    @CurrentPrincipal() p: Principal,
    @Args('limit', {
      type: () => Int,
      nullable: true,
      description: `Endpoints per page (1 to ${PAGES.small.max}; default ${PAGES.small.fallback})`,
    })
    limit?: number,
    @Args('cursor', { type: () => String, nullable: true, description: 'nextCursor of the page before' })
    cursor?: string,
  ): Promise<WebhookEndpointPageModel> {
    // Refused as GET /webhooks/endpoints refuses the same parameters, never clamped.
    const q = await validArguments(SmallPageQuery, { limit });
    const page = smallPage(
      'endpoints',
      await this.webhooks.list(webhookTenant(this.access, p)),
      (e) => e.id,
      { limit: q.limit ?? PAGES.small.fallback, cursor },
    );
    return { items: page.items, limit: page.limit, nextCursor: page.next && encodeCursor(page.next) };
  }

  @Query(() => WebhookEndpointModel, {
    description: 'One of the tenant’s webhook endpoints (never its secret)',
  })
  webhookEndpoint(
    @CurrentPrincipal() p: Principal,
    @Args('endpointId', { type: () => ID, description: 'The endpoint id' }) id: string,
  ): Promise<WebhookEndpointModel> {
    return this.webhooks.get(webhookTenant(this.access, p), id);
  }

  @Query(() => [WebhookDeliveryModel], {
    description:
      'An endpoint’s delivery log, newest first (the newest `limit`); webhookDeliveriesPage pages through all of it',
  })
  async webhookDeliveries(
    @CurrentPrincipal() p: Principal,
    @Args('endpointId', { type: () => ID, description: 'The endpoint id' }) id: string,
    @Args('status', {
      nullable: true,
      description: 'Only deliveries in this status: pending, delivered or failed',
    })
    status?: string,
    @Args('limit', {
      type: () => Int,
      nullable: true,
      description: `Deliveries at most (1 to ${PAGES.deliveries.max}; default ${PAGES.deliveries.fallback})`,
    })
    limit?: number,
  ): Promise<WebhookDeliveryModel[]> {
    // An unknown status or a limit out of range is refused as REST's ?status / ?limit, never dropped or clamped.
    const q = await validArguments(DeliveriesQuery, { status, limit });
    return this.webhooks.deliveries(webhookTenant(this.access, p), id, {
      status: q.status,
      limit: q.limit ?? PAGES.deliveries.fallback,
    });
  }

  @Query(() => WebhookDeliveryPageModel, {
    description:
      'An endpoint’s delivery log, newest first, a page at a time: pass nextCursor back as cursor (the same cursor as REST’s X-Next-Cursor)',
  })
  async webhookDeliveriesPage(
    @CurrentPrincipal() p: Principal,
    @Args('endpointId', { type: () => ID, description: 'The endpoint id' }) id: string,
    @Args('status', { nullable: true, description: 'pending, delivered or failed' }) status?: string,
    @Args('fightId', { type: () => ID, nullable: true, description: 'Only deliveries of this fight' })
    fightId?: string,
    @Args('limit', {
      type: () => Int,
      nullable: true,
      description: `Deliveries per page (1 to ${PAGES.deliveries.max}; default ${PAGES.deliveries.fallback})`,
    })
    limit?: number,
    @Args('cursor', { type: () => String, nullable: true, description: 'nextCursor of the page before' })
    cursor?: string,
  ): Promise<WebhookDeliveryPageModel> {
    const q = await validArguments(DeliveriesQuery, { status, fightId, limit });
    const page = await deliveriesPage(this.webhooks, webhookTenant(this.access, p), id, {
      status: q.status,
      fightId: q.fightId,
      limit: q.limit ?? PAGES.deliveries.fallback,
      cursor,
    });
    return { items: page.items, limit: page.limit, nextCursor: page.next && encodeCursor(page.next) };
  }

  @Query(() => WebhookDeliveryDetailModel, { description: 'One delivery with its body and attempts' })
  webhookDelivery(
    @CurrentPrincipal() p: Principal,
    @Args('endpointId', { type: () => ID, description: 'The endpoint id' }) id: string,
    @Args('deliveryId', { type: () => ID, description: 'The delivery id (its webhook-id)' })
    deliveryId: string,
  ): Promise<WebhookDeliveryDetailModel> {
    return this.webhooks.delivery(webhookTenant(this.access, p), id, deliveryId);
  }

  @Mutation(() => WebhookEndpointSecretModel, {
    description: 'Create an endpoint; its secret is shown only here',
  })
  createWebhookEndpoint(
    @CurrentPrincipal() p: Principal,
    @Args('input', { description: 'The new endpoint' }) input: CreateWebhookEndpointInput,
  ): Promise<WebhookEndpointSecretModel> {
    const tenantId = webhookTenant(this.access, p, input.fightId);
    assertEventTypeList(input.eventTypes);
    return this.webhooks.create(tenantId, input);
  }

  @Mutation(() => WebhookEndpointModel, {
    description: 'Change an endpoint; enabled: true re-enables it and its waiting deliveries resume',
  })
  updateWebhookEndpoint(
    @CurrentPrincipal() p: Principal,
    @Args('endpointId', { type: () => ID, description: 'The endpoint id' }) id: string,
    @Args('input', { description: 'The fields to change' }) input: UpdateWebhookEndpointInput,
  ): Promise<WebhookEndpointModel> {
    const tenantId = webhookTenant(this.access, p, input.fightId);
    assertEventTypeList(input.eventTypes);
    return this.webhooks.update(tenantId, id, input);
  }

  @Mutation(() => Boolean, {
    description: 'Delete an endpoint with its deliveries and their log; true once deleted',
  })
  async deleteWebhookEndpoint(
    @CurrentPrincipal() p: Principal,
    @Args('endpointId', { type: () => ID, description: 'The endpoint id' }) id: string,
  ): Promise<boolean> {
    await this.webhooks.remove(webhookTenant(this.access, p), id);
    return true;
  }

  @Mutation(() => WebhookEndpointSecretModel, {
    description:
      'New secret (shown once); the old one also signs for overlapSeconds (default a day), and each earlier one until its own overlap ends',
  })
  rotateWebhookSecret(
    @CurrentPrincipal() p: Principal,
    @Args('endpointId', { type: () => ID, description: 'The endpoint id' }) id: string,
    @Args('overlapSeconds', {
      type: () => Int,
      nullable: true,
      description:
        'How long the old secret keeps signing beside the new one, in seconds (0 to 604800; default 86400)',
    })
    overlapSeconds?: number,
  ): Promise<WebhookEndpointSecretModel> {
    // The same bounds as REST's RotateWebhookSecretInput, refused alike (422 INVALID_FIELD), not clamped;
    // an explicit null is no value there either (absent is the default).
    if (overlapSeconds === null)
      throw invalidField('overlapSeconds', 'overlapSeconds must be an integer number, not null');
    const overlap = overlapSeconds ?? DEFAULT_OVERLAP_SECONDS;
    if (overlap < 0 || overlap > 604_800)
      throw invalidField('overlapSeconds', 'overlapSeconds must be from 0 to 604800 (7 days)');
    return this.webhooks.rotateSecret(webhookTenant(this.access, p), id, overlap * 1000);
  }

  @Mutation(() => WebhookDeliveryDetailModel, {
    description: 'Send a webhook.ping and return its first attempt',
  })
  pingWebhookEndpoint(
    @CurrentPrincipal() p: Principal,
    @Args('endpointId', { type: () => ID, description: 'The endpoint id' }) id: string,
  ): Promise<WebhookDeliveryDetailModel> {
    return this.webhooks.ping(webhookTenant(this.access, p), id);
  }

  @Mutation(() => WebhookRequeuedModel, {
    description: 'Send a delivery again now: same webhook-id, same body, a fresh retry schedule',
  })
  redeliverWebhook(
    @CurrentPrincipal() p: Principal,
    @Args('endpointId', { type: () => ID, description: 'The endpoint id' }) id: string,
    @Args('deliveryId', { type: () => ID, description: 'The delivery id (its webhook-id)' })
    deliveryId: string,
  ): Promise<WebhookRequeuedModel> {
    return this.webhooks.redeliver(webhookTenant(this.access, p), id, deliveryId);
  }

  @Mutation(() => WebhookRequeuedModel, {
    description: 'Send again every delivery of the endpoint created since a time and still kept',
  })
  redeliverWebhooksSince(
    @CurrentPrincipal() p: Principal,
    @Args('endpointId', { type: () => ID, description: 'The endpoint id' }) id: string,
    @Args('input', { description: 'Since when' }) input: RedeliverSinceInput,
  ): Promise<WebhookRequeuedModel> {
    return this.webhooks.redeliverSince(webhookTenant(this.access, p), id, new Date(input.since));
  }
}
