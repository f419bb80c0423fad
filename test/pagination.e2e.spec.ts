import { FightService } from '@app/fights';
import { WebhookOutbox } from '@app/webhooks';
import { sheet, TEST_ADMIN_KEY, TestApp, useApp } from './support/app';
import { soloFight } from './support/fight-calls';

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
    fightId = await soloFight(t);
    for (let i = 0; i < 8; i++)
      await t.http
        .post(`/fights/${fightId}/commands`)
        .send({ type: 'AddNote', text: `note ${i}` })
        .expect(200);
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
      expect(got.map((p) => seqs(p.body))).toEqual([
        [7, 8],
        [9, 10],
      ]);
    });

    it('a cursor from another list, a forged one, or one beside ?after is a 400 naming the field', async () => {
      const foreign = Buffer.from('{"list":"fights","offset":1}').toString('base64url');
      expect(
        (await t.http.get(`/fights/${fightId}/events?cursor=${foreign}`).expect(400)).body,
      ).toMatchObject({ code: 'INVALID_CURSOR', field: 'cursor' });
      expect(
        (
          await t.http
            .get(
              `/fights/${fightId}/events?cursor=${Buffer.from('{"list":"events","after":-1}').toString('base64url')}`,
            )
            .expect(400)
        ).body.code,
      ).toBe('INVALID_CURSOR');
      expect((await t.http.get(`/fights/${fightId}/events?cursor=%7B%7D`).expect(400)).body.code).toBe(
        'INVALID_CURSOR',
      );
      // The position of a cursor this list gives, spelled otherwise: a key twice, spaces, 3.0 for 3.
      const given = Buffer.from('{"list":"events","after":3}').toString('base64url');
      await t.http.get(`/fights/${fightId}/events?cursor=${given}`).expect(200);
      for (const text of [
        '{"list":"events","after":2,"after":3}',
        '{"list": "events", "after": 3}',
        '{"list":"events","after":3.0}',
      ]) {
        const respelled = Buffer.from(text).toString('base64url');
        const res = await t.http.get(`/fights/${fightId}/events?cursor=${respelled}`);
        expect([text, res.status, res.body.code, res.body.field]).toEqual([
          text,
          400,
          'INVALID_CURSOR',
          'cursor',
        ]);
      }
      // Too long or empty, it is still a cursor no list gave out: a client never builds one, so its length is no bound to mind.
      for (const text of ['x'.repeat(201), ''])
        expect((await t.http.get(`/fights/${fightId}/events?cursor=${text}`).expect(400)).body).toMatchObject(
          { code: 'INVALID_CURSOR', field: 'cursor' },
        );
      const own = (await t.http.get(`/fights/${fightId}/events?limit=2`)).headers['x-next-cursor'];
      expect(
        (await t.http.get(`/fights/${fightId}/events?cursor=${own}&after=1`).expect(400)).body,
      ).toMatchObject({ code: 'VALIDATION_FAILED', field: 'after' });
      expect((await t.http.get(`/fights/${fightId}/events?limit=10001`).expect(400)).body.field).toBe(
        'limit',
      );
    });

    it('a cursor of another fight’s events is INVALID_CURSOR, REST and GraphQL alike; one given out before cursors named their fight still pages', async () => {
      const other = await soloFight(t);
      const mine = (await t.http.get(`/fights/${fightId}/events?limit=2`).expect(200)).headers[
        'x-next-cursor'
      ];
      expect(JSON.parse(Buffer.from(mine, 'base64url').toString())).toEqual({
        list: 'events',
        after: 2,
        of: fightId,
      });
      await t.http.get(`/fights/${fightId}/events?cursor=${mine}`).expect(200);
      expect((await t.http.get(`/fights/${other}/events?cursor=${mine}`).expect(400)).body).toMatchObject({
        code: 'INVALID_CURSOR',
        field: 'cursor',
      });
      const gql = await t.gql(
        'query($id: ID!, $c: String) { eventsPage(fightId: $id, limit: 2, cursor: $c) { nextCursor } }',
        { id: other, c: mine },
      );
      expect(gql.errors?.[0].extensions).toMatchObject({ code: 'INVALID_CURSOR', field: 'cursor' });
      const older = Buffer.from('{"list":"events","after":1}').toString('base64url');
      expect(seqs((await t.http.get(`/fights/${other}/events?cursor=${older}`).expect(200)).body)[0]).toBe(2);
    });

    it('a long log comes in pages of 1000 unless ?limit says otherwise', async () => {
      const fights = t.app.get(FightService);
      const long = (await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201))
        .body;
      for (let i = 0; i < 1000; i++) await fights.execute(long.fightId, { type: 'AddNote', text: `n${i}` });
      const first = await t.http.get(`/fights/${long.fightId}/events`).expect(200);
      expect(first.body).toHaveLength(1000);
      expect(first.body[999].seq).toBe(1000);
      expect(first.headers.link).toBe(
        `</fights/${long.fightId}/events?cursor=${first.headers['x-next-cursor']}>; rel="next"`,
      );
      expect(
        seqs(
          (
            await t.http
              .get(`/fights/${long.fightId}/events?cursor=${first.headers['x-next-cursor']}`)
              .expect(200)
          ).body,
        ),
      ).toEqual([1001]);
      expect((await t.http.get(`/fights/${long.fightId}/events?limit=5000`).expect(200)).body).toHaveLength(
        1001,
      );
    });

    it('the link carries the filters, never a ?token= secret', async () => {
      const res = await t.anon.get(`/fights/${fightId}/events?token=${t.apiKey}&after=2&limit=4`).expect(200);
      expect(res.headers.link).toBe(
        `</fights/${fightId}/events?limit=4&cursor=${res.headers['x-next-cursor']}>; rel="next"`,
      );
      expect(res.headers.link).not.toContain(t.apiKey);
    });
  });

  describe('GET /fights', () => {
    const other = { headers: {} as Record<string, string>, ids: [] as string[] };
    beforeAll(async () => {
      other.headers = { authorization: `Bearer ${(await t.tenant('pager')).apiKey}` };
      for (let i = 0; i < 5; i++)
        other.ids.push(
          (
            await t.anon
              .post('/fights')
              .set(other.headers)
              .send({ system: 'narateer', name: `f${i}` })
              .expect(201)
          ).body.fightId,
        );
      await listed();
    });
    /** The list reads the fight-views projection, which follows the log a moment later: wait until it lists every fight made. */
    const listed = async () => {
      for (let i = 0; i < 400; i++) {
        if (
          (await t.anon.get('/fights?limit=100').set(other.headers).expect(200)).body.items.length ===
          other.ids.length
        )
          return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the fight list never caught up');
    };

    it('keyset pages: Link, X-Next-Cursor and nextCursor lead through every fight once, newest first; no page counts', async () => {
      const first = await t.anon.get('/fights?limit=2').set(other.headers).expect(200);
      expect(Object.keys(first.body).sort()).toEqual(['items', 'limit', 'nextCursor', 'offset']);
      expect(first.body).toMatchObject({ limit: 2, offset: 0, nextCursor: first.headers['x-next-cursor'] });
      // The cursor is the last fight's (createdAt, fightId), not a position: decoded, it holds no offset.
      expect(JSON.parse(Buffer.from(first.body.nextCursor, 'base64url').toString())).toEqual({
        list: 'fights',
        created: first.body.items[1].createdAt,
        id: first.body.items[1].fightId,
      });
      const seen: string[] = first.body.items.map((f: { fightId: string }) => f.fightId);
      let link = first.headers.link as string | undefined;
      const bodies = [];
      while (link) {
        const res = await t.anon
          .get(/^<([^>]+)>/.exec(link)![1])
          .set(other.headers)
          .expect(200);
        bodies.push(res.body);
        seen.push(...res.body.items.map((f: { fightId: string }) => f.fightId));
        link = res.headers.link;
        expect(res.body.nextCursor).toBe(res.headers['x-next-cursor']);
      }
      expect(seen).toEqual([...other.ids].reverse());
      // A cursor page has no offset; the last page no cursor: a page of exactly `limit` fights that ends the list says so.
      expect(bodies.map((b) => Object.keys(b).sort())).toEqual([
        ['items', 'limit', 'nextCursor'],
        ['items', 'limit'],
      ]);
      const exact = await t.anon.get('/fights?limit=5').set(other.headers).expect(200);
      expect(exact.body.items).toHaveLength(5);
      expect(exact.headers.link).toBeUndefined();
    });

    it('fights created after a page was read never shift the next page (a keyset, not an offset)', async () => {
      const first = await t.anon.get('/fights?limit=2').set(other.headers).expect(200);
      const added = (
        await t.anon.post('/fights').set(other.headers).send({ system: 'narateer', name: 'late' }).expect(201)
      ).body.fightId;
      // The list is a read model: wait until it holds the new fight, or the offset page below could not shift.
      other.ids.push(added);
      await listed();
      {
        const second = await t.anon
          .get(`/fights?limit=2&cursor=${first.body.nextCursor}`)
          .set(other.headers)
          .expect(200);
        expect(second.body.items.map((f: { fightId: string }) => f.fightId)).toEqual([
          other.ids[2],
          other.ids[1],
        ]);
        // By offset, the same second page would have repeated a fight of the first.
        expect(
          (await t.anon.get('/fights?limit=2&offset=2').set(other.headers).expect(200)).body.items.map(
            (f: { fightId: string }) => f.fightId,
          ),
        ).toEqual([other.ids[3], other.ids[2]]);
      }
    });

    it('?total=true counts the matching fights; offset still pages the older way and its link leads on by cursor', async () => {
      expect((await t.anon.get('/fights?limit=2&total=true').set(other.headers).expect(200)).body.total).toBe(
        other.ids.length,
      );
      expect(
        (await t.anon.get('/fights?limit=2&total=true&status=ended').set(other.headers).expect(200)).body,
      ).toMatchObject({ total: 0, items: [] });
      expect(
        (await t.anon.get('/fights?limit=2&total=yes').set(other.headers).expect(400)).body,
      ).toMatchObject({ code: 'VALIDATION_FAILED', field: 'total' });
      const newest = [...other.ids].reverse();
      const byOffset = await t.anon
        .get(`/fights?limit=2&offset=${other.ids.length - 1}`)
        .set(other.headers)
        .expect(200);
      expect(byOffset.body.items.map((f: { fightId: string }) => f.fightId)).toEqual([other.ids[0]]);
      expect(byOffset.headers.link).toBeUndefined();
      const middle = await t.anon.get('/fights?limit=2&offset=1').set(other.headers).expect(200);
      expect(middle.headers.link).toMatch(/^<\/fights\?limit=2&cursor=[\w-]+>; rel="next"$/);
      expect(
        (
          await t.anon
            .get(/^<([^>]+)>/.exec(middle.headers.link)![1])
            .set(other.headers)
            .expect(200)
        ).body.items.map((f: { fightId: string }) => f.fightId),
      ).toEqual(newest.slice(3, 5));
      expect(
        (await t.anon.get(`/fights?offset=1&cursor=${middle.body.nextCursor}`).set(other.headers).expect(400))
          .body,
      ).toMatchObject({ code: 'VALIDATION_FAILED', field: 'offset' });
      const forged = Buffer.from(JSON.stringify({ list: 'fights', offset: 2 })).toString('base64url');
      expect(
        (await t.anon.get(`/fights?cursor=${forged}`).set(other.headers).expect(400)).body,
      ).toMatchObject({ code: 'INVALID_CURSOR', field: 'cursor' });
    });
  });

  describe('the lists held whole: tenants, keys, a fight’s tokens, webhook endpoints', () => {
    const admin = { authorization: `Bearer ${TEST_ADMIN_KEY}` };
    /** Every page from `first` on (with these headers), and the whole list asked in one page. */
    const walk = async (first: string, headers: Record<string, string>, id: string) => {
      const whole = (
        await t.anon
          .get(first.replace(/limit=\d+/, 'limit=1000'))
          .set(headers)
          .expect(200)
      ).body.map((x: Record<string, string>) => x[id]);
      const seen: string[] = [];
      let url: string | undefined = first;
      let pages = 0;
      while (url) {
        const res = await t.anon.get(url).set(headers).expect(200);
        seen.push(...res.body.map((x: Record<string, string>) => x[id]));
        const link = res.headers.link as string | undefined;
        url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
        if (url) expect(url).toContain(`cursor=${res.headers['x-next-cursor']}`);
        expect(++pages).toBeLessThan(50);
      }
      return { whole, seen, pages };
    };

    it('?limit and ?cursor page each, oldest first, every item once; without them the whole list comes as before', async () => {
      for (let i = 0; i < 3; i++)
        await t.anon
          .post('/admin/tenants')
          .set(admin)
          .send({ name: `paged ${i}` })
          .expect(201);
      const tenants = await walk('/admin/tenants?limit=2', admin, 'tenantId');
      expect(tenants.whole.length).toBeGreaterThanOrEqual(4);
      expect(tenants.seen).toEqual(tenants.whole);
      expect(tenants.pages).toBe(Math.ceil(tenants.whole.length / 2));
      expect(
        (await t.anon.get('/admin/tenants').set(admin).expect(200)).body.map(
          (x: { tenantId: string }) => x.tenantId,
        ),
      ).toEqual(tenants.whole);

      const keys = await walk('/admin/keys?limit=3', admin, 'keyId');
      expect(keys.seen).toEqual(keys.whole);
      expect(keys.pages).toBeGreaterThan(1);

      for (let i = 0; i < 3; i++)
        await t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator' }).expect(201);
      const tokens = await walk(
        `/fights/${fightId}/tokens?limit=2`,
        { authorization: `Bearer ${t.apiKey}` },
        'tokenId',
      );
      expect(tokens.seen).toEqual(tokens.whole);
      expect(tokens.pages).toBe(2);
      // A fight's tokens are its own list: its cursor on another fight's tokens is refused.
      const tokenCursor = (await t.http.get(`/fights/${fightId}/tokens?limit=2`).expect(200)).headers[
        'x-next-cursor'
      ];
      const other = await soloFight(t);
      expect(
        (await t.http.get(`/fights/${other}/tokens?cursor=${tokenCursor}`).expect(400)).body,
      ).toMatchObject({
        code: 'INVALID_CURSOR',
        field: 'cursor',
      });

      for (let i = 0; i < 3; i++)
        await t.http
          .post('/webhooks/endpoints')
          .send({ url: `http://127.0.0.1:9/paged-${i}` })
          .expect(201);
      const endpoints = await walk(
        '/webhooks/endpoints?limit=1',
        { authorization: `Bearer ${t.apiKey}` },
        'id',
      );
      expect(endpoints.seen).toEqual(endpoints.whole);
      expect(endpoints.pages).toBe(endpoints.whole.length);
      // GraphQL: the same pages, the same cursors.
      const first = (await t.http.get('/webhooks/endpoints?limit=1').expect(200)).headers['x-next-cursor'];
      const page = (
        await t.http
          .post('/graphql')
          .send({ query: '{ webhookEndpointsPage(limit: 1) { items { id } limit nextCursor } }' })
          .expect(200)
      ).body.data.webhookEndpointsPage;
      expect(page).toEqual({ items: [{ id: endpoints.whole[0] }], limit: 1, nextCursor: first });
      const second = (
        await t.http
          .post('/graphql')
          .send({
            query: 'query($c: String) { webhookEndpointsPage(limit: 1, cursor: $c) { items { id } } }',
            variables: { c: first },
          })
          .expect(200)
      ).body.data.webhookEndpointsPage;
      expect(second.items).toEqual([{ id: endpoints.whole[1] }]);

      // A cursor of another list, or a limit out of range, is a 400 naming it.
      expect((await t.anon.get(`/admin/tenants?cursor=${first}`).set(admin).expect(400)).body).toMatchObject({
        code: 'INVALID_CURSOR',
        field: 'cursor',
      });
      expect((await t.anon.get('/admin/keys?limit=1001').set(admin).expect(400)).body.field).toBe('limit');
    });
  });

  describe('GraphQL lists: the same limit, the same cursors', () => {
    const gql = async (query: string, variables: Record<string, unknown> = {}) =>
      (await t.http.post('/graphql').send({ query, variables }).expect(200)).body;

    it('fights: nextCursor pages every fight once; the REST cursor works here and back; total is counted only when asked', async () => {
      const made: string[] = [];
      for (let i = 0; i < 4; i++)
        made.push(
          (
            await t.http
              .post('/fights')
              .send({ system: 'narateer', name: `g${i}` })
              .expect(201)
          ).body.fightId,
        );
      for (
        let i = 0;
        i < 400 &&
        !(await t.http.get('/fights?limit=100').expect(200)).body.items.some(
          (f: { fightId: string }) => f.fightId === made[3],
        );
        i++
      )
        await new Promise((r) => setTimeout(r, 25));
      const rest = await t.http.get('/fights?limit=3').expect(200);
      const all: string[] = (await t.http.get('/fights?limit=100').expect(200)).body.items.map(
        (f: { fightId: string }) => f.fightId,
      );
      expect(all.length).toBeGreaterThan(3);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 50; i++) {
        const body = await gql(
          'query($cursor: String) { fights(limit: 3, cursor: $cursor) { items { fightId } limit offset nextCursor } }',
          { cursor },
        );
        expect(body.errors).toBeUndefined();
        const page = body.data.fights;
        if (i === 0) expect(page).toMatchObject({ offset: 0, nextCursor: rest.headers['x-next-cursor'] });
        else expect(page.offset).toBeNull();
        seen.push(...page.items.map((f: { fightId: string }) => f.fightId));
        cursor = page.nextCursor;
        if (!cursor) break;
      }
      expect(seen).toEqual(all);
      const viaGql = (
        await gql(`{ fights(limit: 3, cursor: "${rest.headers['x-next-cursor']}") { items { fightId } } }`)
      ).data.fights.items.map((f: { fightId: string }) => f.fightId);
      expect(viaGql).toEqual(all.slice(3, 6));
      expect((await gql('{ fights(limit: 2) { total } }')).data.fights.total).toBe(all.length);
      // The old arguments still work.
      expect((await gql('{ fights(limit: 2, offset: 1) { items { fightId } offset } }')).data.fights).toEqual(
        { items: all.slice(1, 3).map((fightId) => ({ fightId })), offset: 1 },
      );
      const bad = await gql('{ fights(cursor: "bm9wZQ") { limit } }');
      expect(bad.errors[0].extensions).toMatchObject({ code: 'INVALID_CURSOR', field: 'cursor' });
    });

    it('eventsPage: limit and nextCursor, the same cursors as REST; events keeps after and takes a limit', async () => {
      const rest = await t.http.get(`/fights/${fightId}/events?limit=4`).expect(200);
      const page = (
        await gql(
          'query($id: ID!) { eventsPage(fightId: $id, limit: 4) { items { seq } limit nextCursor } }',
          { id: fightId },
        )
      ).data.eventsPage;
      expect(page).toEqual({
        items: range(1, 4).map((seq) => ({ seq })),
        limit: 4,
        nextCursor: rest.headers['x-next-cursor'],
      });
      const seqsSeen: number[] = [];
      let cursor: string | null = null;
      do {
        const next: any = (
          await gql(
            'query($id: ID!, $c: String) { eventsPage(fightId: $id, limit: 3, cursor: $c) { items { seq } nextCursor } }',
            { id: fightId, c: cursor },
          )
        ).data.eventsPage;
        seqsSeen.push(...next.items.map((e: { seq: number }) => e.seq));
        cursor = next.nextCursor;
      } while (cursor);
      expect(seqsSeen).toEqual(range(1, 10));
      expect(
        (
          await gql('query($id: ID!) { events(fightId: $id, after: 7) { seq } }', { id: fightId })
        ).data.events.map((e: { seq: number }) => e.seq),
      ).toEqual([8, 9, 10]);
      expect(
        (
          await gql('query($id: ID!) { events(fightId: $id, after: 2, limit: 2) { seq } }', { id: fightId })
        ).data.events.map((e: { seq: number }) => e.seq),
      ).toEqual([3, 4]);
      for (const args of ['limit: 0', 'limit: 10001', 'after: 1, cursor: "x"']) {
        const res = await gql(`query($id: ID!) { eventsPage(fightId: $id, ${args}) { limit } }`, {
          id: fightId,
        });
        expect(res.errors[0].extensions.code).toBe('VALIDATION_FAILED');
      }
    });
  });

  describe('GET /webhooks/endpoints/:id/deliveries', () => {
    it('pages list every delivery once, newest first, also where several share a millisecond', async () => {
      // Every delivery made in this test gets the same creation time: the page boundaries fall inside a tie.
      // Its private clock, replaced for this test.
      const outbox = t.app.get<WebhookOutbox, { clock: () => number }>(WebhookOutbox);
      const clock = outbox.clock;
      const at = Date.now();
      outbox.clock = () => at;
      try {
        const ep = (
          await t.http.post('/webhooks/endpoints').send({ url: 'http://127.0.0.1:9/hook' }).expect(201)
        ).body.endpoint.id;
        const combatants = ['a', 'b', 'c', 'd'].map((id) => ({ id, name: id, sheet: sheet() }));
        await t.http
          .post('/fights')
          .send({ system: 'narateer', dice: { mode: 'manual' }, combatants })
          .expect(201);
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
        expect(
          (await t.http.get(`/webhooks/endpoints/${ep}/deliveries?before=2020-01-01T00:00:00Z`).expect(200))
            .body,
        ).toEqual([]);
        // GraphQL: the same pages, the same cursors.
        const viaGql: string[] = [];
        let cursor: string | null = null;
        for (let i = 0; i < 10; i++) {
          const res = await t.http
            .post('/graphql')
            .send({
              query:
                'query($ep: ID!, $c: String) { webhookDeliveriesPage(endpointId: $ep, limit: 2, cursor: $c) { items { id } limit nextCursor } }',
              variables: { ep, c: cursor },
            })
            .expect(200);
          const page: { items: Array<{ id: string }>; nextCursor: string | null } =
            res.body.data.webhookDeliveriesPage;
          if (i === 0)
            expect(page.nextCursor).toBe(
              (await t.http.get(`/webhooks/endpoints/${ep}/deliveries?limit=2`).expect(200)).headers[
                'x-next-cursor'
              ],
            );
          viaGql.push(...page.items.map((d) => d.id));
          cursor = page.nextCursor;
          if (!cursor) break;
        }
        expect(viaGql).toEqual(all.map((d) => d.id));
        // An endpoint's deliveries are its own list: its cursor on another endpoint's is refused, REST and GraphQL.
        const another = (
          await t.http.post('/webhooks/endpoints').send({ url: 'http://127.0.0.1:9/another' }).expect(201)
        ).body.endpoint.id;
        const theirs = (await t.http.get(`/webhooks/endpoints/${ep}/deliveries?limit=2`).expect(200)).headers[
          'x-next-cursor'
        ];
        expect(
          (await t.http.get(`/webhooks/endpoints/${another}/deliveries?cursor=${theirs}`).expect(400)).body,
        ).toMatchObject({ code: 'INVALID_CURSOR', field: 'cursor' });
        const refused = await t.gql(
          'query($ep: ID!, $c: String) { webhookDeliveriesPage(endpointId: $ep, limit: 2, cursor: $c) { limit } }',
          { ep: another, c: theirs },
        );
        expect(refused.errors?.[0].extensions).toMatchObject({ code: 'INVALID_CURSOR', field: 'cursor' });
      } finally {
        outbox.clock = clock;
      }
    });
  });
});
