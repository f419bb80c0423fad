import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply as Response, FastifyRequest as Request } from 'fastify';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccessService, Principal } from '@app/fights';
import { WebhookService } from '@app/webhooks';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { ErrorModel } from '../common/models';
import { DEFAULT_OVERLAP_SECONDS, webhookTenant } from './webhooks.access';
import {
  assertEventTypeList,
  CreateWebhookEndpointInput,
  DeliveriesQuery,
  RedeliverSinceInput,
  RotateWebhookSecretInput,
  UpdateWebhookEndpointInput,
} from './webhooks.dto';
import {
  WebhookDeliveryDetailModel,
  WebhookDeliveryModel,
  WebhookEndpointModel,
  WebhookEndpointSecretModel,
  WebhookRequeuedModel,
} from './webhooks.models';
import { Location, seg } from '../common/location';
import { deliveriesPage, linkNext, smallPage } from '../common/pagination';
import { SmallPageQuery, TokenQuery } from '../common/dto';
import { Preconditioned, preconditionsOf } from '../common/preconditions';

/** Webhooks (docs/webhooks.md): endpoints, their delivery log, redelivery and a test ping — for the tenant (GM) only. */
@ApiTags('webhooks')
@ApiBearerAuth()
@ApiResponse({ status: 400, type: ErrorModel })
@ApiResponse({ status: 403, type: ErrorModel })
@ApiResponse({ status: 404, type: ErrorModel })
@Controller('webhooks/endpoints')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhookService,
    private readonly access: AccessService,
  ) {}

  @Post()
  @Location((r: WebhookEndpointSecretModel) => `/webhooks/endpoints/${seg(r.endpoint.id)}`)
  @ApiOperation({ summary: 'Create an endpoint; its signing secret is shown only in this response' })
  @ApiResponse({ status: 201, type: WebhookEndpointSecretModel })
  @ApiResponse({
    status: 422,
    type: ErrorModel,
    description: 'WEBHOOK_URL_NOT_ALLOWED: a private, loopback or link-local target',
  })
  @ApiResponse({
    status: 409,
    type: ErrorModel,
    description:
      'WEBHOOK_ENDPOINT_LIMIT: the tenant already has WEBHOOK_ENDPOINTS_PER_TENANT endpoints (20 unless configured); delete one first',
  })
  create(
    @CurrentPrincipal() p: Principal,
    @Body() body: CreateWebhookEndpointInput,
  ): Promise<WebhookEndpointSecretModel> {
    const tenantId = webhookTenant(this.access, p, body.fightId);
    assertEventTypeList(body.eventTypes);
    return this.webhooks.create(tenantId, body);
  }

  @Get()
  @ApiOperation({
    summary:
      'The tenant’s endpoints (never their secrets), oldest first, 1000 a page unless ?limit= says; the next page is in Link rel="next" and X-Next-Cursor',
  })
  @ApiResponse({ status: 200, type: [WebhookEndpointModel] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Query() q: SmallPageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<WebhookEndpointModel[]> {
    const { items, next } = smallPage(
      'endpoints',
      await this.webhooks.list(webhookTenant(this.access, p)),
      (e) => e.id,
      q,
    );
    linkNext(req, res, next);
    return items;
  }

  @Get(':endpointId')
  @ApiOperation({ summary: 'One endpoint, never its secret (where a created endpoint’s Location points)' })
  @ApiResponse({ status: 200, type: WebhookEndpointModel })
  get(
    @CurrentPrincipal() p: Principal,
    @Param('endpointId') id: string,
    @Query() _query: TokenQuery,
  ): Promise<WebhookEndpointModel> {
    return this.webhooks.get(webhookTenant(this.access, p), id);
  }

  @Patch(':endpointId')
  @ApiOperation({
    summary: 'Change an endpoint; enabled: true re-enables it and its waiting deliveries resume',
  })
  @ApiResponse({ status: 200, type: WebhookEndpointModel })
  @Preconditioned()
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('endpointId') id: string,
    @Body() body: UpdateWebhookEndpointInput,
    @Req() req: Request,
  ): Promise<WebhookEndpointModel> {
    const tenantId = webhookTenant(this.access, p, body.fightId);
    assertEventTypeList(body.eventTypes);
    // Judged before the body's own checks (RFC 9110 section 13.2.2: preconditions come first), and again
    // where the change is made, in its transaction, so that no other change comes between.
    const precondition = preconditionsOf(req.headers);
    if (precondition) precondition(await this.webhooks.get(tenantId, id));
    return this.webhooks.update(tenantId, id, body, precondition);
  }

  @Delete(':endpointId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an endpoint with its deliveries and log' })
  @ApiResponse({ status: 204, description: 'Deleted' })
  @Preconditioned()
  async remove(
    @CurrentPrincipal() p: Principal,
    @Param('endpointId') id: string,
    @Req() req: Request,
  ): Promise<void> {
    const tenantId = webhookTenant(this.access, p);
    await this.webhooks.remove(tenantId, id, preconditionsOf(req.headers));
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'New signing secret (shown once); the old one also signs during the overlap, and each earlier one until its own overlap ends',
  })
  @ApiResponse({ status: 200, type: WebhookEndpointSecretModel })
  @ApiResponse({
    status: 409,
    type: ErrorModel,
    description:
      'WEBHOOK_SECRET_LIMIT: 9 previous secrets already sign; wait for the first overlap to end, or rotate with overlapSeconds 0',
  })
  rotate(
    @CurrentPrincipal() p: Principal,
    @Param('endpointId') id: string,
    @Body() body: RotateWebhookSecretInput,
  ): Promise<WebhookEndpointSecretModel> {
    return this.webhooks.rotateSecret(
      webhookTenant(this.access, p),
      id,
      (body.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS) * 1000,
    );
  }

  @Post(':endpointId/ping')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a webhook.ping and return its first attempt' })
  @ApiResponse({ status: 200, type: WebhookDeliveryDetailModel })
  @ApiResponse({
    status: 409,
    type: ErrorModel,
    description: 'WEBHOOK_ENDPOINT_DISABLED: the endpoint is disabled; enable it first (PATCH enabled: true)',
  })
  ping(
    @CurrentPrincipal() p: Principal,
    @Param('endpointId') id: string,
  ): Promise<WebhookDeliveryDetailModel> {
    return this.webhooks.ping(webhookTenant(this.access, p), id);
  }

  @Get(':endpointId/deliveries')
  @ApiOperation({
    summary: 'The delivery log, newest first; the next page is in Link rel="next" and X-Next-Cursor',
  })
  @ApiResponse({ status: 200, type: [WebhookDeliveryModel] })
  async deliveries(
    @CurrentPrincipal() p: Principal,
    @Param('endpointId') id: string,
    @Query() q: DeliveriesQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<WebhookDeliveryModel[]> {
    const { items, next } = await deliveriesPage(this.webhooks, webhookTenant(this.access, p), id, q);
    linkNext(req, res, next);
    return items;
  }

  @Get(':endpointId/deliveries/:deliveryId')
  @ApiOperation({ summary: 'One delivery: its body and every attempt (status, latency, response excerpt)' })
  @ApiResponse({ status: 200, type: WebhookDeliveryDetailModel })
  delivery(
    @CurrentPrincipal() p: Principal,
    @Param('endpointId') id: string,
    @Param('deliveryId') deliveryId: string,
    @Query() _query: TokenQuery,
  ): Promise<WebhookDeliveryDetailModel> {
    return this.webhooks.delivery(webhookTenant(this.access, p), id, deliveryId);
  }

  @Post(':endpointId/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @Location(
    (_r, req) => `/webhooks/endpoints/${seg(req.params.endpointId)}/deliveries/${seg(req.params.deliveryId)}`,
  )
  @ApiOperation({ summary: 'Send one delivery again (same webhook-id and body), now' })
  @ApiResponse({ status: 202, type: WebhookRequeuedModel })
  redeliver(
    @CurrentPrincipal() p: Principal,
    @Param('endpointId') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookRequeuedModel> {
    return this.webhooks.redeliver(webhookTenant(this.access, p), id, deliveryId);
  }

  @Post(':endpointId/redeliver')
  @HttpCode(202)
  @Location((_r, req) => `/webhooks/endpoints/${seg(req.params.endpointId)}/deliveries`)
  @ApiOperation({ summary: 'Send again every delivery created since a time' })
  @ApiResponse({ status: 202, type: WebhookRequeuedModel })
  redeliverSince(
    @CurrentPrincipal() p: Principal,
    @Param('endpointId') id: string,
    @Body() body: RedeliverSinceInput,
  ): Promise<WebhookRequeuedModel> {
    return this.webhooks.redeliverSince(webhookTenant(this.access, p), id, new Date(body.since));
  }
}
