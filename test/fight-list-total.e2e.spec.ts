import { ProjectionRunner } from '@app/fights';
import { removeDir, startApp, TestApp } from './support/app';
import { onEveryEngine } from './support/engines';

const PAGE = `query($cursor: String, $status: String) {
  fights(limit: 2, cursor: $cursor, status: $status) { items { fightId } total nextCursor }
}`;

/**
 * `total` of the fight list is counted once per listing: by the first page that asks, whose cursor
 * carries the count to the pages after it. `counts` counts the read store's counts.
 */
function totalSuite(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup: () => Promise<void> = async () => undefined,
) {
  describe(`the fight list's total, counted once per listing (${engine})`, () => {
    let t: TestApp;
    let counts = 0;
    const ids: string[] = [];
    const create = async () => {
      ids.push(
        (await t.http.post('/fights').send({ system: 'narateer', name: 'F' }).expect(201)).body.fightId,
      );
      await listed(ids.length);
    };
    /** Waits until the projection lists `n` fights (a read model catches up after the write). */
    const listed = async (n: number) => {
      // As long as a loaded machine takes, not a count of tries: 60 s is only a bound on a hang.
      for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
        if ((await t.http.get('/fights?limit=100').expect(200)).body.items.length === n) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the fight list never caught up');
    };
    /** Every page of a REST listing from `first`, following Link rel="next". */
    const pages = async (first: string) => {
      const out: Array<{ items: Array<{ fightId: string }>; total?: number }> = [];
      let url: string | undefined = first;
      while (url) {
        const res: { body: (typeof out)[number]; headers: { link?: string } } = await t.http
          .get(url)
          .expect(200);
        out.push(res.body);
        url = res.headers.link ? /^<([^>]+)>/.exec(res.headers.link)![1] : undefined;
      }
      return out;
    };

    beforeAll(async () => {
      t = await startApp(opts);
      const read = t.app.get(ProjectionRunner).read;
      const count = read.countFights.bind(read);
      jest.spyOn(read, 'countFights').mockImplementation((q) => {
        counts++;
        return count(q);
      });
      for (let i = 0; i < 5; i++) await create();
    });
    afterAll(async () => {
      if (!t) return;
      jest.restoreAllMocks();
      await t.close();
      removeDir(t.dataDir);
      await cleanup();
    });

    it('given ?total=true on every page, the first page counts and the pages after repeat its count', async () => {
      counts = 0;
      const got = await pages('/fights?limit=2&total=true');
      expect(got.map((p) => p.items.length)).toEqual([2, 2, 1]);
      expect(got.map((p) => p.total)).toEqual([5, 5, 5]);
      expect(got.flatMap((p) => p.items.map((f) => f.fightId))).toEqual([...ids].reverse());
      expect(counts).toBe(1);
    });

    it('given a fight created mid-listing, the listing keeps its count and a new listing counts it', async () => {
      counts = 0;
      const first = await t.http.get('/fights?limit=2&total=true').expect(200);
      await create();
      const second = await t.http
        .get(`/fights?limit=2&total=true&cursor=${first.body.nextCursor}`)
        .expect(200);
      expect([first.body.total, second.body.total]).toEqual([5, 5]);
      expect((await t.http.get('/fights?limit=2&total=true').expect(200)).body.total).toBe(6);
      expect(counts).toBe(2);
    });

    it('given the cursor sent with other filters or by another tenant, it counts afresh for them', async () => {
      const first = await t.http.get('/fights?limit=2&total=true').expect(200);
      counts = 0;
      expect(
        (
          await t.http
            .get(`/fights?limit=2&total=true&status=ended&cursor=${first.body.nextCursor}`)
            .expect(200)
        ).body,
      ).toMatchObject({ items: [], total: 0 });
      const other = await t.tenant('Other table');
      expect(
        (
          await t.anon
            .get(`/fights?limit=2&total=true&cursor=${first.body.nextCursor}`)
            .set('authorization', `Bearer ${other.apiKey}`)
            .expect(200)
        ).body,
      ).toMatchObject({ items: [], total: 0 });
      expect(counts).toBe(2);
    });

    it('given pages without ?total=true, nothing is counted; a later page that asks counts once, and its cursor carries the count to the pages after, followed alone or not', async () => {
      counts = 0;
      const first = await t.http.get('/fights?limit=1').expect(200);
      expect(first.body.total).toBeUndefined();
      const second = await t.http
        .get(`/fights?limit=1&total=true&cursor=${first.body.nextCursor}`)
        .expect(200);
      // X-Next-Cursor alone, as a client that does not follow Link sends it: the listing's count goes on.
      const third = await t.http.get(`/fights?limit=1&cursor=${second.headers['x-next-cursor']}`).expect(200);
      const fourth = await t.http
        .get(`/fights?limit=1&total=true&cursor=${third.body.nextCursor}`)
        .expect(200);
      const withoutTotal = await t.http
        .get(`/fights?limit=1&total=false&cursor=${third.body.nextCursor}`)
        .expect(200);
      expect([second.body.total, third.body.total, fourth.body.total, withoutTotal.body.total]).toEqual([
        ids.length,
        ids.length,
        ids.length,
        undefined,
      ]);
      expect(counts).toBe(1);
    });

    it('given GraphQL selecting total on every page, the first page counts and the pages after repeat it', async () => {
      counts = 0;
      const totals: number[] = [];
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { data?: any; errors?: unknown } = await t.gql(PAGE, { cursor });
        expect(res.errors).toBeUndefined();
        totals.push(res.data.fights.total);
        seen.push(...res.data.fights.items.map((f: { fightId: string }) => f.fightId));
        cursor = res.data.fights.nextCursor;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());
      expect(totals).toEqual([6, 6, 6]);
      expect(counts).toBe(1);
      counts = 0;
      expect((await t.gql('{ fights(limit: 2) { nextCursor } }')).data.fights.nextCursor).toBeTruthy();
      expect(counts).toBe(0);
      const spread = await t.gql(
        '{ fights(status: "setup") { ...n } } fragment n on FightPageModel { total }',
      );
      expect(spread.data.fights.total).toBe(6);
      expect(counts).toBe(1);
    });
  });
}

onEveryEngine(totalSuite, {
  prefix: 'ftotal',
  what: 'The fight list total',
  title: 'the fight list total',
});
