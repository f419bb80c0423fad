import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore, InMemoryEventStore, SqliteEventStore } from '@app/event-store';

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

  it('fails at creation when KurrentDB is unreachable, naming the server but not the password', async () => {
    for (const scheme of ['kurrentdb', 'esdb']) {
      const failure = createEventStore({ url: `${scheme}://admin:s3cret@127.0.0.1:1?tls=false` });
      await expect(failure).rejects.toThrow(`KurrentDB at ${scheme}://***@127.0.0.1:1 did not answer`);
      await expect(failure).rejects.not.toThrow(/s3cret/);
    }
  });

  it('refuses a KurrentDB option it does not know before the client can print the url', async () => {
    const printed = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await expect(
        createEventStore({ url: 'kurrentdb://admin:s3cret@127.0.0.1:1?tls=false&tsl=true' }),
      ).rejects.toThrow('KurrentDB url kurrentdb://***@127.0.0.1:1: unsupported option "tsl"');
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });

  it('rejects any other url without echoing it', async () => {
    const failure = createEventStore({ url: 'mysql://admin:s3cret@db/events' });
    await expect(failure).rejects.toThrow(/unsupported event store url scheme "mysql:"/);
    await expect(failure).rejects.not.toThrow(/s3cret/);
    await expect(createEventStore({ url: 'events.sqlite' })).rejects.toThrow(/no scheme/);
  });
});
