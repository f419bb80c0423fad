import { InMemoryEventStore, type EventStore } from '@app/event-store';
import { AccessRegistry } from '../../src/access/access-registry';
import { AccessService } from '../../src/access/access-service';

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
});
