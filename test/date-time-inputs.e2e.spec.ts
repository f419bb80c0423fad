import { removeDir, startApp, TestApp, useEnv } from './support/app';
import { onEveryEngine } from './support/engines';
import { soloFight } from './support/fight-calls';

/**
 * Every date-time a client sends (a token's `expiresAt`, a redelivery's `since`, the deliveries' `?before=`)
 * is a date on the calendar, as README "Errors" asks of every field: 2030-02-31 is refused naming the field
 * (422 INVALID_FIELD in a body, 400 VALIDATION_FAILED in the query), never rolled over to 2030-03-03, and a
 * form JavaScript's Date cannot read (a week date) is refused too rather than stored as no time at all, and
 * so is a time without its offset, which Date would read in the server's own zone.
 */

useEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' });

const IMPOSSIBLE = [
  '2030-02-31T00:00:00Z',
  '2030-04-31T12:00:00Z',
  '2029-02-29T00:00:00Z',
  '2030-01-01 00:00:00Z',
  '2030-W01',
  '20300101T000000Z',
  // No offset: Date would read it in the server's own zone.
  '2030-01-01T00:00:00',
  '2030-01-01',
];

function dateTimeSuite(engine: string, opts: Parameters<typeof startApp>[0], cleanup?: () => Promise<void>) {
  describe(`date-time inputs are dates on the calendar (${engine})`, () => {
    let t: TestApp;
    let fightId: string;
    let endpointId: string;

    beforeAll(async () => {
      t = await startApp(opts);
      fightId = await soloFight(t);
      endpointId = (
        await t.http.post('/webhooks/endpoints').send({ url: 'http://127.0.0.1:9/dates' }).expect(201)
      ).body.endpoint.id;
    });
    afterAll(async () => {
      if (!t) return;
      await t.close();
      removeDir(t.dataDir);
      await cleanup?.();
    });

    it.each(IMPOSSIBLE)(
      'given POST /fights/:id/tokens with expiresAt %s, then 422 INVALID_FIELD naming expiresAt and no token',
      async (expiresAt) => {
        const before = (await t.http.get(`/fights/${fightId}/tokens`).expect(200)).body.length;
        const res = await t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator', expiresAt });
        expect([res.status, res.body.code, res.body.field]).toEqual([422, 'INVALID_FIELD', 'expiresAt']);
        expect(res.body.message).toMatch(
          /^expiresAt must be an ISO 8601 date and time that exists on the calendar/,
        );
        expect((await t.http.get(`/fights/${fightId}/tokens`).expect(200)).body).toHaveLength(before);
      },
    );

    it('given a token expiring on a leap day, then it is issued and stored at that instant', async () => {
      const issued = await t.http
        .post(`/fights/${fightId}/tokens`)
        .send({ role: 'spectator', expiresAt: '2028-02-29T12:00:00Z' })
        .expect(201);
      const listed = (await t.http.get(`/fights/${fightId}/tokens`).expect(200)).body as Array<{
        tokenId: string;
        expiresAt: string;
      }>;
      expect(Date.parse(listed.find((x) => x.tokenId === issued.body.tokenId)!.expiresAt)).toBe(
        Date.parse('2028-02-29T12:00:00Z'),
      );
    });

    it.each(IMPOSSIBLE)(
      'given POST /webhooks/endpoints/:id/redeliver with since %s, then 422 INVALID_FIELD naming since, over REST and GraphQL',
      async (since) => {
        const res = await t.http.post(`/webhooks/endpoints/${endpointId}/redeliver`).send({ since });
        expect([res.status, res.body.code, res.body.field]).toEqual([422, 'INVALID_FIELD', 'since']);
        const gql = await t.gql(
          'mutation($e: ID!, $since: String!) { redeliverWebhooksSince(endpointId: $e, input: { since: $since }) { requeued } }',
          { e: endpointId, since },
        );
        expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_FIELD', field: 'since' });
      },
    );

    it('given a redelivery since a leap day, then it is taken', async () => {
      await t.http
        .post(`/webhooks/endpoints/${endpointId}/redeliver`)
        .send({ since: '2024-02-29T00:00:00Z' })
        .expect(202);
    });

    it.each(IMPOSSIBLE)(
      'given GET /webhooks/endpoints/:id/deliveries?before=%s, then 400 VALIDATION_FAILED naming before',
      async (before) => {
        const res = await t.http.get(
          `/webhooks/endpoints/${endpointId}/deliveries?before=${encodeURIComponent(before)}`,
        );
        expect([res.status, res.body.code, res.body.field]).toEqual([400, 'VALIDATION_FAILED', 'before']);
      },
    );

    it('given deliveries before a leap day, then 200', async () => {
      await t.http
        .get(`/webhooks/endpoints/${endpointId}/deliveries?before=2024-02-29T00:00:00Z`)
        .expect(200);
    });
  });
}

onEveryEngine(dateTimeSuite, {
  prefix: 'dates',
  what: 'date-time inputs',
  title: 'date-time inputs are dates on the calendar',
});
