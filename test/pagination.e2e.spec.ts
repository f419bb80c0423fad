import { FightService } from '@app/fights';
import { WebhookOutbox } from '@app/webhooks';
import { sheet, TestApp, useApp } from './support/app';

/** The pages of a list, following Link rel="next" from `first` until there is none. */
async function pages(t: TestApp, first: string): Promise<Array<{ body: any; cursor?: string }>> {
  const out: Array<{ body: any; cursor?: string }> = [];
  let url: string | undefined = first;
  while (url) {
    const res = await t.http.get(url).expect(200);
    const link = res.headers.link as string | undefined;
    const cursor = res.headers['x-next-cursor'] as string | undefined;
    out.push({ body: res.body, cursor });
    url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
    if (url) expect(url).toContain(`cursor=${cursor}`);
    expect(out.length).toBeLessThan(100);
  }
  return out;
}

const seqs = (events: Array<{ seq: number }>) => events.map((e) => e.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('one paging style: ?limit and ?cursor in, Link rel="next" and X-Next-Cursor out', () => {
  const previous = { ...process.env };
  Object.assign(process.env, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '40' });
  const t = useApp();
  afterAll(() => {
    for (const k of ['WEBHOOK_ALLOW_PRIVATE', 'WEBHOOK_POLL_MS']) {
      if (previous[k] === undefined) delete process.env[k];
      else process.env[k] = previous[k];
    }
  });
  let fightId: string;
  beforeAll(async () => {
    fightId = (await t.http.post('/fights').send({ system: 'narateer', dice: { mode: 'manual' }, combatants: [{ id: 'a', name: 'A', sheet: sheet() }] }).expect(201)).body.fightId;
    for (let i = 0; i < 8; i++) await t.http.post(`/fights/${fightId}/commands`).send({ type: 'AddNote', text: `note ${i}` }).expect(200);
  });

  describe('GET /fights/:id/events', () => {
    it('?limit pages through the log; the pages join into the whole of it', async () => {
      const all = (await t.http.get(`/fights/${fightId}/events`).expect(200)).body;
      expect(seqs(all)).toEqual(range(1, 10));
      const got = await pages(t, `/fights/${fightId}/events?limit=3`);
      expect(got.map((p) => seqs(p.body))).toEqual([[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]]);
      expect(got[got.length - 1].cursor).toBeUndefined();
    });

    it('?after still works alone (no Link when it is all) and starts the cursor pages', async () => {
      const rest = await t.http.get(`/fights/${fightId}/events?after=6`).expect(200);
      expect(seqs(rest.body)).toEqual([7, 8, 9, 10]);
      expect(rest.headers.link).toBeUndefined();
      const got = await pages(t, `/fights/${fightId}/events?after=6&limit=2`);
      expect(got.map((p) => seqs(p.body))).toEqual([[7, 8], [9, 10]]);
    });

    it('a cursor from another list, a forged one, or one beside ?after is a 400 naming the field', async () => {
      const foreign = Buffer.from('{"list":"fights","offset":1}').toString('base64url');
      expect((await t.http.get(`/fights/${fightId}/events?cursor=${foreign}`).expect(400)).body).toMatchObject({ code: 'INVALID_CURSOR', field: 'cursor' });
      expect((await t.http.get(`/fights/${fightId}/events?cursor=${Buffer.from('{"list":"events","after":-1}').toString('base64url')}`).expect(400)).body.code).toBe('INVALID_CURSOR');
      expect((await t.http.get(`/fights/${fightId}/events?cursor=%7B%7D`).expect(400)).body.code).toBe('INVALID_CURSOR');
      expect((await t.http.get(`/fights/${fightId}/events?cursor=${'x'.repeat(201)}`).expect(400)).body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'cursor' });
      const own = (await t.http.get(`/fights/${fightId}/events?limit=2`)).headers['x-next-cursor'];
      expect((await t.http.get(`/fights/${fightId}/events?cursor=${own}&after=1`).expect(400)).body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'after' });
      expect((await t.http.get(`/fights/${fightId}/events?limit=10001`).expect(400)).body.field).toBe('limit');
    });

    it('a long log comes in pages of 1000 unless ?limit says otherwise', async () => {
      const fights = t.app.get(FightService);
      const long = (await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201)).body;
      for (let i = 0; i < 1000; i++) await fights.execute(long.fightId, { type: 'AddNote', text: `n${i}` });
      const first = await t.http.get(`/fights/${long.fightId}/events`).expect(200);
      expect(first.body).toHaveLength(1000);
      expect(first.body[999].seq).toBe(1000);
      expect(first.headers.link).toBe(`</fights/${long.fightId}/events?cursor=${first.headers['x-next-cursor']}>; rel="next"`);
      expect(seqs((await t.http.get(`/fights/${long.fightId}/events?cursor=${first.headers['x-next-cursor']}`).expect(200)).body)).toEqual([1001]);
      expect((await t.http.get(`/fights/${long.fightId}/events?limit=5000`).expect(200)).body).toHaveLength(1001);
    });

    it('the link carries the filters, never a ?token= secret', async () => {
      const res = await t.anon.get(`/fights/${fightId}/events?token=${t.apiKey}&after=2&limit=4`).expect(200);
      expect(res.headers.link).toBe(`</fights/${fightId}/events?limit=4&cursor=${res.headers['x-next-cursor']}>; rel="next"`);
      expect(res.headers.link).not.toContain(t.apiKey);
    });
  });

  describe('GET /fights', () => {
    it('the envelope stays {items,total,limit,offset}; Link and X-Next-Cursor lead to the rest, offset still works', async () => {
      const other = await t.tenant('pager');
      const as = { authorization: `Bearer ${other.apiKey}` };
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await t.anon.post('/fights').set(as).send({ system: 'narateer', name: `f${i}` }).expect(201)).body.fightId);
      const first = await t.anon.get('/fights?limit=2').set(as).expect(200);
      expect(Object.keys(first.body).sort()).toEqual(['items', 'limit', 'offset', 'total']);
      expect(first.body).toMatchObject({ total: 5, limit: 2, offset: 0 });
      const seen: string[] = first.body.items.map((f: { fightId: string }) => f.fightId);
      let link = first.headers.link as string | undefined;
      while (link) {
        const res = await t.anon.get(/^<([^>]+)>/.exec(link)![1]).set(as).expect(200);
        seen.push(...res.body.items.map((f: { fightId: string }) => f.fightId));
        link = res.headers.link;
      }
      expect(seen).toEqual([...ids].reverse());
      const byOffset = await t.anon.get('/fights?limit=2&offset=4').set(as).expect(200);
      expect(byOffset.body.items.map((f: { fightId: string }) => f.fightId)).toEqual([ids[0]]);
      expect(byOffset.headers.link).toBeUndefined();
      expect((await t.anon.get('/fights?limit=2&offset=1').set(as).expect(200)).headers.link).toMatch(/^<\/fights\?limit=2&cursor=[\w-]+>; rel="next"$/);
    });
  });

  describe('GET /webhooks/endpoints/:id/deliveries', () => {
    it('pages list every delivery once, newest first, also where several share a millisecond', async () => {
      // Every delivery made in this test gets the same creation time: the page boundaries fall inside a tie.
      const outbox = t.app.get(WebhookOutbox) as unknown as { clock: () => number };
      const clock = outbox.clock;
      const at = Date.now();
      outbox.clock = () => at;
      try {
        const ep = (await t.http.post('/webhooks/endpoints').send({ url: 'http://127.0.0.1:9/hook' }).expect(201)).body.endpoint.id;
        const combatants = ['a', 'b', 'c', 'd'].map((id) => ({ id, name: id, sheet: sheet() }));
        await t.http.post('/fights').send({ system: 'narateer', dice: { mode: 'manual' }, combatants }).expect(201);
        let all: Array<{ id: string; createdAt: string }> = [];
        for (let i = 0; i < 400 && all.length < 5; i++) {
          all = (await t.http.get(`/webhooks/endpoints/${ep}/deliveries?limit=200`).expect(200)).body;
          if (all.length < 5) await new Promise((r) => setTimeout(r, 25));
        }
        expect(all).toHaveLength(5);
        expect(new Set(all.map((d) => d.createdAt)).size).toBe(1);
        for (const limit of [1, 2, 3]) {
          const got = await pages(t, `/webhooks/endpoints/${ep}/deliveries?limit=${limit}`);
          expect(got.flatMap((p) => p.body.map((d: { id: string }) => d.id))).toEqual(all.map((d) => d.id));
        }
        expect((await t.http.get(`/webhooks/endpoints/${ep}/deliveries?before=2020-01-01T00:00:00Z`).expect(200)).body).toEqual([]);
      } finally {
        outbox.clock = clock;
      }
    });
  });
});
