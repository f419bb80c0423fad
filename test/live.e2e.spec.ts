import WebSocket from 'ws';
import { Client, createClient } from 'graphql-ws';
import { removeDir, startApp, TestApp } from './support/app';
import { soloFight } from './support/fight-calls';

const EVENTS = `subscription($fightId: ID!, $after: Int) { fightEvents(fightId: $fightId, after: $after) { seq type hash } }`;
const VIEWS = `subscription($fightId: ID!) { fightView(fightId: $fightId) { seq view } }`;

let apiKey = '';
function wsClient(url: string, key = apiKey): Client {
  return createClient({
    url: url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    connectionParams: { authorization: `Bearer ${key}` },
  });
}

async function until(check: () => boolean, timeoutMs = 60000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A subscriber that records seqs, can drop its connection and come back with its last seq. */
class Subscriber {
  seqs: number[] = [];
  private client?: Client;
  private stop?: () => void;
  constructor(
    private readonly url: string,
    private readonly fightId: string,
  ) {}

  connect(): void {
    this.client = wsClient(this.url);
    this.stop = this.client.subscribe<{ fightEvents: { seq: number } }>(
      { query: EVENTS, variables: { fightId: this.fightId, after: this.seqs.at(-1) ?? 0 } },
      {
        next: (r) => this.seqs.push(r.data!.fightEvents.seq),
        error: () => undefined,
        complete: () => undefined,
      },
    );
  }

  async disconnect(): Promise<void> {
    this.stop?.();
    await this.client?.dispose();
  }
}

describe('live read side: subscriptions that never miss an event', () => {
  let t: TestApp;
  let fightId: string;
  const command = (body: Record<string, unknown>) =>
    t.http.post(`/fights/${fightId}/commands`).send(body).expect(200);

  beforeAll(async () => {
    t = await startApp({ listen: true });
    apiKey = t.apiKey;
    fightId = await soloFight(t);
  });
  afterAll(async () => {
    await t.close();
    removeDir(t.dataDir);
  });

  it('200 WebSocket subscribers each receive every event in order, also those that reconnect mid-fight', async () => {
    const subscribers = Array.from({ length: 200 }, () => new Subscriber(t.url!, fightId));
    subscribers.forEach((s) => s.connect());
    await until(() => subscribers.every((s) => s.seqs.length >= 2));
    let last = 0;
    for (let i = 0; i < 40; i++) {
      if (i === 10) await Promise.all(subscribers.filter((_, n) => n % 5 === 0).map((s) => s.disconnect()));
      if (i === 20) subscribers.filter((_, n) => n % 5 === 0).forEach((s) => s.connect());
      last = (await command({ type: 'AddNote', text: `note ${i}` })).body.seq;
    }
    await until(() => subscribers.every((s) => s.seqs.at(-1) === last));
    const expected = Array.from({ length: last }, (_, i) => i + 1);
    for (const s of subscribers) expect(s.seqs).toEqual(expected);
    await Promise.all(subscribers.map((s) => s.disconnect()));
  });

  it('fightView pushes the view now and after each change', async () => {
    const client = wsClient(t.url!);
    const seen: number[] = [];
    const stop = client.subscribe<{ fightView: { seq: number; view: any } }>(
      { query: VIEWS, variables: { fightId } },
      { next: (r) => seen.push(r.data!.fightView.seq), error: () => undefined, complete: () => undefined },
    );
    await until(() => seen.length === 1);
    const { body } = await command({ type: 'AddNote', text: 'view me' });
    await until(() => seen.at(-1) === body.seq);
    expect(seen.every((s, i) => i === 0 || s > seen[i - 1])).toBe(true);
    stop();
    await client.dispose();
  });

  it('subscribing to a missing fight is an error with the stable code', async () => {
    const client = wsClient(t.url!);
    const error = await new Promise<any>((resolve) =>
      client.subscribe(
        { query: EVENTS, variables: { fightId: 'missing' } },
        { next: (r) => resolve(r.errors), error: resolve, complete: () => resolve(undefined) },
      ),
    );
    expect(error?.[0]?.extensions).toMatchObject({ code: 'FIGHT_NOT_FOUND', statusCode: 404 });
    await client.dispose();
  });

  it('given an after past the fight’s last seq, then a subscription is SEQ_OUT_OF_RANGE and an event stream 422 naming what was sent', async () => {
    const head = (await t.http.get(`/fights/${fightId}`).expect(200)).body.seq as number;
    const client = wsClient(t.url!);
    const error = await new Promise<any>((resolve) =>
      client.subscribe(
        { query: EVENTS, variables: { fightId, after: head + 1 } },
        { next: (r) => resolve(r.errors), error: resolve, complete: () => resolve(undefined) },
      ),
    );
    expect(error?.[0]?.extensions).toMatchObject({ code: 'SEQ_OUT_OF_RANGE', statusCode: 422 });
    await client.dispose();
    const past = await t.http.get(`/fights/${fightId}/stream?after=${head + 1}`).expect(422);
    expect(past.body).toMatchObject({ code: 'SEQ_OUT_OF_RANGE', field: 'after' });
    const resumed = await t.http
      .get(`/fights/${fightId}/stream`)
      .set('last-event-id', String(head + 99))
      .expect(422);
    expect(resumed.body).toMatchObject({ code: 'SEQ_OUT_OF_RANGE', field: 'Last-Event-ID' });
    expect(resumed.body.message).toContain(`at most ${head}`);
  });

  it('Server-Sent Events replay after Last-Event-ID, then go live', async () => {
    const controller = new AbortController();
    const res = await fetch(`${t.url}/fights/${fightId}/stream`, {
      headers: { 'last-event-id': '3', authorization: `Bearer ${apiKey}` },
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const ids: number[] = [];
    const reader = res.body!.getReader();
    const pump = (async () => {
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        buffer += Buffer.from(value).toString();
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const id = /^id: (\d+)$/m.exec(buffer.slice(0, cut));
          if (id) ids.push(Number(id[1]));
          buffer = buffer.slice(cut + 2);
        }
      }
    })();
    const { body } = await command({ type: 'AddNote', text: 'over SSE' });
    await until(() => ids.at(-1) === body.seq);
    expect(ids).toEqual(Array.from({ length: body.seq - 3 }, (_, i) => i + 4));
    controller.abort();
    await pump;
    const missing = await fetch(`${t.url}/fights/missing/stream?token=${apiKey}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'FIGHT_NOT_FOUND' });
  });
});
