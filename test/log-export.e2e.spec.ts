import { toNdjson, type FightLog } from '@app/audit';
import { sheet, useApp } from './support/app';

/**
 * GET /fights/:id/log is written a chunk of entries at a time (a long fight's export does not hold
 * the event loop); what the client receives must be the same document as before, in both formats.
 */
describe('fight log export, streamed', () => {
  const t = useApp();

  /** A fight with `notes` GM notes; its id and its seq (events) after the last. */
  const fightWithNotes = async (notes: number): Promise<{ fightId: string; seq: number }> => {
    const { body } = await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        dice: { mode: 'manual' },
        combatants: [{ id: 'a', name: 'A', sheet: sheet() }],
      })
      .expect(201);
    let seq = (await t.http.get(`/fights/${body.fightId}`).expect(200)).body.seq as number;
    for (let i = 0; i < notes; i++)
      seq = (
        await t.http
          .post(`/fights/${body.fightId}/commands`)
          .send({ type: 'AddNote', text: `note ${i}` })
          .expect(200)
      ).body.seq as number;
    return { fightId: body.fightId as string, seq };
  };

  it('given a fight of more events than one chunk, when its log is exported as JSON, then the body is exactly JSON.stringify of the document, every entry in order', async () => {
    const { fightId, seq } = await fightWithNotes(520);
    const res = await t.http
      .get(`/fights/${fightId}/log`)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (text += c));
        r.on('end', () => done(null, text));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const text = res.body as string;
    const log = JSON.parse(text) as FightLog;
    expect(text).toBe(JSON.stringify(log));
    expect(seq).toBeGreaterThan(520);
    expect(log.events).toBe(seq);
    expect(log.entries.map((e) => e.seq)).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
    expect(log.view).toMatchObject({ seq, headHash: log.headHash });
  });

  it('given the same fight, when its log is exported as NDJSON, then the body is exactly toNdjson of the JSON document', async () => {
    const { fightId } = await fightWithNotes(3);
    const json = (await t.http.get(`/fights/${fightId}/log`).expect(200)).body as FightLog;
    const ndjson = await t.http.get(`/fights/${fightId}/log?format=ndjson`).expect(200);
    expect(ndjson.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(ndjson.text).toBe(toNdjson(json));
  });

  it('given an exported log, when it is asked for again with its ETag, then 304 until the fight moves on', async () => {
    const { fightId, seq } = await fightWithNotes(1);
    const first = await t.http.get(`/fights/${fightId}/log`).expect(200);
    const tag = first.headers.etag;
    expect(tag).toBe(`W/"log-${seq}-${(first.body as FightLog).headHash}"`);
    await t.http.get(`/fights/${fightId}/log`).set('if-none-match', tag).expect(304);
    await t.http.post(`/fights/${fightId}/commands`).send({ type: 'AddNote', text: 'later' }).expect(200);
    const after = await t.http.get(`/fights/${fightId}/log`).set('if-none-match', tag).expect(200);
    expect(after.headers.etag).not.toBe(tag);
  });

  it('given no ?format=, when Accept is asked, then its q-values choose the format, each with a tag of its own, and the answer varies by Accept', async () => {
    const { fightId, seq } = await fightWithNotes(1);
    const json = await t.http.get(`/fights/${fightId}/log`).expect(200);
    expect(json.headers.vary).toMatch(/accept/i);
    const preferred = await t.http
      .get(`/fights/${fightId}/log`)
      .set('accept', 'application/json;q=0.5, application/x-ndjson')
      .expect(200);
    expect(preferred.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(preferred.headers.etag).toBe(`W/"log-ndjson-${seq}-${(json.body as FightLog).headHash}"`);
    expect(preferred.headers.etag).not.toBe(json.headers.etag);
    const refused = await t.http
      .get(`/fights/${fightId}/log`)
      .set('accept', 'application/x-ndjson;q=0, application/json')
      .expect(200);
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    // A charset parameter names the charset the answers are in: it does not change the choice.
    for (const accept of [
      'application/x-ndjson; charset=utf-8',
      'application/x-ndjson;charset=UTF-8, */*;q=0.1',
    ]) {
      const withCharset = await t.http.get(`/fights/${fightId}/log`).set('accept', accept).expect(200);
      expect([accept, withCharset.headers['content-type']]).toEqual([
        accept,
        'application/x-ndjson; charset=utf-8',
      ]);
    }
    // The JSON tag does not make the NDJSON answer fresh.
    await t.http
      .get(`/fights/${fightId}/log?format=ndjson`)
      .set('if-none-match', json.headers.etag)
      .expect(200);
  });
});
