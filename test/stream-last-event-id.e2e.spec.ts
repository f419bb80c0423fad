import { useApp } from './support/app';

/**
 * GET /fights/:id/stream resumes after Last-Event-ID, which EventSource sends itself: an empty one is none (the
 * WHATWG HTML "Server-sent events" reconnection sends no id then), so ?after= decides; anything else that is not a
 * seq is refused in the shape of every refused parameter, as ?after= is.
 */
describe('SSE: Last-Event-ID', () => {
  const t = useApp({ listen: true });
  let fightId = '';
  beforeAll(async () => {
    fightId = (await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201)).body
      .fightId;
    for (const text of ['one', 'two'])
      await t.http.post(`/fights/${fightId}/commands`).send({ type: 'AddNote', text }).expect(200);
  });

  /** The ids of the first `count` messages of a stream, then the stream is closed. */
  async function firstIds(headers: Record<string, string>, query: string, count: number): Promise<number[]> {
    const controller = new AbortController();
    const res = await fetch(`${t.url}/fights/${fightId}/stream${query}`, {
      headers: { authorization: `Bearer ${t.apiKey}`, ...headers },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const ids: number[] = [];
    let buffer = '';
    while (ids.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += Buffer.from(value).toString();
      for (const m of buffer.matchAll(/^id: (\d+)$/gm))
        if (!ids.includes(Number(m[1]))) ids.push(Number(m[1]));
    }
    controller.abort();
    return ids;
  }

  it('given an empty Last-Event-ID, when the stream is opened, then it is none: the stream starts after ?after=', async () => {
    expect(await firstIds({ 'last-event-id': '' }, '?after=1', 2)).toEqual([2, 3]);
    expect(await firstIds({ 'last-event-id': '' }, '', 3)).toEqual([1, 2, 3]);
  });

  it('given a Last-Event-ID that is no seq, then 400 VALIDATION_FAILED in the shape ?after= is refused in: code, field, message, issues', async () => {
    const after = await fetch(`${t.url}/fights/${fightId}/stream?after=x`, {
      headers: { authorization: `Bearer ${t.apiKey}` },
    });
    const afterBody = (await after.json()) as Record<string, unknown>;
    expect(after.status).toBe(400);
    for (const bad of ['x', '-1', '1.5']) {
      const res = await fetch(`${t.url}/fights/${fightId}/stream`, {
        headers: { authorization: `Bearer ${t.apiKey}`, 'last-event-id': bad },
      });
      const body = (await res.json()) as Record<string, unknown>;
      expect([bad, res.status, Object.keys(body).sort()]).toEqual([bad, 400, Object.keys(afterBody).sort()]);
      expect(body).toMatchObject({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        field: 'Last-Event-ID',
        issues: [{ field: 'Last-Event-ID', code: 'INVALID_FIELD', message: body.message }],
      });
      expect(body.message).toMatch(/^Last-Event-ID /);
    }
  });
});
