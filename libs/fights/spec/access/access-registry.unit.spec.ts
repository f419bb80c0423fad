import type { StoredEvent } from '@app/event-store';
import { AccessRegistry } from '../../src/access/access-registry';
import { newSecret } from '../../src/access/secrets';

let position = 0;
const event = (type: string, data: Record<string, unknown>, at = '2026-01-01T00:00:00.000Z'): StoredEvent =>
  ({
    type,
    data,
    metadata: { at },
    storedAt: at,
    stream: 'auth-admin',
    seq: ++position,
    checkpoint: String(position),
  }) as unknown as StoredEvent;

describe('AccessRegistry: verified secrets are remembered, never past their validity', () => {
  it('given a tenant key used before, when the key is revoked, then the same secret is refused at once', () => {
    const registry = new AccessRegistry();
    const key = newSecret('crs');
    registry.apply(event('TenantCreated', { tenantId: 't1', name: 'Table' }));
    registry.apply(event('ApiKeyIssued', { keyId: key.id, tenantId: 't1', hash: key.hash, label: 'gm' }));
    expect(registry.authenticate(key.secret)).toEqual({ kind: 'tenant', tenantId: 't1', keyId: key.id });
    expect(registry.authenticate(key.secret)).toEqual({ kind: 'tenant', tenantId: 't1', keyId: key.id });
    registry.apply(event('ApiKeyRevoked', { keyId: key.id }));
    expect(registry.authenticate(key.secret)).toBeUndefined();
  });

  it('given a fight token used before, when its expiry passes, then the same secret is refused', () => {
    let now = new Date('2026-01-01T00:00:00.000Z');
    const registry = new AccessRegistry(() => now);
    const token = newSecret('crt');
    registry.apply(
      event('TokenIssued', {
        tokenId: token.id,
        fightId: 'f1',
        role: 'spectator',
        combatantIds: [],
        hash: token.hash,
        label: 'obs',
        expiresAt: '2026-01-01T01:00:00.000Z',
      }),
    );
    expect(registry.authenticate(token.secret)).toEqual({
      kind: 'spectator',
      fightId: 'f1',
      tokenId: token.id,
    });
    now = new Date('2026-01-01T01:00:01.000Z');
    expect(registry.authenticate(token.secret)).toBeUndefined();
  });

  it('given a known key id, when the secret differs from the one issued, then it is refused (a hit is by the whole secret)', () => {
    const registry = new AccessRegistry();
    const key = newSecret('crs');
    registry.apply(event('ApiKeyIssued', { keyId: key.id, tenantId: 't1', hash: key.hash, label: 'gm' }));
    expect(registry.authenticate(key.secret)).toBeDefined();
    const forged = `crs_${key.id}_${'A'.repeat(43)}`;
    expect(registry.authenticate(forged)).toBeUndefined();
  });

  it('given the operator key from the environment, when it is replaced, then the old one is refused', () => {
    const registry = new AccessRegistry();
    registry.setEnvAdminKey('first-admin-key-0123456789abcdef');
    expect(registry.authenticate('first-admin-key-0123456789abcdef')).toEqual({
      kind: 'admin',
      keyId: 'env',
    });
    registry.setEnvAdminKey('second-admin-key-0123456789abcdef');
    expect(registry.authenticate('first-admin-key-0123456789abcdef')).toBeUndefined();
    expect(registry.authenticate('second-admin-key-0123456789abcdef')).toEqual({
      kind: 'admin',
      keyId: 'env',
    });
  });
});

describe('AccessRegistry: an access event folded again changes nothing', () => {
  it('given a key issued and revoked, when its issue is folded again (the log follower brings what this instance wrote or read ahead), then it stays revoked', () => {
    const registry = new AccessRegistry();
    const key = newSecret('crs');
    const issued = event('ApiKeyIssued', { keyId: key.id, tenantId: 't1', hash: key.hash, label: 'gm' });
    const revoked = event('ApiKeyRevoked', { keyId: key.id }, '2026-01-01T00:01:00.000Z');
    registry.apply(issued);
    registry.apply(revoked);
    registry.apply(issued);
    expect(registry.authenticate(key.secret)).toBeUndefined();
    registry.apply(event('ApiKeyRevoked', { keyId: key.id }, '2026-01-01T00:02:00.000Z'));
    expect(registry.keys.get(key.id)?.revokedAt).toBe('2026-01-01T00:01:00.000Z');
  });

  it('given a token issued and revoked, when its issue is folded again, then it stays revoked', () => {
    const registry = new AccessRegistry();
    const token = newSecret('crt');
    const issued = event('TokenIssued', {
      tokenId: token.id,
      fightId: 'f1',
      role: 'spectator',
      combatantIds: [],
      hash: token.hash,
      label: 'obs',
    });
    registry.apply(issued);
    registry.apply(event('TokenRevoked', { tokenId: token.id }));
    registry.apply(issued);
    expect(registry.authenticate(token.secret)).toBeUndefined();
  });

  it('given secrets of every shape, then only a key or token id it has not folded is one the log could still make valid (unheardOf)', () => {
    const registry = new AccessRegistry();
    const key = newSecret('crs');
    registry.apply(event('ApiKeyIssued', { keyId: key.id, tenantId: 't1', hash: key.hash, label: 'gm' }));
    expect(registry.unheardOf(newSecret('crs').secret)).toBe(true);
    expect(registry.unheardOf(newSecret('crt').secret)).toBe(true);
    expect(registry.unheardOf(key.secret)).toBe(false);
    expect(registry.unheardOf(`crs_${key.id}_${'A'.repeat(43)}`)).toBe(false);
    expect(registry.unheardOf('not-a-key')).toBe(false);
    expect(registry.unheardOf(`crt_${key.id}_${'A'.repeat(43)}`)).toBe(true);
  });
});
