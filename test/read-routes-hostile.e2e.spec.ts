import { removeDir, sheet, startApp, TestApp } from './support/app';
import { onEveryEngine } from './support/engines';

/** A cursor as pagination.ts writes one (base64url of its JSON), with whatever a hostile client puts in it. */
const cursorOf = (value: Record<string, unknown>) => Buffer.from(JSON.stringify(value)).toString('base64url');

const FIGHTS = `query($cursor: String) { fights(limit: 1, cursor: $cursor) { items { fightId } nextCursor } }`;
const EVENTS = `query($f: ID!, $cursor: String) { eventsPage(fightId: $f, limit: 1, cursor: $cursor) { limit nextCursor } }`;
const ENDPOINTS = `query($cursor: String) { webhookEndpointsPage(limit: 1, cursor: $cursor) { limit nextCursor } }`;

/** What a refusal says, REST body or GraphQL extensions alike. */
const said = (e: { statusCode: number; code: string; field?: string; message: string }) => ({
  statusCode: e.statusCode,
  code: e.code,
  field: e.field,
  message: e.message,
});

function hostileReads(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup: () => Promise<void> = async () => undefined,
) {
  describe(`read routes under hostile input (${engine})`, () => {
    let t: TestApp;
    let fightId: string;

    beforeAll(async () => {
      t = await startApp(opts);
      fightId = (
        await t.http
          .post('/fights')
          .send({ system: 'narateer', name: 'F', combatants: [{ name: 'A', sheet: sheet() }] })
          .expect(201)
      ).body.fightId;
    });
    afterAll(async () => {
      await t?.close();
      if (t && !opts?.eventStoreUrl) removeDir(t.dataDir);
      await cleanup();
    });

    // A fights cursor is checked field by field, but its id could hold U+0000, which PostgreSQL cannot compare
    // with: the list was a 500 there and a 200 on SQLite. Every engine refuses it as the tampering it is.
    it.each([
      ['U+0000', 'a\u0000b'],
      ['a lone surrogate', 'a\ud800b'],
    ])('a fights cursor whose id holds %s is 400 INVALID_CURSOR, REST and GraphQL', async (_, id) => {
      const cursor = cursorOf({ list: 'fights', created: '2999-01-01T00:00:00.000Z', id });
      const rest = await t.http.get(`/fights?limit=1&cursor=${cursor}`).expect(400);
      expect(rest.body).toMatchObject({ statusCode: 400, code: 'INVALID_CURSOR', field: 'cursor' });
      const gql = await t.gql(FIGHTS, { cursor });
      expect(said(gql.errors![0].extensions)).toEqual(said(rest.body));
    });

    // A client builds no cursor, so a string no list gave out is INVALID_CURSOR whatever its length. REST's
    // ?cursor= was bounded by its length first: VALIDATION_FAILED for one that is empty or over 200 characters,
    // INVALID_CURSOR for one tampered within the bound.
    it.each([
      ['empty', ''],
      ['200 characters long', 'A'.repeat(200)],
      ['201 characters long', 'A'.repeat(201)],
      ['4,000 characters long', 'A'.repeat(4000)],
    ])(
      'a cursor no list gave out, %s, is 400 INVALID_CURSOR, the same from REST and GraphQL',
      async (_, cursor) => {
        const invalid = {
          statusCode: 400,
          code: 'INVALID_CURSOR',
          field: 'cursor',
          message:
            'cursor is not one this list gave out: send back X-Next-Cursor / nextCursor (or follow Link rel="next") as it came',
        };
        const answers = [
          ['GET /fights', (await t.http.get(`/fights?limit=1&cursor=${cursor}`)).body],
          ['fights', (await t.gql(FIGHTS, { cursor })).errors?.[0].extensions],
          [
            'GET /fights/:id/events',
            (await t.http.get(`/fights/${fightId}/events?limit=1&cursor=${cursor}`)).body,
          ],
          ['eventsPage', (await t.gql(EVENTS, { f: fightId, cursor })).errors?.[0].extensions],
          [
            'GET /webhooks/endpoints',
            (await t.http.get(`/webhooks/endpoints?limit=1&cursor=${cursor}`)).body,
          ],
          ['webhookEndpointsPage', (await t.gql(ENDPOINTS, { cursor })).errors?.[0].extensions],
        ] as const;
        for (const [list, answer] of answers) expect([list, said(answer)]).toEqual([list, invalid]);
      },
    );

    it('a query parameter sent twice is told so, naming it', async () => {
      for (const path of ['/fights?limit=2&limit=3', `/fights/${fightId}/events?after=0&after=1&after=2`]) {
        const res = await t.http.get(path).expect(400);
        const name = path.includes('limit') ? 'limit' : 'after';
        expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', field: name });
        expect(res.body.message).toBe(
          `${name} is sent ${path.split(`${name}=`).length - 1} times; it takes one value`,
        );
      }
    });

    // ?at= answered and ?minSeq= dropped unseen: a minSeq past the fight's last seq is 422 with or without at.
    it('GET /fights/:id?at=&minSeq= and fight(at:, minSeq:) do not drop minSeq', async () => {
      const alone = await t.http.get(`/fights/${fightId}?minSeq=5`).expect(422);
      expect(alone.body).toMatchObject({ code: 'SEQ_OUT_OF_RANGE', field: 'minSeq' });
      const both = await t.http.get(`/fights/${fightId}?at=1&minSeq=5`).expect(422);
      expect(both.body).toEqual(alone.body);
      // A minSeq the fight has reached changes nothing: the state at seq 1.
      const held = await t.http.get(`/fights/${fightId}?at=1&minSeq=2`).expect(200);
      expect(held.body.seq).toBe(1);
      // at's own range is checked first, as before.
      const past = await t.http.get(`/fights/${fightId}?at=9&minSeq=9`).expect(422);
      expect(past.body).toMatchObject({ code: 'SEQ_OUT_OF_RANGE', field: 'at' });
      // GraphQL's fight(at:, minSeq:) answers the same.
      const gql = await t.gql(`query($f: ID!) { fight(fightId: $f, at: 1, minSeq: 5) { seq } }`, {
        f: fightId,
      });
      expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'SEQ_OUT_OF_RANGE', field: 'minSeq' });
    });

    // The lab renamed the refused field (`combatants[0].sheet.a` → `sheets[0].a`) but not the path in the
    // message's words: `sheets[0].a is not a field of combatants[0].sheet`, a field the caller never sent.
    it('a Lab sheet refusal names only what the caller sent, REST and GraphQL', async () => {
      const input = {
        system: 'narateer',
        fights: 1,
        seed: 's',
        strategies: ['heavy'],
        sheets: [{ a: 1 }, {}],
      };
      const rest = await t.http.post('/lab/runs').send(input).expect(422);
      expect(rest.body).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'sheets[0].a' });
      expect(JSON.stringify(rest.body)).not.toContain('combatants');
      expect(rest.body.issues[0].message).toBe('sheets[0].a is not a field of sheets[0]');
      const gql = await t.gql(`mutation($i: StartLabRunInput!) { startLabRun(input: $i) { id } }`, {
        i: input,
      });
      expect(gql.errors![0].extensions).toMatchObject({
        code: rest.body.code,
        field: rest.body.field,
        message: rest.body.message,
        issues: rest.body.issues,
      });
    });
  });
}

onEveryEngine(hostileReads, {
  prefix: 'rrh',
  what: 'Read routes under hostile input',
  title: 'read routes under hostile input',
});
