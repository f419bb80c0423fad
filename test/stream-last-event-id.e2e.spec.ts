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

  it('given a seq as ?after= and as Last-Event-ID, then each reads it alike: up to 2^53 - 1, past the fight 422, beyond 400', async () => {
    const answer = async (query: string, headers: Record<string, string>) => {
      const res = await fetch(`${t.url}/fights/${fightId}/stream${query}`, {
        headers: { authorization: `Bearer ${t.apiKey}`, ...headers },
      });
      const body = (await res.json()) as { code: string };
      return [res.status, body.code];
    };
    for (const [seq, status, code] of [
      ['1000000000000000', 422, 'SEQ_OUT_OF_RANGE'],
      [String(Number.MAX_SAFE_INTEGER), 422, 'SEQ_OUT_OF_RANGE'],
      ['9007199254740992', 400, 'VALIDATION_FAILED'],
      ['10000000000000000', 400, 'VALIDATION_FAILED'],
      ['-0', 400, 'VALIDATION_FAILED'],
    ] as const) {
      expect([seq, 'after', ...(await answer(`?after=${seq}`, {}))]).toEqual([seq, 'after', status, code]);
      expect([seq, 'Last-Event-ID', ...(await answer('', { 'last-event-id': seq }))]).toEqual([
        seq,
        'Last-Event-ID',
        status,
        code,
      ]);
    }
  });
});
