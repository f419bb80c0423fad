import { EventEmitter } from 'node:events';
import { StoredEvent } from '@app/event-store';
import { hashSecret, parseSecret, sameHash } from './secrets';
import { Principal } from './principal';

export const ADMIN_STREAM = 'auth-admin';
export const tenantStream = (tenantId: string) => `tenant-${tenantId}`;
export const accessStream = (fightId: string) => `access-${fightId}`;
export const ACCESS_PREFIXES = ['auth-', 'tenant-', 'access-'];

/** Verified secrets kept (AccessRegistry.verified): a principal and its secret, well under 1 MB in all. */
const VERIFIED_LIMIT = 10_000;
/** Events that change which secrets are valid: each empties the verified secrets. */
const CREDENTIAL_EVENTS = new Set([
  'AdminKeyRegistered',
  'ApiKeyIssued',
  'ApiKeyRevoked',
  'TokenIssued',
  'TokenRevoked',
]);

export interface KeyRecord {
  keyId: string;
  /** A tenant's id, or 'admin' for an operator key. */
  tenantId: string;
  hash: string;
  label: string;
  createdAt: string;
  revokedAt?: string;
}

export interface TokenRecord {
  tokenId: string;
  fightId: string;
  role: 'player' | 'spectator';
  combatantIds: string[];
  hash: string;
  label: string;
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
}

/** Everything `apply` has folded, as plain data (AccessService keeps it as a snapshot for the next boot). */
export interface RegistrySnapshot {
  tenants: Array<{ tenantId: string; name: string; createdAt: string }>;
  keys: KeyRecord[];
  /** [fightId, tenantId] */
  owners: Array<[string, string]>;
  tokens: TokenRecord[];
}

/** The access streams' events, as the service writes them (access-service.ts) and apply folds them. */
type AccessEvent =
  | { type: 'AdminKeyRegistered'; data: { keyId: string; hash: string } }
  | { type: 'TenantCreated'; data: { tenantId: string; name: string } }
  | { type: 'ApiKeyIssued'; data: { keyId: string; tenantId: string; hash: string; label: string } }
  | { type: 'ApiKeyRevoked'; data: { keyId: string } }
  | { type: 'FightOwned'; data: { fightId: string; tenantId: string } }
  | { type: 'TokenIssued'; data: Omit<TokenRecord, 'createdAt' | 'revokedAt'> }
  | { type: 'TokenRevoked'; data: { tokenId: string } };

/**
 * Keys, tenants, fight ownership and tokens, folded from their own streams of the
 * global log: every instance holds the same picture, and a revocation written by
 * any of them reaches all (the service follows the log, push on commit).
 */
export class AccessRegistry {
  readonly tenants = new Map<string, { tenantId: string; name: string; createdAt: string }>();
  readonly keys = new Map<string, KeyRecord>();
  readonly owners = new Map<string, string>();
  readonly tokens = new Map<string, TokenRecord>();
  private envAdminHash?: string;
  private readonly revocations = new EventEmitter().setMaxListeners(0);
  /**
   * Secrets already verified → their principal, the oldest dropped past VERIFIED_LIMIT: a request with a
   * known key costs a map lookup and the validity check, not a parse and a SHA-256. Emptied whenever a
   * key or token is issued or revoked; expiry is checked on every hit. Unknown secrets are not kept.
   */
  private readonly verified = new Map<string, Principal>();

  constructor(private readonly clock: () => Date = () => new Date()) {}

  /** ADMIN_API_KEY: held in memory as a hash only, never written to the log. */
  setEnvAdminKey(key: string): void {
    this.verified.clear();
    this.envAdminHash = hashSecret(key);
  }

  snapshot(): RegistrySnapshot {
    return {
      tenants: [...this.tenants.values()],
      keys: [...this.keys.values()],
      owners: [...this.owners],
      tokens: [...this.tokens.values()],
    };
  }

  /** Replaces what was folded with a snapshot (an empty registry, at boot); throws on one of another shape. */
  restore(s: RegistrySnapshot): void {
    if (![s.tenants, s.keys, s.owners, s.tokens].every(Array.isArray))
      throw new TypeError('not an access registry snapshot');
    this.clear();
    for (const t of s.tenants) this.tenants.set(t.tenantId, { ...t });
    for (const k of s.keys) this.keys.set(k.keyId, { ...k });
    for (const [fightId, tenantId] of s.owners) this.owners.set(fightId, tenantId);
    for (const t of s.tokens) this.tokens.set(t.tokenId, { ...t, combatantIds: [...t.combatantIds] });
  }

  /** Forgets everything folded (the operator key from the environment stays). */
  clear(): void {
    this.verified.clear();
    this.tenants.clear();
    this.keys.clear();
    this.owners.clear();
    this.tokens.clear();
  }

  hasAdminKey(): boolean {
    return (
      this.envAdminHash !== undefined ||
      [...this.keys.values()].some((k) => k.tenantId === 'admin' && !k.revokedAt)
    );
  }

  /**
   * Folds one access event. Folding an event again changes nothing (the log follower brings again what this
   * instance wrote or read ahead of it, AccessService.learn): a key or token issued again keeps its revocation.
   */
  apply(e: StoredEvent): void {
    if (this.seen(e)) return;
    if (CREDENTIAL_EVENTS.has(e.type)) this.verified.clear();
    const a = { type: e.type, data: e.data } as AccessEvent;
    const at = (e.metadata.at as string | undefined) ?? e.storedAt;
    switch (a.type) {
      case 'AdminKeyRegistered':
        this.keys.set(a.data.keyId, {
          keyId: a.data.keyId,
          tenantId: 'admin',
          hash: a.data.hash,
          label: 'admin',
          createdAt: at,
        });
        break;
      case 'TenantCreated':
        this.tenants.set(a.data.tenantId, { tenantId: a.data.tenantId, name: a.data.name, createdAt: at });
        break;
      case 'ApiKeyIssued':
        this.keys.set(a.data.keyId, {
          keyId: a.data.keyId,
          tenantId: a.data.tenantId,
          hash: a.data.hash,
          label: a.data.label,
          createdAt: at,
        });
        break;
      case 'ApiKeyRevoked':
        this.revoke(this.keys.get(a.data.keyId), a.data.keyId, at);
        break;
      case 'FightOwned':
        this.owners.set(a.data.fightId, a.data.tenantId);
        break;
      case 'TokenIssued': {
        const d = a.data;
        this.tokens.set(d.tokenId, {
          tokenId: d.tokenId,
          fightId: d.fightId,
          role: d.role,
          combatantIds: d.combatantIds,
          hash: d.hash,
          label: d.label,
          createdAt: at,
          expiresAt: d.expiresAt,
        });
        break;
      }
      case 'TokenRevoked':
        this.revoke(this.tokens.get(a.data.tokenId), a.data.tokenId, at);
        break;
    }
  }

  /** Whether `e` is already folded: an issue whose key or token is held, a revocation of one revoked. */
  private seen(e: StoredEvent): boolean {
    const data = e.data as { keyId?: string; tokenId?: string };
    switch (e.type) {
      case 'AdminKeyRegistered':
      case 'ApiKeyIssued':
        return this.keys.has(data.keyId!);
      case 'TokenIssued':
        return this.tokens.has(data.tokenId!);
      case 'ApiKeyRevoked':
        return !!this.keys.get(data.keyId!)?.revokedAt;
      case 'TokenRevoked':
        return !!this.tokens.get(data.tokenId!)?.revokedAt;
      default:
        return false;
    }
  }

  private revoke(record: { revokedAt?: string } | undefined, id: string, at: string): void {
    if (!record || record.revokedAt) return;
    record.revokedAt = at;
    this.revocations.emit(id);
  }

  /** The principal a bearer secret stands for, or undefined. */
  authenticate(secret: string): Principal | undefined {
    const known = this.verified.get(secret);
    if (known) {
      if (this.stillValid(known)) return known;
      this.verified.delete(secret);
      return undefined;
    }
    const principal = this.verify(secret);
    if (principal) {
      this.verified.set(secret, principal);
      if (this.verified.size > VERIFIED_LIMIT) this.verified.delete(this.verified.keys().next().value!);
    }
    return principal;
  }

  /**
   * Whether reading the log could make `secret` valid: it has the shape of a key or token whose id this
   * registry has not folded (one it holds is settled: a wrong secret, revoked, or expired).
   */
  unheardOf(secret: string): boolean {
    const parsed = parseSecret(secret);
    if (!parsed) return false;
    return parsed.kind === 'crs' ? !this.keys.has(parsed.id) : !this.tokens.has(parsed.id);
  }

  private verify(secret: string): Principal | undefined {
    if (this.envAdminHash && sameHash(hashSecret(secret), this.envAdminHash))
      return { kind: 'admin', keyId: 'env' };
    const parsed = parseSecret(secret);
    if (!parsed) return undefined;
    if (parsed.kind === 'crs') {
      const key = this.keys.get(parsed.id);
      if (!key || key.revokedAt || !sameHash(hashSecret(parsed.body), key.hash)) return undefined;
      return key.tenantId === 'admin'
        ? { kind: 'admin', keyId: key.keyId }
        : { kind: 'tenant', tenantId: key.tenantId, keyId: key.keyId };
    }
    const token = this.tokens.get(parsed.id);
    if (!token || !this.tokenUsable(token) || !sameHash(hashSecret(parsed.body), token.hash))
      return undefined;
    return token.role === 'player'
      ? { kind: 'player', fightId: token.fightId, tokenId: token.tokenId, combatantIds: token.combatantIds }
      : { kind: 'spectator', fightId: token.fightId, tokenId: token.tokenId };
  }

  private tokenUsable(t: TokenRecord): boolean {
    return !t.revokedAt && (!t.expiresAt || Date.parse(t.expiresAt) > this.clock().getTime());
  }

  /** Whether a principal authenticated earlier is still valid now (revocation, expiry). */
  stillValid(p: Principal): boolean {
    if (p.kind === 'admin') return p.keyId === 'env' || !this.keys.get(p.keyId)?.revokedAt;
    if (p.kind === 'tenant') return !this.keys.get(p.keyId)?.revokedAt;
    const token = this.tokens.get(p.tokenId);
    return !!token && this.tokenUsable(token);
  }

  /** Calls `listener` once when the key or token is revoked. */
  onRevoked(id: string, listener: () => void): () => void {
    this.revocations.once(id, listener);
    return () => this.revocations.off(id, listener);
  }
}
