import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply as Response, FastifyRequest as Request } from 'fastify';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyIssuedModel, ApiKeyModel, TenantCreatedModel, TenantModel } from './access.models';
import { IsOptional, IsString, Length } from 'class-validator';
import { AccessService, AppError, Principal } from '@app/fights';
import { ErrorModel } from '../common/models';
import { CurrentPrincipal } from './principal.decorator';
import { requireAdmin } from './roles';
import { Optional } from '../common/validation';
import { Location, seg } from '../common/location';
import { SmallPageQuery, TokenQuery } from '../common/dto';
import { linkNext, smallPage } from '../common/pagination';
import { checkPreconditions, Preconditioned } from '../common/preconditions';

export class CreateTenantDto {
  @ApiProperty({ example: 'Owlbear Tabletop' }) @IsString() @Length(1, 100) name: string;
}

export class IssueKeyDto {
  @ApiPropertyOptional({ example: 'discord bot' }) @Optional() @IsString() @Length(1, 100) label?: string;
}

export class KeyQuery extends SmallPageQuery {
  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 64) tenantId?: string;
}

/** 409: a key GET /admin/keys/:keyId shows as revoked cannot be rotated; `access.key` has already answered 404 for any other id. */
const keyRevoked = (key: { keyId: string; tenantId: string }) =>
  new AppError(
    409,
    'KEY_REVOKED',
    `key ${key.keyId} is revoked (a rotated key is too); issue a new key with POST /admin/tenants/${key.tenantId}/keys`,
    'keyId',
  );

/** The operator: tenants and their API keys. Keys are shown once, then only listed. */
@ApiTags('admin')
@ApiBearerAuth()
@ApiResponse({ status: 403, type: ErrorModel, description: 'ADMIN_ONLY' })
@Controller('admin')
export class AdminController {
  constructor(private readonly access: AccessService) {}

  @Post('tenants')
  @Location((r: { tenantId: string }) => `/admin/tenants/${seg(r.tenantId)}`)
  @ApiOperation({ summary: 'Create a tenant and its first API key (the key is shown only in this response)' })
  @ApiCreatedResponse({ type: TenantCreatedModel })
  async createTenant(@CurrentPrincipal() p: Principal, @Body() body: CreateTenantDto) {
    requireAdmin(p);
    const { tenantId, name, key } = await this.access.createTenant(body.name);
    return { tenantId, name, keyId: key.id, apiKey: key.secret };
  }

  @Get('tenants')
  @ApiOperation({
    summary:
      'Every tenant, oldest first, 1000 a page unless ?limit= says; the next page is in Link rel="next" and X-Next-Cursor',
  })
  @ApiOkResponse({ type: [TenantModel] })
  async tenants(
    @CurrentPrincipal() p: Principal,
    @Query() q: SmallPageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    requireAdmin(p);
    const { items, next } = smallPage('tenants', await this.access.listTenants(), (t) => t.tenantId, q);
    linkNext(req, res, next);
    return items;
  }

  @Get('tenants/:tenantId')
  @ApiOperation({ summary: 'One tenant (where POST /admin/tenants’s Location points)' })
  @ApiOkResponse({ type: TenantModel })
  @ApiResponse({ status: 404, type: ErrorModel, description: 'TENANT_NOT_FOUND' })
  async tenant(
    @CurrentPrincipal() p: Principal,
    @Param('tenantId') tenantId: string,
    @Query() _query: TokenQuery,
  ) {
    requireAdmin(p);
    return this.access.tenant(tenantId);
  }

  @Post('tenants/:tenantId/keys')
  @Location((r: { keyId: string }) => `/admin/keys/${seg(r.keyId)}`)
  @ApiOperation({ summary: 'Another API key for a tenant (shown only in this response)' })
  @ApiCreatedResponse({ type: ApiKeyIssuedModel })
  @ApiResponse({ status: 404, type: ErrorModel, description: 'TENANT_NOT_FOUND' })
  async issueKey(
    @CurrentPrincipal() p: Principal,
    @Param('tenantId') tenantId: string,
    @Body() body: IssueKeyDto,
  ) {
    requireAdmin(p);
    const key = await this.access.issueKey(tenantId, body.label ?? 'key');
    return { keyId: key.id, apiKey: key.secret };
  }

  @Get('keys')
  @ApiOperation({
    summary:
      'API keys (never the secrets), optionally of one tenant; oldest first, 1000 a page unless ?limit= says, the next page in Link rel="next" and X-Next-Cursor',
  })
  @ApiOkResponse({ type: [ApiKeyModel] })
  async keys(
    @CurrentPrincipal() p: Principal,
    @Query() q: KeyQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    requireAdmin(p);
    const { items, next } = smallPage('keys', await this.access.listKeys(q.tenantId), (k) => k.keyId, q);
    linkNext(req, res, next);
    return items;
  }

  @Get('keys/:keyId')
  @ApiOperation({
    summary: 'One API key, never its secret (where an issued or rotated key’s Location points)',
  })
  @ApiOkResponse({ type: ApiKeyModel })
  @ApiResponse({ status: 404, type: ErrorModel, description: 'KEY_NOT_FOUND' })
  async key(@CurrentPrincipal() p: Principal, @Param('keyId') keyId: string, @Query() _query: TokenQuery) {
    requireAdmin(p);
    return this.access.key(keyId);
  }

  @Delete('keys/:keyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a key: it stops working at once, also on open subscriptions' })
  @ApiNoContentResponse({ description: 'Revoked (or already revoked)' })
  @ApiResponse({ status: 404, type: ErrorModel, description: 'KEY_NOT_FOUND' })
  @Preconditioned()
  async revoke(
    @CurrentPrincipal() p: Principal,
    @Param('keyId') keyId: string,
    @Req() req: Request,
  ): Promise<void> {
    requireAdmin(p);
    await checkPreconditions(req.headers, async () => this.access.key(keyId));
    await this.access.revokeKey(keyId);
  }

  @Post('keys/:keyId/rotate')
  @Location((r: { keyId: string }) => `/admin/keys/${seg(r.keyId)}`)
  @ApiOperation({
    summary: 'Replace a key with a new one for the same tenant; the old one stops working at once',
  })
  @ApiCreatedResponse({ type: ApiKeyIssuedModel })
  @ApiResponse({ status: 404, type: ErrorModel, description: 'KEY_NOT_FOUND: no tenant key has this id' })
  @ApiResponse({
    status: 409,
    type: ErrorModel,
    description: 'KEY_REVOKED: the key is revoked (a rotated key is too); issue a new one instead',
  })
  async rotate(@CurrentPrincipal() p: Principal, @Param('keyId') keyId: string) {
    requireAdmin(p);
    try {
      const key = await this.access.rotateKey(keyId);
      return { keyId: key.id, apiKey: key.secret };
    } catch (e) {
      // rotateKey refuses a revoked key (also one a rotation at the same time revoked) as not found; GET shows it.
      if (e instanceof AppError && e.code === 'KEY_NOT_FOUND') throw keyRevoked(await this.access.key(keyId));
      throw e;
    }
  }
}
