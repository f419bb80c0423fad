import { useApp, useEnv } from './support/app';
import { projected } from './support/read-side';

useEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' });

/**
 * README "Errors": REST and GraphQL answer the same input alike. A paging or seq argument out of its
 * range is refused over GraphQL as the same query parameter is over REST (400 VALIDATION_FAILED naming
 * it, the same message), never clamped into a page nobody asked for.
 */
describe('GraphQL: list and seq arguments out of range are refused as REST refuses them', () => {
  const t = useApp();
  let fightId = '';
  let endpointId = '';

  beforeAll(async () => {
    const created = await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201);
    fightId = created.body.fightId;
    // The fight list is a read model: the lists below are asked once it holds the fight.
    await projected(t, fightId, created.body.seq);
    endpointId = (
      await t.http.post('/webhooks/endpoints').send({ url: 'http://127.0.0.1:9/hook' }).expect(201)
    ).body.endpoint.id;
    expect(endpointId).toMatch(/\S/);
  });

  const cases = (): Array<[string, string, string]> => [
    ['/fights?limit=0', '{ fights(limit: 0) { total } }', 'limit'],
    ['/fights?limit=-3', '{ fights(limit: -3) { total } }', 'limit'],
    ['/fights?limit=1000', '{ fights(limit: 1000) { total } }', 'limit'],
    ['/fights?offset=-1', '{ fights(offset: -1) { total } }', 'offset'],
    ['/fights?status=bogus', '{ fights(status: "bogus") { total } }', 'status'],
    ['/fights?system=', '{ fights(system: "") { total } }', 'system'],
    ['/fights?system=nope', '{ fights(system: "nope") { total } }', 'system'],
    [`/fights/${fightId}?minSeq=-5`, `{ fight(fightId: "${fightId}", minSeq: -5) { seq } }`, 'minSeq'],
    [`/fights/${fightId}?at=0`, `{ fight(fightId: "${fightId}", at: 0) { seq } }`, 'at'],
    [`/fights/${fightId}/events?after=-1`, `{ events(fightId: "${fightId}", after: -1) { seq } }`, 'after'],
    [`/fights/${fightId}/events?limit=0`, `{ events(fightId: "${fightId}", limit: 0) { seq } }`, 'limit'],
    [
      `/fights/${fightId}/events?after=-1`,
      `{ eventsPage(fightId: "${fightId}", after: -1) { limit } }`,
      'after',
    ],
    ['/webhooks/endpoints?limit=0', '{ webhookEndpointsPage(limit: 0) { limit } }', 'limit'],
    [
      `/webhooks/endpoints/${endpointId}/deliveries?limit=500`,
      `{ webhookDeliveries(endpointId: "${endpointId}", limit: 500) { id } }`,
      'limit',
    ],
    [
      `/webhooks/endpoints/${endpointId}/deliveries?status=lost`,
      `{ webhookDeliveries(endpointId: "${endpointId}", status: "lost") { id } }`,
      'status',
    ],
    [
      `/webhooks/endpoints/${endpointId}/deliveries?limit=0`,
      `{ webhookDeliveriesPage(endpointId: "${endpointId}", limit: 0) { limit } }`,
      'limit',
    ],
  ];

  it('given an argument out of range, when GraphQL is asked what REST refuses, then the same 400 VALIDATION_FAILED, field and message', async () => {
    for (const [rest, query, field] of cases()) {
      const refused = (await t.http.get(rest).expect(400)).body;
      expect([rest, refused.code, refused.field]).toEqual([rest, 'VALIDATION_FAILED', field]);
      const res = await t.gql(query);
      expect([query, res.errors?.[0].extensions]).toEqual([
        query,
        expect.objectContaining({
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          field,
          message: refused.message,
        }),
      ]);
      expect(res.data).toBeNull();
    }
  });

  it('given arguments in range, when the same lists are asked, then they answer as before', async () => {
    const res = await t.gql(
      `{ fights(limit: 100, offset: 0, status: "setup", system: "narateer") { total items { fightId } }
         fight(fightId: "${fightId}", minSeq: 0) { seq }
         events(fightId: "${fightId}", after: 0) { seq } }`,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.fights.items.map((f: { fightId: string }) => f.fightId)).toContain(fightId);
    expect(res.data.fight.seq).toBeGreaterThanOrEqual(1);
    expect(res.data.events.length).toBeGreaterThanOrEqual(1);
  });
});
