import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore, InMemoryEventStore, SqliteEventStore } from './index';

describe('createEventStore', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'event-store-create-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('without a url opens SQLite at <dataDir>/events.sqlite', async () => {
    const store = await createEventStore({ dataDir: join(dataDir, 'nested') });
    expect(store).toBeInstanceOf(SqliteEventStore);
    expect(existsSync(join(dataDir, 'nested', 'events.sqlite'))).toBe(true);
    await store.close();
  });

  it('memory: gives the in-memory store', async () => {
    expect(await createEventStore({ url: 'memory:' })).toBeInstanceOf(InMemoryEventStore);
  });

  it('fails at creation when PostgreSQL is unreachable', async () => {
    await expect(createEventStore({ url: 'postgresql://nobody@127.0.0.1:1/none' })).rejects.toThrow();
  });

  it('says KurrentDB is not supported yet', async () => {
    await expect(createEventStore({ url: 'kurrentdb://localhost:2113' })).rejects.toThrow(/kurrentdb.*not supported yet/);
  });

  it('rejects any other url without echoing it', async () => {
    const failure = createEventStore({ url: 'mysql://admin:s3cret@db/events' });
    await expect(failure).rejects.toThrow(/unsupported event store url scheme "mysql:"/);
    await expect(failure).rejects.not.toThrow(/s3cret/);
    await expect(createEventStore({ url: 'events.sqlite' })).rejects.toThrow(/no scheme/);
  });
});
