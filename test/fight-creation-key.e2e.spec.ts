import { sheet, startApp, useApp } from './support/app';
import { onEveryEngine } from './support/engines';

/**
 * `POST /fights` (and GraphQL's createFight) take an idempotency key, `commandId`, as commands do: a client that
 * timed out sends the creation again and gets the fight the first request made, not a second fight.
 */
function creationKeySuite(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup?: () => Promise<void>,
) {
  describe(`a fight created with commandId, sent again (${engine})`, () => {
    const t = useApp(opts);
    if (cleanup) afterAll(cleanup);
    const fight = (more: Record<string, unknown> = {}) => ({
      system: 'narateer',
      name: 'Duel at the ford',
      combatants: [
        { id: 'mira', name: 'Mira', side: 'a', sheet: sheet(3) },
        { id: 'orin', name: 'Orin', side: 'b', sheet: sheet(2) },
      ],
      ...more,
    });
    const total = async () => (await t.http.get('/fights?total=true').expect(200)).body.total as number;
    const CREATE = `mutation($i: CreateFightInput!) { createFight(input: $i) { fightId seq replayed events { hash commandId } } }`;

    it('given the same creation with the same commandId twice, then one fight: 201 both times, the same Location and ETag, the second replayed', async () => {
      const before = await total();
      const first = await t.http
        .post('/fights')
        .send(fight({ commandId: 'ford-duel' }))
        .expect(201);
      const second = await t.http
        .post('/fights')
        .send(fight({ commandId: 'ford-duel' }))
        .expect(201);
      expect([first.body.replayed, second.body.replayed]).toEqual([false, true]);
      expect(second.body.fightId).toBe(first.body.fightId);
      expect(second.headers.location).toBe(first.headers.location);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(second.body.events).toEqual(first.body.events);
      expect(first.body.events.every((e: { commandId: string }) => e.commandId === 'ford-duel')).toBe(true);
      expect(await total()).toBe(before + 1);
    });

    it('given a creation made over REST, then GraphQL’s createFight with its commandId replays it, and the other way round', async () => {
      const rest = await t.http
        .post('/fights')
        .send(fight({ commandId: 'rest-first' }))
        .expect(201);
      const viaGql = await t.gql(CREATE, { i: fight({ commandId: 'rest-first' }) });
      expect(viaGql.errors).toBeUndefined();
      expect(viaGql.data.createFight).toMatchObject({ fightId: rest.body.fightId, replayed: true });

      const gqlFirst = await t.gql(CREATE, { i: fight({ commandId: 'graphql-first' }) });
      expect(gqlFirst.data.createFight.replayed).toBe(false);
      const restAgain = await t.http
        .post('/fights')
        .send(fight({ commandId: 'graphql-first' }))
        .expect(201);
      expect([restAgain.body.fightId, restAgain.body.replayed]).toEqual([
        gqlFirst.data.createFight.fightId,
        true,
      ]);
    });

    it('given the commandId of a creation sent with other fields, then 422 COMMAND_ID_REUSED naming commandId, on REST and GraphQL, and no fight made', async () => {
      await t.http
        .post('/fights')
        .send(fight({ commandId: 'reused' }))
        .expect(201);
      const before = await total();
      const rest = await t.http
        .post('/fights')
        .send(fight({ commandId: 'reused', name: 'Another fight' }))
        .expect(422);
      expect(rest.body).toMatchObject({ code: 'COMMAND_ID_REUSED', field: 'commandId' });
      const gql = await t.gql(CREATE, {
        i: fight({ commandId: 'reused', system: 'archsoul', combatants: [] }),
      });
      expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'COMMAND_ID_REUSED', field: 'commandId' });
      expect(await total()).toBe(before);
    });

    it('given a commandId that is empty, too long or not a string, then 422 INVALID_FIELD naming commandId', async () => {
      for (const commandId of ['', 'x'.repeat(101), 7, null]) {
        const res = await t.http.post('/fights').send(fight({ commandId })).expect(422);
        expect([commandId, res.body.code, res.body.field]).toEqual([commandId, 'INVALID_FIELD', 'commandId']);
      }
    });

    it('given another tenant with the same commandId, then a fight of its own, which neither tenant sees of the other', async () => {
      const mine = await t.http
        .post('/fights')
        .send(fight({ commandId: 'same-key' }))
        .expect(201);
      const other = await t.tenant('Other table');
      const theirs = await t.anon
        .post('/fights')
        .set('authorization', `Bearer ${other.apiKey}`)
        .send(fight({ commandId: 'same-key' }))
        .expect(201);
      expect(theirs.body.replayed).toBe(false);
      expect(theirs.body.fightId).not.toBe(mine.body.fightId);
      await t.anon
        .get(`/fights/${mine.body.fightId}`)
        .set('authorization', `Bearer ${other.apiKey}`)
        .expect(404);
    });

    it('given the same creation sent ten times at once, then one fight is made and every answer names it', async () => {
      const before = await total();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => t.http.post('/fights').send(fight({ commandId: 'at-once' }))),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
      expect(new Set(answers.map((a) => a.body.fightId)).size).toBe(1);
      expect(answers.filter((a) => a.body.replayed === false)).toHaveLength(1);
      expect(await total()).toBe(before + 1);
    });
  });
}

onEveryEngine(creationKeySuite, {
  prefix: 'createkey',
  what: 'A fight created with an idempotency key',
  title: 'a fight created with commandId, sent again',
});
