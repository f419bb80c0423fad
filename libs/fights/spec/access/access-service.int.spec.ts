import { InMemoryEventStore, type EventStore } from '@app/event-store';
import { AccessRegistry } from '../../src/access/access-registry';
import {
  AccessService,
  REGISTRY_SNAPSHOT_KEY,
  REGISTRY_SNAPSHOT_VERSION,
} from '../../src/access/access-service';
import { MemorySnapshotStore } from '../../src/snapshots/snapshot-store';

/** A store whose whole-log read fails: boot must fold the access streams without it. */
function withoutWholeLogReads(store: EventStore): EventStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'readAll') return () => Promise.reject(new Error('boot read the whole log'));
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('AccessService at boot', () => {
  it('given tenants, keys and owned fights among many fight events, it folds them from the access streams alone and follows the log from its head', async () => {
    const store = new InMemoryEventStore();
    const first = new AccessService(store, new AccessRegistry());
    const admin = await first.start();
    expect(admin).toMatch(/^crs_/);
    const { tenantId, key } = await first.createTenant('Table');
    const principal = { kind: 'tenant' as const, tenantId, keyId: key.id };
    await first.ownFight('f1', principal);
    for (let i = 0; i < 50; i++)
      await store.append('fight-f1', [{ id: crypto.randomUUID(), type: 'GmNoteAdded', data: { i } }], {
        expectedRevision: 'any',
      });
    const token = await first.issueToken('f1', { role: 'spectator' });
    await first.revokeKey(key.id);
    const rotated = await first.issueKey(tenantId, 'second');

    const booted = new AccessService(withoutWholeLogReads(store), new AccessRegistry());
    // The admin key exists already: none is generated again.
    expect(await booted.start()).toBeUndefined();
    expect(booted.registry.authenticate(admin!)).toMatchObject({ kind: 'admin' });
    expect(booted.registry.authenticate(key.secret)).toBeUndefined();
    expect(booted.registry.authenticate(rotated.secret)).toEqual({
      kind: 'tenant',
      tenantId,
      keyId: rotated.id,
    });
    expect(booted.registry.authenticate(token.secret)).toMatchObject({ kind: 'spectator', fightId: 'f1' });
    expect(() => booted.assertRead({ ...principal, keyId: rotated.id }, 'f1')).not.toThrow();
    // Its head is the end of the log: following from it repeats nothing and misses nothing.
    const log = await store.readAll();
    expect(booted.scannedTo).toBe(log[log.length - 1].checkpoint);
    await first.ownFight('f2', principal);
    const after = await store.readAll({ after: booted.scannedTo });
    expect(after.map((e) => [e.stream, e.type])).toEqual([['access-f2', 'FightOwned']]);
  });

  it('given an empty store, it generates the admin key and follows the log from its start', async () => {
    const booted = new AccessService(withoutWholeLogReads(new InMemoryEventStore()), new AccessRegistry());
    expect(await booted.start()).toMatch(/^crs_/);
    expect(booted.scannedTo).toBeUndefined();
  });

  describe('with a snapshot of the registry', () => {
    /** A store that records what readPrefixed was asked, and refuses whole-log reads. */
    const recording = (store: EventStore) => {
      const asked: Array<string | undefined> = [];
      const wrapped = new Proxy(withoutWholeLogReads(store), {
        get(target, key, receiver) {
          if (key === 'readPrefixed')
            return (prefixes: string[], options?: { after?: string }) => {
              asked.push(options?.after);
              return store.readPrefixed(prefixes, options);
            };
          return Reflect.get(target, key, receiver);
        },
      });
      return { store: wrapped, asked };
    };

    async function table() {
      const store = new InMemoryEventStore();
      const first = new AccessService(store, new AccessRegistry());
      const admin = (await first.start())!;
      const { tenantId, key } = await first.createTenant('Table');
      const gm = { kind: 'tenant' as const, tenantId, keyId: key.id };
      await first.ownFight('f1', gm);
      const token = await first.issueToken('f1', { role: 'player', combatantIds: ['mira'] });
      const revoked = await first.issueKey(tenantId, 'old');
      await first.revokeKey(revoked.id);
      return { store, admin, key, gm, token, revoked, first };
    }

    it('given one saved at boot, the next boot reads only the access events after its head and knows the same keys, tokens and owners', async () => {
      const { store, admin, key, gm, token, revoked, first } = await table();
      const snapshots = new MemorySnapshotStore();
      const saving = new AccessService(store, new AccessRegistry(), undefined, {
        snapshots,
        snapshotEvery: 3,
      });
      await saving.start();
      const row = await snapshots.load(REGISTRY_SNAPSHOT_KEY);
      const accessEvents = (await store.readPrefixed(['auth-', 'tenant-', 'access-'])).events.length;
      expect(row).toMatchObject({ version: REGISTRY_SNAPSHOT_VERSION, seq: accessEvents });
      expect(JSON.parse(row!.payload).head).toBe(saving.scannedTo);

      // Written after the snapshot: these come from the log.
      await first.ownFight('f2', gm);
      const late = await first.issueToken('f2', { role: 'spectator' });
      await first.revokeToken('f1', token.id);

      const { store: watched, asked } = recording(store);
      const booted = new AccessService(watched, new AccessRegistry(), undefined, {
        snapshots,
        snapshotEvery: 3,
      });
      expect(await booted.start()).toBeUndefined();
      expect(asked).toEqual([saving.scannedTo]);
      const r = booted.registry;
      expect(r.authenticate(admin)).toMatchObject({ kind: 'admin' });
      expect(r.authenticate(key.secret)).toEqual(gm);
      expect(r.authenticate(revoked.secret)).toBeUndefined();
      expect(r.authenticate(token.secret)).toBeUndefined();
      expect(r.authenticate(late.secret)).toMatchObject({ kind: 'spectator', fightId: 'f2' });
      expect([...r.owners]).toEqual([
        ['f1', gm.tenantId],
        ['f2', gm.tenantId],
      ]);
      expect(booted.listKeys()).toEqual(first.listKeys());
      expect(booted.listTokens('f1')).toEqual(first.listTokens('f1'));
      const log = await store.readAll();
      expect(booted.scannedTo).toBe(log[log.length - 1].checkpoint);
      // Three events past the snapshot: the next boot starts from a new one.
      expect((await snapshots.load(REGISTRY_SNAPSHOT_KEY))!.seq).toBe(accessEvents + 3);
    });

    it('given one of another version or one that cannot be read, boot reads every access event instead', async () => {
      const { store, key, gm } = await table();
      for (const row of [
        { version: 'access-registry-0', payload: JSON.stringify({ head: '1', registry: {} }) },
        { version: REGISTRY_SNAPSHOT_VERSION, payload: '{"head": "1", "registry": {"tenants": 3}}' },
        { version: REGISTRY_SNAPSHOT_VERSION, payload: 'not json' },
      ]) {
        const snapshots = new MemorySnapshotStore();
        await snapshots.save({ fightId: REGISTRY_SNAPSHOT_KEY, seq: 1, ...row });
        const { store: watched, asked } = recording(store);
        const booted = new AccessService(watched, new AccessRegistry(), undefined, { snapshots });
        await booted.start();
        expect(asked).toEqual([undefined]);
        expect(booted.registry.authenticate(key.secret)).toEqual(gm);
        expect([...booted.registry.owners]).toEqual([['f1', gm.tenantId]]);
      }
    });
  });
});

describe('AccessService rotating a key', () => {
  async function tenantKey(store: EventStore = new InMemoryEventStore()) {
    const access = new AccessService(store, new AccessRegistry());
    await access.start();
    const { tenantId, key } = await access.createTenant('Table');
    return { store, access, tenantId, key };
  }
  const activeKeys = (access: AccessService, tenantId: string) =>
    access.listKeys(tenantId).filter((k) => k.revokedAt === null);

  it('given twenty rotations of one key at once, one issues a successor and the others are KEY_NOT_FOUND', async () => {
    const { store, access, tenantId, key } = await tenantKey();
    const answers = await Promise.allSettled(Array.from({ length: 20 }, () => access.rotateKey(key.id)));
    const issued = answers.filter((a) => a.status === 'fulfilled');
    expect(issued).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 'rejected'))
      expect(a.reason).toMatchObject({ status: 404, code: 'KEY_NOT_FOUND' });
    const successor = (issued[0] as PromiseFulfilledResult<{ id: string; secret: string }>).value;
    expect(activeKeys(access, tenantId).map((k) => k.keyId)).toEqual([successor.id]);
    expect(access.registry.authenticate(key.secret)).toBeUndefined();
    expect(access.registry.authenticate(successor.secret)).toMatchObject({ keyId: successor.id });
    // The log agrees: one successor issued, the old key revoked once, both in one append.
    const types = (await store.readStream(`tenant-${tenantId}`)).map((e) => e.type);
    expect(types).toEqual(['TenantCreated', 'ApiKeyIssued', 'ApiKeyIssued', 'ApiKeyRevoked']);
  });

  it('given another instance that rotated the key first, a rotation here finds it revoked in the log, though this registry has not heard yet', async () => {
    const { store, access, key } = await tenantKey();
    const other = new AccessService(store, new AccessRegistry());
    await other.start();
    await other.rotateKey(key.id);
    // This instance's registry has not followed the log since: the key still looks active here.
    expect(access.registry.authenticate(key.secret)).toBeDefined();
    await expect(access.rotateKey(key.id)).rejects.toMatchObject({ status: 404, code: 'KEY_NOT_FOUND' });
  });

  it('given a write to the tenant between its read and its append (a new key), it reads again and still rotates once', async () => {
    const { store, access, tenantId, key } = await tenantKey();
    let raced = false;
    const racing = new Proxy(store, {
      get(target, name, receiver) {
        if (name === 'append')
          return async (...args: Parameters<EventStore['append']>) => {
            if (!raced && args[0] === `tenant-${tenantId}` && args[1].length === 2) {
              raced = true;
              await access.issueKey(tenantId, 'meanwhile');
            }
            return target.append(...args);
          };
        const value = Reflect.get(target, name, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const rotating = new AccessService(racing, access.registry);
    const successor = await rotating.rotateKey(key.id);
    expect(raced).toBe(true);
    expect(
      activeKeys(access, tenantId)
        .map((k) => k.label)
        .sort(),
    ).toEqual(['first key (rotated)', 'meanwhile']);
    expect(access.registry.authenticate(successor.secret)).toMatchObject({ keyId: successor.id });
  });
});
