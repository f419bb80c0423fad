import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { startApp, useApp } from './support/app';
import { onEveryEngine } from './support/engines';
import { twoInstances } from './support/two-instances';

const EVENTS = `subscription($fightId: ID!, $after: Int) { fightEvents(fightId: $fightId, after: $after) { seq type } }`;
const VIEWS = `subscription($fightId: ID!) { fightView(fightId: $fightId) { seq view } }`;

/**
 * Nothing follows FightEnded (no command is accepted after it, and it cannot be undone), so a fight's live
 * streams end after it instead of staying open for ever: SSE closes the response, and a stream resumed at
 * the last event is 204 No Content, which tells EventSource not to reconnect; a graphql-ws subscription is
 * completed (`complete`), so a client's loop over it ends.
 */
function endSuite(engine: string, opts: Parameters<typeof startApp>[0], cleanup?: () => Promise<void>) {
  describe(`live streams end with the fight (${engine})`, () => {
    const t = useApp({ ...opts, listen: true });
    if (cleanup) afterAll(cleanup);
    const command = (fightId: string, body: Record<string, unknown>) =>
      t.http.post(`/fights/${fightId}/commands`).send(body).expect(200);
    async function newFight(): Promise<string> {
      const fightId = (await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201))
        .body.fightId as string;
      await command(fightId, { type: 'AddNote', text: 'one' });
      return fightId;
    }
    /** Ends the fight without waiting (a supertest request runs once it is awaited). */
    const endLater = (fightId: string) => void command(fightId, { type: 'EndFight' }).then(() => undefined);
    const sse = (fightId: string, headers: Record<string, string> = {}, query = '') =>
      fetch(`${t.url}/fights/${fightId}/stream${query}`, {
        headers: { authorization: `Bearer ${t.apiKey}`, ...headers },
        signal: AbortSignal.timeout(20_000),
      });
    /** The stream's messages as `seq type`, read until the server ends the response. */
    async function readToEnd(res: Response): Promise<string[]> {
      const text = await res.text();
      return [...text.matchAll(/^id: (\d+)\nevent: (\w+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
    }
    function wsClient() {
      return createClient({
        url: t.url!.replace('http', 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: { authorization: `Bearer ${t.apiKey}` },
      });
    }
    /** Every payload of a subscription until it completes (rejects on an error, or if it has not completed in time). */
    function untilComplete<T>(
      query: string,
      variables: Record<string, unknown>,
      onFirst?: () => void,
    ): Promise<T[]> {
      const client = wsClient();
      const got: T[] = [];
      return new Promise<T[]>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`not completed; got ${JSON.stringify(got)}`)),
          20_000,
        );
        client.subscribe<T>(
          { query, variables },
          {
            next: (r) => {
              got.push(r.data as T);
              if (got.length === 1) onFirst?.();
            },
            error: (e) => {
              clearTimeout(timer);
              reject(e instanceof Error ? e : new Error(JSON.stringify(e)));
            },
            complete: () => {
              clearTimeout(timer);
              resolve(got);
            },
          },
        );
      }).finally(() => void client.dispose());
    }

    it('given an ended fight, when its SSE stream is opened from the start, then it gives every event through FightEnded and ends', async () => {
      const fightId = await newFight();
      await command(fightId, { type: 'EndFight' });
      const res = await sse(fightId);
      expect(res.status).toBe(200);
      expect(await readToEnd(res)).toEqual(['1 FightStarted', '2 GmNoteAdded', '3 FightEnded']);
    });

    it('given an ended fight, when the stream resumes at FightEnded (Last-Event-ID or ?after=), then 204 with no body; from before it, the rest and the end', async () => {
      const fightId = await newFight();
      await command(fightId, { type: 'EndFight' });
      for (const res of [await sse(fightId, { 'last-event-id': '3' }), await sse(fightId, {}, '?after=3')]) {
        expect(res.status).toBe(204);
        expect(await res.text()).toBe('');
      }
      const rest = await sse(fightId, { 'last-event-id': '2' });
      expect(rest.status).toBe(200);
      expect(await readToEnd(rest)).toEqual(['3 FightEnded']);
      // Past the end is still a seq the fight never had.
      expect((await sse(fightId, {}, '?after=4')).status).toBe(422);
    });

    it('given an SSE stream open on a running fight, when the GM ends the fight, then the stream ends after FightEnded', async () => {
      const fightId = await newFight();
      const res = await sse(fightId, {}, '?after=2');
      expect(res.status).toBe(200);
      const reading = readToEnd(res);
      await command(fightId, { type: 'AddNote', text: 'two' });
      await command(fightId, { type: 'EndFight' });
      expect(await reading).toEqual(['3 GmNoteAdded', '4 FightEnded']);
    });

    it('given a graphql-ws fightEvents subscription, when the fight ends, then it gets FightEnded and is completed; on an ended fight at once after its events', async () => {
      const fightId = await newFight();
      const live = untilComplete<{ fightEvents: { seq: number; type: string } }>(
        EVENTS,
        { fightId, after: 1 },
        () => endLater(fightId),
      );
      expect((await live).map((d) => `${d.fightEvents.seq} ${d.fightEvents.type}`)).toEqual([
        '2 GmNoteAdded',
        '3 FightEnded',
      ]);
      const ended = await untilComplete<{ fightEvents: { seq: number } }>(EVENTS, { fightId, after: 2 });
      expect(ended.map((d) => d.fightEvents.seq)).toEqual([3]);
      expect(await untilComplete(EVENTS, { fightId, after: 3 })).toEqual([]);
    });

    it('given a graphql-ws fightView subscription, when the fight ends, then its last view is the ended one and it is completed; on an ended fight, the view then the end', async () => {
      const fightId = await newFight();
      const live = await untilComplete<{ fightView: { seq: number; view: { status: string } } }>(
        VIEWS,
        { fightId },
        () => endLater(fightId),
      );
      expect(live.at(-1)!.fightView).toMatchObject({ seq: 3, view: { status: 'ended' } });
      const ended = await untilComplete<{ fightView: { seq: number; view: { status: string } } }>(VIEWS, {
        fightId,
      });
      expect(ended.map((d) => [d.fightView.seq, d.fightView.view.status])).toEqual([[3, 'ended']]);
    });
  });
}

onEveryEngine(endSuite, {
  prefix: 'streamend',
  what: 'Live streams ending with the fight',
  title: 'live streams end with the fight',
});

const PG_URL = process.env.EVENT_STORE_PG_URL;
if (!PG_URL) {
  console.warn(
    'Live streams ending on another instance: PostgreSQL suite SKIPPED: set EVENT_STORE_PG_URL=postgres://user@host:5432/db to run it',
  );
  describe.skip('a fight ended on one instance ends its streams on another (PostgreSQL, SKIPPED: EVENT_STORE_PG_URL is not set)', () =>
    it('needs PostgreSQL', () => undefined));
} else {
  describe('a fight ended on one instance ends its streams on another (two instances on one PostgreSQL schema)', () => {
    const pair = twoInstances(PG_URL, 'streamend2');

    it('given an SSE stream open on instance b, when the GM ends the fight on instance a, then b’s stream ends after FightEnded, and b answers a resume at it with 204', async () => {
      const [a, b] = pair.servers;
      const { fightId } = (await pair.post(`${a.url}/fights`, { system: 'narateer', combatants: [] }))
        .body as {
        fightId: string;
      };
      const res = await fetch(`${b.url}/fights/${fightId}/stream`, {
        headers: { authorization: `Bearer ${pair.key}` },
        signal: AbortSignal.timeout(20_000),
      });
      expect(res.status).toBe(200);
      const reading = res.text();
      expect((await pair.post(`${a.url}/fights/${fightId}/commands`, { type: 'EndFight' })).status).toBe(200);
      expect(
        [...(await reading).matchAll(/^id: (\d+)\nevent: (\w+)$/gm)].map((m) => `${m[1]} ${m[2]}`),
      ).toEqual(['1 FightStarted', '2 FightEnded']);
      const resumed = await fetch(`${b.url}/fights/${fightId}/stream`, {
        headers: { authorization: `Bearer ${pair.key}`, 'last-event-id': '2' },
      });
      expect(resumed.status).toBe(204);
    });
  });
}
