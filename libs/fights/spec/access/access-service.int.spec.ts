import { InMemoryEventStore, type EventStore } from '@app/event-store';
import { AccessRegistry } from '../../src/access/access-registry';
import {
  AccessService,
  LEARN_READS,
  LEARN_SPACING_MS,
  REGISTRY_SNAPSHOT_KEY,
  REGISTRY_SNAPSHOT_VERSION,
} from '../../src/access/access-service';
import { MemorySnapshotStore } from '../../src/snapshots/snapshot-store';
import { newSecret } from '../../src/access/secrets';

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
      expect(await booted.listKeys()).toEqual(await first.listKeys());
      expect(await booted.listTokens('f1')).toEqual(await first.listTokens('f1'));
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
        await snapshots.save({ fightId: REGISTRY_SNAPSHOT_KEY, seq: 1, parts: [], ...row });
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
  const activeKeys = async (access: AccessService, tenantId: string) =>
    (await access.listKeys(tenantId)).filter((k) => k.revokedAt === null);

  it('given twenty rotations of one key at once, one issues a successor and the others are KEY_NOT_FOUND', async () => {
    const { store, access, tenantId, key } = await tenantKey();
    const answers = await Promise.allSettled(Array.from({ length: 20 }, () => access.rotateKey(key.id)));
    const issued = answers.filter((a) => a.status === 'fulfilled');
    expect(issued).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 'rejected'))
      expect(a.reason).toMatchObject({ status: 404, code: 'KEY_NOT_FOUND' });
    const successor = (issued[0] as PromiseFulfilledResult<{ id: string; secret: string }>).value;
    expect((await activeKeys(access, tenantId)).map((k) => k.keyId)).toEqual([successor.id]);
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
    expect((await activeKeys(access, tenantId)).map((k) => k.label).sort()).toEqual([
      'first key (rotated)',
      'meanwhile',
    ]);
    expect(access.registry.authenticate(successor.secret)).toMatchObject({ keyId: successor.id });
  });
});

/** The store, counting the reads an instance makes for what it has not heard of. */
function counting(store: EventStore): { store: EventStore; reads: { prefixed: number; stream: number } } {
  const reads = { prefixed: 0, stream: 0 };
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'readPrefixed') reads.prefixed++;
      if (key === 'readStream') reads.stream++;
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: counted, reads };
}

describe('AccessService beside another instance on one store: what the other acknowledged is honoured here at once', () => {
  /** Two instances on one store; `here` has no log follower, so it hears of nothing by itself. */
  async function twoInstances() {
    const store = new InMemoryEventStore();
    const there = new AccessService(store, new AccessRegistry(), undefined, { shared: true });
    await there.start('admin-key-0123456789abcdef0123456789');
    const { store: watched, reads } = counting(store);
    const here = new AccessService(watched, new AccessRegistry(), undefined, { shared: true });
    await here.start('admin-key-0123456789abcdef0123456789');
    reads.prefixed = reads.stream = 0;
    return { there, here, reads };
  }

  it('given a tenant key and a token issued there, when they are used here, then they are known after one read', async () => {
    const { there, here, reads } = await twoInstances();
    const { tenantId, key } = await there.createTenant('Table');
    await there.ownFight('f1', { kind: 'tenant', tenantId, keyId: key.id });
    const token = await there.issueToken('f1', { role: 'spectator' });
    expect(here.registry.authenticate(key.secret)).toBeUndefined();
    expect(await here.authenticate(key.secret)).toEqual({ kind: 'tenant', tenantId, keyId: key.id });
    expect(await here.authenticate(token.secret)).toEqual({
      kind: 'spectator',
      fightId: 'f1',
      tokenId: token.id,
    });
    // The first read brought both (and the fight's owner): the second secret needed none.
    expect(reads.prefixed).toBe(1);
    expect(() => here.assertRead({ kind: 'tenant', tenantId, keyId: key.id }, 'f1')).not.toThrow();
  });

  it('given a tenant, a key and a token created there, when this instance is asked for them by id or in a list, then it finds them', async () => {
    const { there, here } = await twoInstances();
    const { tenantId, key } = await there.createTenant('Table');
    await there.ownFight('f1', { kind: 'tenant', tenantId, keyId: key.id });
    const token = await there.issueToken('f1', { role: 'spectator' });
    expect(here.registry.tenants.has(tenantId)).toBe(false);
    await expect(here.tenant(tenantId)).resolves.toMatchObject({ tenantId, name: 'Table' });
    await expect(here.token('f1', token.id)).resolves.toMatchObject({ tokenId: token.id, role: 'spectator' });
    const other = await there.createTenant('Other table');
    const second = await there.issueKey(other.tenantId, 'bot');
    await expect(here.key(second.id)).resolves.toMatchObject({ keyId: second.id, label: 'bot' });
    const third = await there.createTenant('Third table');
    expect((await here.listTenants()).map((t) => t.tenantId)).toContain(third.tenantId);
    expect((await here.listKeys()).map((k) => k.keyId)).toContain(third.key.id);
    const fourth = await there.issueKey(third.tenantId, 'late');
    expect((await here.listKeys(third.tenantId)).map((k) => k.keyId)).toContain(fourth.id);
    const late = await there.issueToken('f1', { role: 'spectator' });
    expect((await here.listTokens('f1')).map((t) => t.tokenId)).toContain(late.id);
  });

  it('given ids nobody issued, when this instance is asked for them, then they are not found after the reads', async () => {
    const { here, reads } = await twoInstances();
    await expect(here.key('0123456789abcdef')).rejects.toMatchObject({ code: 'KEY_NOT_FOUND' });
    expect(reads.prefixed).toBe(LEARN_READS);
    await expect(here.tenant('nobody')).rejects.toMatchObject({ code: 'TENANT_NOT_FOUND' });
    await expect(here.token('f1', 'nothing')).rejects.toMatchObject({ code: 'TOKEN_NOT_FOUND' });
  });

  it('given a key revoked there after this instance read it, when it is used here after a read, then it is refused', async () => {
    const { there, here } = await twoInstances();
    const { key } = await there.createTenant('Table');
    expect(await here.authenticate(key.secret)).toBeDefined();
    await there.revokeKey(key.id);
    // Known here: no read is made for it, it is served until the log follower brings the revocation
    // (README "Who may do what"); an unknown secret's read brings the revocation along.
    expect(await here.authenticate(key.secret)).toBeDefined();
    expect(await here.authenticate(newSecret('crs').secret)).toBeUndefined();
    expect(await here.authenticate(key.secret)).toBeUndefined();
  });

  it('given a flood of made-up keys at once, then they are all refused and the store is read a few times, not once per key', async () => {
    const { here, reads } = await twoInstances();
    const refused = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) =>
        here.authenticate(newSecret(i % 2 ? 'crs' : 'crt').secret),
      ),
    );
    expect(refused.every((p) => p === undefined)).toBe(true);
    // Each read a secret waits for is shared by every secret waiting then: the burst shares all of them,
    // however long each read takes.
    expect(reads.prefixed).toBe(LEARN_READS);
  });

  it('given made-up keys sent one after another by many clients, then the store is read at most once per LEARN_SPACING_MS', async () => {
    const { here, reads } = await twoInstances();
    const started = performance.now();
    const client = async (n: number) => {
      for (let i = 0; i < 5; i++)
        expect(await here.authenticate(newSecret(n % 2 ? 'crs' : 'crt').secret)).toBeUndefined();
    };
    await Promise.all(Array.from({ length: 50 }, (_, n) => client(n)));
    const elapsed = performance.now() - started;
    // 250 refusals; the reads start at least LEARN_SPACING_MS apart.
    expect(reads.prefixed).toBeLessThanOrEqual(elapsed / LEARN_SPACING_MS + 1);
    expect(reads.prefixed).toBeLessThan(250 / 4);
  });

  it("given a token issued there, when it is used here on a route of its fight, then that fight's access stream is read too (a stream read sees every commit at once)", async () => {
    const { there, here, reads } = await twoInstances();
    const { tenantId, key } = await there.createTenant('Table');
    await there.ownFight('f1', { kind: 'tenant', tenantId, keyId: key.id });
    const token = await there.issueToken('f1', { role: 'spectator' });
    expect(await here.authenticate(token.secret, 'f1')).toMatchObject({ kind: 'spectator', fightId: 'f1' });
    expect(reads).toEqual({ prefixed: 1, stream: 1 });
  });

  it("given made-up tokens naming a hundred fights at once, then a few fights' streams are read per read of the log, not one per request", async () => {
    const { here, reads } = await twoInstances();
    const refused = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => here.authenticate(newSecret('crt').secret, `f${i}`)),
    );
    expect(refused.every((p) => p === undefined)).toBe(true);
    expect(reads.prefixed).toBeLessThanOrEqual(LEARN_READS + 1);
    expect(reads.stream).toBeLessThanOrEqual(4 * reads.prefixed);
  });

  it('given secrets that no read can make valid (no key shape, a known id with another secret), then none is read for', async () => {
    const { there, here, reads } = await twoInstances();
    const { key } = await there.createTenant('Table');
    expect(await here.authenticate(key.secret)).toBeDefined();
    reads.prefixed = 0;
    expect(await here.authenticate('not a key')).toBeUndefined();
    expect(await here.authenticate(`crs_${key.id}_${'A'.repeat(43)}`)).toBeUndefined();
    expect(reads.prefixed).toBe(0);
  });

  it('given a fight created there, when a tenant names it here, then its owner is read from its access stream once', async () => {
    const { there, here, reads } = await twoInstances();
    const { tenantId, key } = await there.createTenant('Table');
    const gm = { kind: 'tenant' as const, tenantId, keyId: key.id };
    await there.ownFight('f1', gm);
    expect(() => here.assertRead(gm, 'f1')).toThrow(expect.objectContaining({ code: 'FIGHT_NOT_FOUND' }));
    await here.knowFight('f1');
    expect(() => here.assertRead(gm, 'f1')).not.toThrow();
    expect(here.knowFight('f1')).toBeUndefined();
    expect(reads.stream).toBe(1);
  });

  it('given a tenant, a key and a token made there, when they are managed here at once, then they are found', async () => {
    const { there, here } = await twoInstances();
    const { tenantId, key } = await there.createTenant('Table');
    await there.ownFight('f1', { kind: 'tenant', tenantId, keyId: key.id });
    const token = await there.issueToken('f1', { role: 'spectator' });
    await expect(here.issueKey(tenantId, 'second')).resolves.toMatchObject({ id: expect.any(String) });
    const other = await there.createTenant('Other');
    await expect(here.revokeKey(other.key.id)).resolves.toBeUndefined();
    expect(here.registry.authenticate(other.key.secret)).toBeUndefined();
    await expect(here.revokeToken('f1', token.id)).resolves.toBeUndefined();
    expect(here.registry.authenticate(token.secret)).toBeUndefined();
  });

  it('given one instance alone on its store (SQLite, memory), then an unknown secret or fight is refused with no read', async () => {
    const { store, reads } = counting(new InMemoryEventStore());
    const alone = new AccessService(store, new AccessRegistry());
    await alone.start('admin-key-0123456789abcdef0123456789');
    reads.prefixed = reads.stream = 0;
    expect(alone.authenticate(newSecret('crs').secret)).toBeUndefined();
    expect(alone.knowFight('f1')).toBeUndefined();
    expect(reads).toEqual({ prefixed: 0, stream: 0 });
  });
});

describe('AccessService recording the owner of a fight', () => {
  const GM = (tenantId: string) => ({ kind: 'tenant' as const, tenantId, keyId: `${tenantId}-key` });

  it('given a fight this tenant owns already, when it is owned again (a creation retried), then nothing is appended', async () => {
    const store = new InMemoryEventStore();
    const access = new AccessService(store, new AccessRegistry());
    await access.ownFight('f1', GM('t1'));
    await access.ownFight('f1', GM('t1'));
    expect((await store.readStream('access-f1')).map((e) => e.type)).toEqual(['FightOwned']);
  });

  it('given a fight another tenant owns, when this tenant owns it, then 409 CONCURRENCY_CONFLICT naming fightId', async () => {
    const access = new AccessService(new InMemoryEventStore(), new AccessRegistry());
    await access.ownFight('f1', GM('t1'));
    await expect(access.ownFight('f1', GM('t2'))).rejects.toMatchObject({
      status: 409,
      code: 'CONCURRENCY_CONFLICT',
      field: 'fightId',
    });
  });

  it('given a fight owned already and a store that cannot be read, when it is owned again, then the store’s error, not a conflict', async () => {
    const store = new InMemoryEventStore();
    await new AccessService(store, new AccessRegistry()).ownFight('f1', GM('t1'));
    const away = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const unreadable = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'readStream') return () => Promise.reject(away);
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    // Another instance's registry, which has not heard of the owner: it must read the access stream to answer.
    await expect(new AccessService(unreadable, new AccessRegistry()).ownFight('f1', GM('t1'))).rejects.toBe(
      away,
    );
  });
});
