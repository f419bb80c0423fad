import { randomUUID } from 'node:crypto';
import { EventStore, NewEvent, StoredEvent, WrongExpectedRevision } from '@app/event-store';
import { AppError, fightNotFound, invalidField } from '../errors';
import type { SnapshotStore } from '../snapshots/snapshot-store';
import {
  ACCESS_PREFIXES,
  accessStream,
  AccessRegistry,
  ADMIN_STREAM,
  KeyRecord,
  RegistrySnapshot,
  tenantStream,
  TokenRecord,
} from './access-registry';
import { Principal } from './principal';
import { newSecret } from './secrets';
import { SpacedPasses } from './spaced-passes';

const forbidden = (message: string, field?: string) => new AppError(403, 'FORBIDDEN', message, field);

/** Writes to one tenant's stream that may come between a rotation's read and its append, before it gives up. */
const ROTATE_ATTEMPTS = 5;

/**
 * Reads of the access streams a secret this instance has not heard of waits for before it is refused
 * (learn): a PostgreSQL read sees only what committed before the oldest transaction still open
 * (docs/event-store.md "never skip a late commit"), so a key another instance has just issued can come a
 * read or two later, while another transaction (a projection's write, say) ends. With LEARN_SPACING_MS
 * between them: about 60 ms of such a wait is borne, and a made-up key is refused after as long.
 */
export const LEARN_READS = 4;
/**
 * The least time between two reads of the access streams for unknown secrets, whoever asks: a flood of
 * made-up keys costs the database one small read per interval, not one per request.
 */
export const LEARN_SPACING_MS = 20;
/**
 * Fights' access streams one such read also reads, for tokens presented on a route of their fight: a
 * stream's read sees every commit at once, whatever transaction is still open. A flood naming many
 * fights has this many read per interval, the others wait for the next.
 */
const LEARN_FIGHTS = 4;

/**
 * The registry's snapshot, a row of the fight snapshot store under a key no fight id takes (fight ids
 * are UUIDs). Its `seq` counts the access events folded into it; its payload holds the head of the log
 * it was read up to. Another version is ignored, and a snapshot that cannot be read is as if absent.
 */
export const REGISTRY_SNAPSHOT_KEY = '~access-registry';
export const REGISTRY_SNAPSHOT_VERSION = 'access-registry-1';

export interface AccessServiceOptions {
  /** Where the registry's snapshot is kept (the event store's own database); none: boot reads every access event. */
  snapshots?: SnapshotStore;
  /** A new snapshot is saved at boot once this many access events were read past the last one. */
  snapshotEvery?: number;
  /**
   * Whether other instances write to the store (PostgreSQL, KurrentDB: the default for those engines): a key,
   * token or fight this instance has not heard of yet is then looked for in the store before it is refused.
   */
  shared?: boolean;
}

export interface IssuedSecret {
  id: string;
  /** Shown once; only its hash is stored. */
  secret: string;
}

/** Tenants, API keys and fight tokens (C3, C11), written as events and folded by the registry. */
export class AccessService {
  /** Where `start` stopped reading the global log: following it from here misses nothing. */
  scannedTo?: string;
  /** A point of the log up to which every access event is folded: where a read for unknown secrets starts. */
  private heardTo?: string;
  private readonly shared: boolean;
  /** Reads of the access streams for unknown secrets, one at a time and LEARN_SPACING_MS apart. */
  private readonly reads: SpacedPasses;

  constructor(
    private readonly store: EventStore,
    readonly registry: AccessRegistry,
    private readonly clock: () => Date = () => new Date(),
    private readonly options: AccessServiceOptions = {},
  ) {
    this.shared = options.shared ?? (store.engine === 'postgres' || store.engine === 'kurrentdb');
    this.reads = new SpacedPasses((fights) => this.readAhead(fights), LEARN_SPACING_MS);
  }

  /**
   * Folds every access stream, read by prefix with the log's head (not the whole log: boot does not
   * grow with the fights' events), from the registry's snapshot on when there is one; returns a newly
   * generated admin key when none existed (print it once).
   */
  async start(adminApiKey?: string): Promise<string | undefined> {
    const saved = await this.loadSnapshot();
    const { events, head } = await this.store.readPrefixed(ACCESS_PREFIXES, { after: saved?.head });
    for (const e of events) this.observe(e);
    this.scannedTo = this.heardTo = head;
    if (head !== undefined && events.length >= (this.options.snapshotEvery ?? 500))
      await this.saveSnapshot(head, (saved?.count ?? 0) + events.length);
    if (adminApiKey) return void this.registry.setEnvAdminKey(adminApiKey);
    if (this.registry.hasAdminKey()) return undefined;
    const key = newSecret('crs');
    try {
      await this.write(ADMIN_STREAM, 'AdminKeyRegistered', { keyId: key.id, hash: key.hash }, 'no_stream');
      return key.secret;
    } catch {
      // Another instance registered the first admin key at the same moment: it printed it.
      for (const e of await this.store.readStream(ADMIN_STREAM)) this.observe(e);
      return undefined;
    }
  }

  private async loadSnapshot(): Promise<{ head: string; count: number } | undefined> {
    try {
      const row = await this.options.snapshots?.load(REGISTRY_SNAPSHOT_KEY);
      if (!row || row.version !== REGISTRY_SNAPSHOT_VERSION) return undefined;
      const { head, registry } = JSON.parse(row.payload) as { head: unknown; registry: RegistrySnapshot };
      if (typeof head !== 'string') return undefined;
      this.registry.restore(registry);
      return { head, count: row.seq };
    } catch {
      // A cache: one that cannot be read is rebuilt from the log.
      this.registry.clear();
      return undefined;
    }
  }

  private async saveSnapshot(head: string, count: number): Promise<void> {
    await this.options.snapshots
      ?.save({
        fightId: REGISTRY_SNAPSHOT_KEY,
        version: REGISTRY_SNAPSHOT_VERSION,
        seq: count,
        payload: JSON.stringify({ head, registry: this.registry.snapshot() }),
        parts: [],
      })
      .catch(() => undefined);
  }

  /** An event of the global log outside the fights' streams, in the log's order (the log follower's). */
  observe(e: StoredEvent): void {
    if (ACCESS_PREFIXES.some((p) => e.stream.startsWith(p))) this.registry.apply(e);
    // Every access event up to this one is folded: a later read for unknown secrets starts here.
    if (e.checkpoint) this.heardTo = e.checkpoint;
  }

  /**
   * The principal a bearer secret stands for, or undefined. A secret this instance has not heard of may be
   * one another instance has just issued and answered: before it is refused, the access streams are read
   * past what the log follower has brought (LEARN_READS reads at most, shared by every request waiting at
   * the time, LEARN_SPACING_MS apart), and for a token, the access stream of `fightId` (the fight the
   * request names) too. A known secret costs no read, nor does one of no key's or token's shape.
   */
  authenticate(secret: string, fightId?: string): Principal | undefined | Promise<Principal | undefined> {
    const principal = this.registry.authenticate(secret);
    if (principal || !this.shared || !this.registry.unheardOf(secret)) return principal;
    return this.learn(secret, secret.startsWith('crt_') ? fightId : undefined);
  }

  private async learn(secret: string, fightId?: string): Promise<Principal | undefined> {
    await this.readUntil(() => !this.registry.unheardOf(secret), fightId);
    return this.registry.authenticate(secret);
  }

  /** Reads of the access streams (shared, spaced) until `known`, LEARN_READS at most; with `fightId`'s too. */
  private async readUntil(known: () => boolean, fightId?: string): Promise<void> {
    for (let i = 0; this.shared && i < LEARN_READS && !known(); i++) {
      // A read that fails (the database is away) teaches nothing: what is not known stays unknown.
      const read = await this.reads.next(fightId).then(
        () => true,
        () => false,
      );
      if (!read) return;
    }
  }

  /** The access events committed since the registry's point of the log, and the access streams of `fights`, folded. */
  private async readAhead(fights: ReadonlySet<string>): Promise<void> {
    const streams = [...fights].slice(0, LEARN_FIGHTS).map((id) => this.readInto(accessStream(id)));
    const [{ events, head }] = await Promise.all([
      this.store.readPrefixed(ACCESS_PREFIXES, { after: this.heardTo }),
      ...streams,
    ]);
    for (const e of events) this.registry.apply(e);
    if (head !== undefined) this.heardTo = head;
  }

  /**
   * Makes sure the registry knows who owns `fightId` when the store does: a fight another instance has just
   * created and answered for may not have reached this one's log follower yet. A fight already known costs
   * nothing; else its access stream is read, as a page of its events would be. Call it before assertRead,
   * assertGm or commandScope for a fight a tenant names.
   */
  knowFight(fightId: string): void | Promise<void> {
    if (this.shared && !this.registry.owners.has(fightId)) return this.readInto(accessStream(fightId));
  }

  /** One access stream read from the store and folded (one that cannot be read teaches nothing). */
  private async readInto(stream: string): Promise<void> {
    const events = await this.store.readStream(stream).catch(() => []);
    for (const e of events) this.registry.apply(e);
  }

  private async write(
    stream: string,
    type: string,
    data: Record<string, unknown>,
    expectedRevision: 'any' | 'no_stream' = 'any',
  ): Promise<void> {
    const event = this.newEvent(type, data);
    await this.store.append(stream, [event], { expectedRevision });
    this.applied(stream, event);
  }

  private newEvent(type: string, data: Record<string, unknown>): NewEvent {
    return { id: randomUUID(), type, data, metadata: { at: this.clock().toISOString() } };
  }

  /** An event this instance appended, folded at once (the log follower brings it again; folding is idempotent). */
  private applied(stream: string, event: NewEvent): void {
    this.registry.apply({
      id: event.id,
      stream,
      revision: 0n,
      type: event.type,
      data: event.data,
      metadata: event.metadata!,
      checkpoint: '',
      storedAt: this.clock().toISOString(),
    });
  }

  async createTenant(name: string): Promise<{ tenantId: string; name: string; key: IssuedSecret }> {
    const tenantId = randomUUID();
    await this.write(tenantStream(tenantId), 'TenantCreated', { tenantId, name }, 'no_stream');
    return { tenantId, name, key: await this.issueKey(tenantId, 'first key') };
  }

  async issueKey(tenantId: string, label: string): Promise<IssuedSecret> {
    // A tenant another instance has just created may not have reached this one's log follower yet.
    if (this.shared && !this.registry.tenants.has(tenantId)) await this.readInto(tenantStream(tenantId));
    if (!this.registry.tenants.has(tenantId))
      throw new AppError(404, 'TENANT_NOT_FOUND', `no tenant ${tenantId}`, 'tenantId');
    const key = newSecret('crs');
    await this.write(tenantStream(tenantId), 'ApiKeyIssued', {
      tenantId,
      keyId: key.id,
      hash: key.hash,
      label,
    });
    return { id: key.id, secret: key.secret };
  }

  async revokeKey(keyId: string): Promise<void> {
    await this.readUntil(() => this.registry.keys.has(keyId));
    const key = this.registry.keys.get(keyId);
    if (!key || key.tenantId === 'admin')
      throw new AppError(404, 'KEY_NOT_FOUND', `no tenant key ${keyId}`, 'keyId');
    if (!key.revokedAt) await this.write(tenantStream(key.tenantId), 'ApiKeyRevoked', { keyId });
  }

  /**
   * A new key for the same tenant; the old one stops working at once. The new key and the old one's
   * revocation are one append at the tenant stream's revision, where the old key is still active: of
   * rotations of one key at the same time (in this instance or another) one issues a key and the others
   * find it revoked (404), so a rotated key never leaves more than one successor.
   */
  async rotateKey(keyId: string): Promise<IssuedSecret> {
    const gone = () => new AppError(404, 'KEY_NOT_FOUND', `no active tenant key ${keyId}`, 'keyId');
    await this.readUntil(() => this.registry.keys.has(keyId));
    const known = this.registry.keys.get(keyId);
    if (!known || known.tenantId === 'admin' || known.revokedAt) throw gone();
    const stream = tenantStream(known.tenantId);
    for (let attempt = 0; ; attempt++) {
      const history = await this.store.readStream(stream);
      const about = (type: string) =>
        history.some((e) => e.type === type && (e.data as { keyId?: unknown }).keyId === keyId);
      const issued = about('ApiKeyIssued');
      const revoked = about('ApiKeyRevoked');
      if (!issued || revoked) throw gone();
      const key = newSecret('crs');
      const events = [
        this.newEvent('ApiKeyIssued', {
          tenantId: known.tenantId,
          keyId: key.id,
          hash: key.hash,
          label: `${known.label} (rotated)`,
        }),
        this.newEvent('ApiKeyRevoked', { keyId }),
      ];
      try {
        await this.store.append(stream, events, { expectedRevision: history[history.length - 1].revision });
      } catch (e) {
        // Another write to the tenant's stream came first: look again (a rotation of this key: it is revoked).
        if (e instanceof WrongExpectedRevision && attempt < ROTATE_ATTEMPTS) continue;
        throw e;
      }
      for (const event of events) this.applied(stream, event);
      return { id: key.id, secret: key.secret };
    }
  }

  /**
   * Every tenant, after one read of the access events this instance has not heard of yet (on a store other
   * instances write to): a tenant another instance has just created is listed.
   */
  async listTenants() {
    if (this.shared) await this.reads.next().catch(() => undefined);
    return [...this.registry.tenants.values()];
  }

  /**
   * Tenant keys as listed: of one tenant, from its stream as it is now (on a store other instances write
   * to); of all, after one read of the access events this instance has not heard of yet.
   */
  async listKeys(tenantId?: string) {
    if (this.shared)
      await (tenantId ? this.readInto(tenantStream(tenantId)) : this.reads.next().catch(() => undefined));
    return [...this.registry.keys.values()]
      .filter((k) => k.tenantId !== 'admin' && (!tenantId || k.tenantId === tenantId))
      .map(keyView);
  }

  /**
   * One tenant key as listed (never its secret), revoked or not; 404 KEY_NOT_FOUND for any other id. A key
   * this instance has not heard of is looked for in the store first, as an unknown secret is.
   */
  async key(keyId: string) {
    await this.readUntil(() => this.registry.keys.has(keyId));
    const key = this.registry.keys.get(keyId);
    if (!key || key.tenantId === 'admin')
      throw new AppError(404, 'KEY_NOT_FOUND', `no tenant key ${keyId}`, 'keyId');
    return keyView(key);
  }

  /** One tenant; 404 TENANT_NOT_FOUND. One another instance has just created is read from its stream. */
  async tenant(tenantId: string) {
    if (this.shared && !this.registry.tenants.has(tenantId)) await this.readInto(tenantStream(tenantId));
    const tenant = this.registry.tenants.get(tenantId);
    if (!tenant) throw new AppError(404, 'TENANT_NOT_FOUND', `no tenant ${tenantId}`, 'tenantId');
    return tenant;
  }

  /**
   * Records `p`'s tenant as the owner of a new fight. A fight this tenant already owns is left as it is: a
   * creation retried with its idempotency key comes back to the fight the first attempt named. Owned by
   * another tenant, it is a conflict (no creation picks another tenant's fight id).
   */
  async ownFight(fightId: string, p: Principal): Promise<void> {
    if (p.kind !== 'tenant') throw forbidden('only a tenant API key can create fights', 'authorization');
    try {
      await this.write(
        accessStream(fightId),
        'FightOwned',
        { fightId, tenantId: p.tenantId, keyId: p.keyId },
        'no_stream',
      );
    } catch (e) {
      if (!(e instanceof WrongExpectedRevision)) throw e;
      // The owner must be read to answer: a read that fails is the store's fault (503), not this tenant's conflict.
      for (const event of await this.store.readStream(accessStream(fightId))) this.registry.apply(event);
      if (this.registry.owners.get(fightId) !== p.tenantId)
        throw new AppError(409, 'CONCURRENCY_CONFLICT', `fight ${fightId} is not this tenant's`, 'fightId');
    }
  }

  async issueToken(
    fightId: string,
    input: { role: 'player' | 'spectator'; combatantIds?: string[]; expiresAt?: string; label?: string },
  ): Promise<IssuedSecret> {
    if (input.role === 'player' && !input.combatantIds?.length)
      throw invalidField('combatantIds', 'combatantIds must name at least one combatant for a player token');
    if (input.role === 'spectator' && input.combatantIds?.length)
      throw invalidField(
        'combatantIds',
        'combatantIds must be empty for a spectator token: it acts for no combatant',
      );
    if (input.expiresAt && Date.parse(input.expiresAt) <= this.clock().getTime())
      throw invalidField('expiresAt', 'expiresAt must be in the future');
    const token = newSecret('crt');
    await this.write(accessStream(fightId), 'TokenIssued', {
      fightId,
      tokenId: token.id,
      role: input.role,
      combatantIds: input.combatantIds ?? [],
      hash: token.hash,
      label: input.label ?? input.role,
      ...(input.expiresAt ? { expiresAt: new Date(input.expiresAt).toISOString() } : {}),
    });
    return { id: token.id, secret: token.secret };
  }

  /** The fight's tokens; on a store other instances write to, from its access stream as it is now. */
  async listTokens(fightId: string) {
    if (this.shared) await this.readInto(accessStream(fightId));
    return [...this.registry.tokens.values()].filter((t) => t.fightId === fightId).map(tokenView);
  }

  /** One token of the fight as listed (never its secret); 404 TOKEN_NOT_FOUND for another fight's. */
  async token(fightId: string, tokenId: string) {
    if (this.shared && !this.registry.tokens.has(tokenId)) await this.readInto(accessStream(fightId));
    const token = this.registry.tokens.get(tokenId);
    if (!token || token.fightId !== fightId)
      throw new AppError(404, 'TOKEN_NOT_FOUND', `no token ${tokenId} for this fight`, 'tokenId');
    return tokenView(token);
  }

  async revokeToken(fightId: string, tokenId: string): Promise<void> {
    if (this.shared && !this.registry.tokens.has(tokenId)) await this.readInto(accessStream(fightId));
    const token = this.registry.tokens.get(tokenId);
    if (!token || token.fightId !== fightId)
      throw new AppError(404, 'TOKEN_NOT_FOUND', `no token ${tokenId} for this fight`, 'tokenId');
    if (!token.revokedAt) await this.write(accessStream(fightId), 'TokenRevoked', { tokenId });
  }

  /** Reading a fight: its tenant, or a token for it. Anyone else is told it does not exist. */
  assertRead(p: Principal, fightId: string): void {
    const owner = this.registry.owners.get(fightId);
    const ok =
      (p.kind === 'tenant' && owner === p.tenantId) ||
      ((p.kind === 'player' || p.kind === 'spectator') && p.fightId === fightId);
    if (!ok) throw fightNotFound(fightId);
  }

  /** The GM of a fight is its tenant (any of its keys, so rotation keeps the fight). */
  assertGm(p: Principal, fightId: string): void {
    this.assertRead(p, fightId);
    if (p.kind !== 'tenant') throw forbidden('only the fight’s GM may do this', 'authorization');
  }

  /** Which combatants a caller may act for: 'all' for the GM (C3). */
  commandScope(p: Principal, fightId: string): 'all' | string[] {
    this.assertRead(p, fightId);
    if (p.kind === 'tenant') return 'all';
    if (p.kind === 'player') return p.combatantIds;
    throw forbidden('a spectator token is read-only', 'authorization');
  }
}

/** A key as the API shows it: never its hash. */
function keyView({ hash: _hash, ...key }: KeyRecord) {
  return { ...key, revokedAt: key.revokedAt ?? null };
}

/** A token as the API shows it: never its hash. */
function tokenView({ hash: _hash, ...token }: TokenRecord) {
  return { ...token, expiresAt: token.expiresAt ?? null, revokedAt: token.revokedAt ?? null };
}
