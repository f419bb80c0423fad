import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** What creating a tenant answers: its first API key, shown only here. */
export class TenantCreatedModel {
  @ApiProperty() tenantId: string;
  @ApiProperty() name: string;
  @ApiProperty() keyId: string;
  @ApiProperty({ description: 'The API key (`crs_…`); only its hash is stored.' }) apiKey: string;
}

export class TenantModel {
  @ApiProperty() tenantId: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** A new or rotated API key, shown only here. */
export class ApiKeyIssuedModel {
  @ApiProperty() keyId: string;
  @ApiProperty({ description: 'The API key (`crs_…`); only its hash is stored.' }) apiKey: string;
}

export class ApiKeyModel {
  @ApiProperty() keyId: string;
  @ApiProperty() tenantId: string;
  @ApiProperty() label: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
}

/** A new fight token, shown only here. */
export class TokenIssuedModel {
  @ApiProperty() tokenId: string;
  @ApiProperty({ description: 'The fight token (`crt_…`); only its hash is stored.' }) token: string;
  @ApiProperty({ enum: ['player', 'spectator'] }) role: 'player' | 'spectator';
  @ApiProperty({ type: [String] }) combatantIds: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: string | null;
}

export class TokenModel {
  @ApiProperty() tokenId: string;
  @ApiProperty() fightId: string;
  @ApiProperty({ enum: ['player', 'spectator'] }) role: 'player' | 'spectator';
  @ApiProperty({ type: [String] }) combatantIds: string[];
  @ApiProperty() label: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) expiresAt: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
}
