import { useApp } from './support/app';

/**
 * Many clients writing to one fight at once (a table of players, a bot, the GM): the commands that wait for
 * the one in flight share an append (docs/event-store.md "Commands of one fight, together"). What each client
 * and each watcher sees must be what one-at-a-time commands give: every command answered with its own seq and
 * the view as it left the fight, every event pushed once, in order, and a log that verifies.
 */
describe('commands sent to one fight at once, over HTTP', () => {
  const t = useApp({ listen: true });

  /** The SSE messages of a stream after `after`, until `count` events have come; then it is closed. */
  async function streamed(fightId: string, after: number, count: number) {
    const controller = new AbortController();
    const res = await fetch(`${t.url}/fights/${fightId}/stream?after=${after}`, {
      headers: { authorization: `Bearer ${t.apiKey}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const read = (async () => {
      const events: Array<{ id: number; seq: number; text: string }> = [];
      let buffer = '';
      while (events.length < count) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += Buffer.from(value).toString();
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (\d+)$/m.exec(message);
          const data = /^data: (.*)$/m.exec(message);
          if (!id || !data) continue;
          const event = JSON.parse(data[1]) as { seq: number; data: { text?: string } };
          events.push({ id: Number(id[1]), seq: event.seq, text: event.data.text ?? '' });
        }
      }
      controller.abort();
      return events;
    })();
    return read;
  }

  it('given 40 notes sent at once by 40 clients, then each is answered with its own seq and view, each watcher gets every event once in order, and the log verifies', async () => {
    const created = await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201);
    const fightId = created.body.fightId as string;
    const head = created.body.seq as number;
    const watching = streamed(fightId, head, 40);
    const texts = Array.from({ length: 40 }, (_, i) => `note ${i}`);
    const answers = await Promise.all(
      texts.map(async (text) => {
        const res = await fetch(`${t.url}/fights/${fightId}/commands`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'AddNote', text }),
        });
        const body = (await res.json()) as {
          seq: number;
          events: Array<{ seq: number; data: { text: string } }>;
          view: { seq: number };
        };
        return { status: res.status, text, etag: res.headers.get('etag'), ...body };
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(texts.map(() => 200));
    // Seqs head+1 … head+40, one each; each answer's event is its own command's, its view the fight at its seq.
    expect(answers.map((a) => a.seq).sort((a, b) => a - b)).toEqual(texts.map((_, i) => head + 1 + i));
    for (const a of answers) {
      expect(a.events).toEqual([expect.objectContaining({ seq: a.seq, data: { text: a.text } })]);
      expect(a.view.seq).toBe(a.seq);
    }
    expect(new Set(answers.map((a) => a.etag)).size).toBe(40);

    const log = (await t.http.get(`/fights/${fightId}/events`).expect(200)).body as Array<{
      seq: number;
      data: { text?: string };
    }>;
    const bySeq = new Map(answers.map((a) => [a.seq, a.text]));
    expect(log.slice(-40).map((e) => e.data.text)).toEqual(log.slice(-40).map((e) => bySeq.get(e.seq)));

    const pushed = await watching;
    expect(pushed.map((e) => e.seq)).toEqual(texts.map((_, i) => head + 1 + i));
    expect(pushed.map((e) => e.id)).toEqual(pushed.map((e) => e.seq));
    expect(pushed.map((e) => e.text)).toEqual(log.slice(-40).map((e) => e.data.text));

    const exported = (await t.http.get(`/fights/${fightId}/log`).expect(200)).body;
    expect((await t.http.post('/audit/verify').send(exported).expect(200)).body).toMatchObject({ ok: true });
  });
});
