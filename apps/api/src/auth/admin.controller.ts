import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyIssuedModel, ApiKeyModel, TenantCreatedModel, TenantModel } from './access.models';
import { IsOptional, IsString, Length } from 'class-validator';
import { AccessService, Principal } from '@app/fights';
import { ErrorModel } from '../common/models';
import { CurrentPrincipal } from './principal.decorator';
import { requireAdmin } from './roles';
import { Location, seg } from '../common/location';

export class CreateTenantDto {
  @ApiProperty({ example: 'Owlbear Tabletop' }) @IsString() @Length(1, 100) name: string;
}

export class IssueKeyDto {
  @ApiPropertyOptional({ example: 'discord bot' }) @IsOptional() @IsString() @Length(1, 100) label?: string;
}

export class KeyQuery {
  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 64) tenantId?: string;
}

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
  @ApiOperation({ summary: 'Every tenant' })
  @ApiOkResponse({ type: [TenantModel] })
  tenants(@CurrentPrincipal() p: Principal) {
    requireAdmin(p);
    return [...this.access.registry.tenants.values()];
  }

  @Post('tenants/:tenantId/keys')
  @Location((r: { keyId: string }) => `/admin/keys/${seg(r.keyId)}`)
  @ApiOperation({ summary: 'Another API key for a tenant (shown only in this response)' })
  @ApiCreatedResponse({ type: ApiKeyIssuedModel })
  async issueKey(@CurrentPrincipal() p: Principal, @Param('tenantId') tenantId: string, @Body() body: IssueKeyDto) {
    requireAdmin(p);
    const key = await this.access.issueKey(tenantId, body.label ?? 'key');
    return { keyId: key.id, apiKey: key.secret };
  }

  @Get('keys')
  @ApiOperation({ summary: 'API keys (never the secrets), optionally of one tenant' })
  @ApiOkResponse({ type: [ApiKeyModel] })
  keys(@CurrentPrincipal() p: Principal, @Query() q: KeyQuery) {
    requireAdmin(p);
    return this.access.listKeys(q.tenantId);
  }

  @Delete('keys/:keyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a key: it stops working at once, also on open subscriptions' })
  @ApiNoContentResponse({ description: 'Revoked (or already revoked)' })
  async revoke(@CurrentPrincipal() p: Principal, @Param('keyId') keyId: string): Promise<void> {
    requireAdmin(p);
    await this.access.revokeKey(keyId);
  }

  @Post('keys/:keyId/rotate')
  @Location((r: { keyId: string }) => `/admin/keys/${seg(r.keyId)}`)
  @ApiOperation({ summary: 'Replace a key with a new one for the same tenant; the old one stops working at once' })
  @ApiCreatedResponse({ type: ApiKeyIssuedModel })
  async rotate(@CurrentPrincipal() p: Principal, @Param('keyId') keyId: string) {
    requireAdmin(p);
    const key = await this.access.rotateKey(keyId);
    return { keyId: key.id, apiKey: key.secret };
  }
}
