import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { TokenRole } from '../common/graphql-enums';

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

const TOKEN_ID = 'The token id: where GET /fights/:id/tokens/:tokenId and fightToken find it';
const ROLE = 'Player (acts for its combatants) or spectator (reads only)';
const COMBATANT_IDS = 'The combatants a player token acts for; empty for a spectator token';
const EXPIRES_AT = 'When the token stops working, ISO 8601; null when it never expires';

/** A new fight token, shown only here. */
@ObjectType('IssuedFightToken', { description: 'A new fight token; its secret is shown only here' })
export class TokenIssuedModel {
  @ApiProperty()
  @Field(() => ID, { description: TOKEN_ID })
  tokenId: string;
  @ApiProperty({ description: 'The fight token (`crt_…`); only its hash is stored.' })
  @Field({ description: 'The fight token (`crt_…`), shown only here: only its hash is stored' })
  token: string;
  @ApiProperty({ enum: ['player', 'spectator'] })
  @Field(() => TokenRole, { description: ROLE })
  role: TokenRole;
  @ApiProperty({ type: [String] })
  @Field(() => [String], { description: COMBATANT_IDS })
  combatantIds: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true, description: EXPIRES_AT })
  expiresAt: string | null;
}

@ObjectType('FightToken', { description: 'A player or spectator token of a fight (never its secret)' })
export class TokenModel {
  @ApiProperty()
  @Field(() => ID, { description: TOKEN_ID })
  tokenId: string;
  @ApiProperty()
  @Field(() => ID, { description: 'The fight it opens' })
  fightId: string;
  @ApiProperty({ enum: ['player', 'spectator'] })
  @Field(() => TokenRole, { description: ROLE })
  role: TokenRole;
  @ApiProperty({ type: [String] })
  @Field(() => [String], { description: COMBATANT_IDS })
  combatantIds: string[];
  @ApiProperty()
  @Field({ description: 'The label it was issued with (its role when none was given)' })
  label: string;
  @ApiProperty({ format: 'date-time' })
  @Field({ description: 'When it was issued, ISO 8601' })
  createdAt: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true, description: EXPIRES_AT })
  expiresAt: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, {
    nullable: true,
    description: 'When it was revoked, ISO 8601; null while it is not',
  })
  revokedAt: string | null;
}

/** GraphQL's page of a fight's tokens; REST sends the same items as a bare array, the cursor in X-Next-Cursor. */
@ObjectType('FightTokenPage', {
  description: 'A page of a fight’s tokens, oldest first: pass nextCursor as cursor for the next one',
})
export class FightTokenPageModel {
  @Field(() => [TokenModel], { description: 'The tokens of this page, oldest first (never their secrets)' })
  items: TokenModel[];
  @Field(() => Int, { description: 'The page size asked for (or the default)' })
  limit: number;
  @Field(() => String, {
    nullable: true,
    description: 'The next page’s cursor (the same as REST’s X-Next-Cursor); null on the last page',
  })
  nextCursor?: string;
}
