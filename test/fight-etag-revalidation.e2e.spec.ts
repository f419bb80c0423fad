import { startApp, useApp } from './support/app';
import { onEveryEngine } from './support/engines';

/**
 * A command's answer carries the ETag of the state it left; a GET of the fight that revalidates that tag must not
 * answer with an older state because the read side (the fight-views projection) has not written it yet: it is
 * 304 while the fight is still in that state. A GET without a tag may still read the read side as it stands.
 */
function revalidationSuite(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup?: () => Promise<void>,
) {
  describe(`a fight's ETag revalidated straight after the command that gave it (${engine})`, () => {
    const t = useApp(opts);
    if (cleanup) afterAll(cleanup);
    let fightId = '';
    beforeAll(async () => {
      fightId = (await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201)).body
        .fightId;
    });

    it('given the ETag a command answered with, when the fight is fetched at once with If-None-Match, then 304 every time, never the state before it', async () => {
      const answers: Array<[number, number]> = [];
      for (let i = 0; i < 30; i++) {
        const sent = await t.http
          .post(`/fights/${fightId}/commands`)
          .send({ type: 'AddNote', text: `note ${i}` })
          .expect(200);
        const tag = sent.headers.etag;
        const got = await t.http.get(`/fights/${fightId}`).set('if-none-match', tag);
        answers.push([
          sent.body.seq as number,
          got.status === 304 ? sent.body.seq : (got.body.seq as number),
        ]);
        expect([got.status, got.headers.etag]).toEqual([304, tag]);
      }
      expect(answers.every(([sent, seen]) => seen === sent)).toBe(true);
    });

    it('given a tag of a state the fight never had (a seq past its last), then the fight as it is, 200, not a refusal', async () => {
      const now = await t.http.get(`/fights/${fightId}?minSeq=1`).expect(200);
      const got = await t.http
        .get(`/fights/${fightId}`)
        .set('if-none-match', `W/"999999-${'0'.repeat(64)}"`)
        .expect(200);
      expect(got.body.seq).toBeGreaterThanOrEqual(now.body.seq);
      expect(got.headers.etag).toMatch(new RegExp(`^W/"${got.body.seq}-[0-9a-f]{64}"$`));
    });

    it('given a list of tags, the latest state it names is the one the answer is never older than', async () => {
      const first = await t.http
        .post(`/fights/${fightId}/commands`)
        .send({ type: 'AddNote', text: 'a' })
        .expect(200);
      const second = await t.http
        .post(`/fights/${fightId}/commands`)
        .send({ type: 'AddNote', text: 'b' })
        .expect(200);
      const got = await t.http
        .get(`/fights/${fightId}`)
        .set('if-none-match', `${first.headers.etag}, ${second.headers.etag}`);
      expect(got.status).toBe(304);
    });
  });
}

onEveryEngine(revalidationSuite, {
  prefix: 'etagreval',
  what: 'A fight ETag revalidated straight after its command',
  title: 'a fight ETag revalidated straight after its command',
});
