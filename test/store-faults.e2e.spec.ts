import type { EventStore } from '@app/event-store';
import { EVENT_STORE } from '../apps/api/src/fights.module';
import { useApp } from './support/app';

/** The SQLite connection of the app's event store (a private field: the test reaches in to fill the disk). */
interface WithDb {
  db: { pragma(source: string, options?: { simple: boolean }): unknown };
}

describe('a store that cannot write (its disk full) answers 503 STORE_UNAVAILABLE, writes nothing, is not ready meanwhile, and takes the same command once it can', () => {
  const t = useApp();

  it('given an event store that may not grow by a page, when commands need one, then each is 503 STORE_UNAVAILABLE with Retry-After, the fight is as it was, /health/ready is 503 naming the fault, and the same commandId goes through once it may grow', async () => {
    const created = await t.http.post('/fights').send({ system: 'narateer', name: 'Full disk' }).expect(201);
    const fightId = created.body.fightId as string;
    const db = (t.app.get<EventStore>(EVENT_STORE) as unknown as WithDb).db;
    // SQLite answers SQLITE_FULL, as on a full disk, once the file would pass max_page_count.
    db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
    let refused: { status: number; body: any; headers: Record<string, string> } | undefined;
    let sent = 0;
    while (!refused && sent < 200) {
      const res = await t.http
        .post(`/fights/${fightId}/commands`)
        .send({ type: 'AddNote', text: 'n'.repeat(4000), commandId: `note-${sent++}` });
      if (res.status !== 200) refused = res;
    }
    expect(refused).toBeDefined();
    expect(refused!.status).toBe(503);
    expect(refused!.body).toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringMatching(/out of disk space/),
    });
    expect(refused!.headers['retry-after']).toMatch(/^\d+$/);
    // Reads go on, but the instance is not ready: a balancer sends commands elsewhere while its store cannot write.
    const notReady = await t.anon.get('/health/ready').expect(503);
    expect(notReady.body).toMatchObject({
      status: 'error',
      error: { eventStoreWrites: { status: 'down', fault: 'full', failures: 1 } },
      info: { eventStore: { status: 'up' } },
    });
    expect(Date.parse(notReady.body.error.eventStoreWrites.since)).not.toBeNaN();
    const before = (await t.http.get(`/fights/${fightId}`).expect(200)).body.seq as number;
    const again = await t.http
      .post(`/fights/${fightId}/commands`)
      .send({ type: 'AddNote', text: 'n'.repeat(4000), commandId: `note-${sent - 1}` });
    expect(again.status).toBe(503);
    expect((await t.http.get(`/fights/${fightId}`).expect(200)).body.seq).toBe(before);
    expect((await t.anon.get('/health/ready').expect(503)).body.error.eventStoreWrites).toMatchObject({
      fault: 'full',
      failures: 2,
    });

    db.pragma('max_page_count = 1073741823');
    const through = await t.http
      .post(`/fights/${fightId}/commands`)
      .send({ type: 'AddNote', text: 'n'.repeat(4000), commandId: `note-${sent - 1}` })
      .expect(200);
    expect(through.body.seq).toBe(before + 1);
    expect((await t.anon.get('/health/ready').expect(200)).body.info.eventStoreWrites).toEqual({
      status: 'up',
    });
    const replayed = await t.http
      .post(`/fights/${fightId}/commands`)
      .send({ type: 'AddNote', text: 'n'.repeat(4000), commandId: `note-${sent - 1}` })
      .expect(200);
    expect(replayed.body.seq).toBe(before + 1);
    const events = (await t.http.get(`/fights/${fightId}/events`).expect(200)).body as Array<{ seq: number }>;
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: before + 1 }, (_, i) => i + 1));
  });
});
