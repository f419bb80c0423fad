import WebSocket from 'ws';
import { Client, createClient } from 'graphql-ws';
import { GraphQLScalarType } from 'graphql';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { EventStore } from '@app/event-store';
import { fightStream } from '@app/fight-log';
import { ProjectionRunner } from '@app/fights';
import { EVENT_STORE } from '../apps/api/src/fights.module';
import { removeDir, startApp, TestApp } from './support/app';
import { soloFight } from './support/fight-calls';

const VIEWS = `subscription($fightId: ID!) { fightView(fightId: $fightId) { seq view } }`;
const CONNECTIONS = 3;
const PER_CONNECTION = 10;

async function until(check: () => boolean, timeoutMs = 30000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Thirty fightView subscribers of one fight with one audience (the tenant's key), over three
 * graphql-ws connections: `executions` counts how often the `view` field is executed (its scalar
 * serialised), `reads` how often the fight's stream is read from the store. Before views were shared,
 * each subscriber read the fight and executed its view itself on subscribing and after an undo.
 */
describe('fightView: one read and one execution per change for all subscribers of a fight', () => {
  let t: TestApp;
  let fightId: string;
  let clients: Client[] = [];
  let seen: number[][] = [];
  const counts = { executions: 0, reads: 0, unwatchedReads: 0 };
  let unwatched = '';
  const command = async (body: Record<string, unknown>, id = fightId) =>
    (await t.http.post(`/fights/${id}/commands`).send(body).expect(200)).body.seq as number;
  const allAt = (seq: number) => () => seen.every((s) => s.at(-1) === seq);

  beforeAll(async () => {
    t = await startApp({ listen: true });
    // The projections read a fight on an undo: stopped, their reads do not blur the count.
    await t.app.get(ProjectionRunner).stop();
    fightId = await soloFight(t);
    unwatched = await soloFight(t);
    for (const id of [fightId, unwatched])
      await command({ type: 'AddNote', text: 'before anyone watches' }, id);
    const store = t.app.get<EventStore>(EVENT_STORE);
    const readStream = store.readStream.bind(store);
    jest.spyOn(store, 'readStream').mockImplementation((stream, options) => {
      if (stream === fightStream(fightId)) counts.reads++;
      if (stream === fightStream(unwatched)) counts.unwatchedReads++;
      return readStream(stream, options);
    });
    const json = t.app.get(GraphQLSchemaHost).schema.getType('JSONObject') as GraphQLScalarType;
    const serialize = json.serialize.bind(json);
    jest.spyOn(json, 'serialize').mockImplementation((value) => {
      counts.executions++;
      return serialize(value);
    });
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    jest.restoreAllMocks();
    await t.close();
    removeDir(t.dataDir);
  });

  it('given thirty subscribe at once, the view is read and executed once for all of them', async () => {
    clients = Array.from({ length: CONNECTIONS }, () =>
      createClient({
        url: t.url!.replace('http', 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: true,
        connectionParams: { authorization: `Bearer ${t.apiKey}` },
      }),
    );
    seen = Array.from({ length: CONNECTIONS * PER_CONNECTION }, () => []);
    seen.forEach((seqs, i) =>
      clients[i % CONNECTIONS].subscribe<{ fightView: { seq: number } }>(
        { query: VIEWS, variables: { fightId } },
        { next: (r) => seqs.push(r.data!.fightView.seq), error: () => undefined, complete: () => undefined },
      ),
    );
    await until(allAt(3));

    expect(counts.executions).toBe(1);
    expect(counts.reads).toBeLessThanOrEqual(2);
  });

  it('given a note added, every subscriber gets the new view from one execution and no read', async () => {
    counts.executions = counts.reads = 0;
    const seq = await command({ type: 'AddNote', text: 'watched' });
    await until(allAt(seq));

    expect(counts.executions).toBe(1);
    expect(counts.reads).toBe(0);
  });

  it('given an undo (the cached fold is dropped), the fight is read again once for all, not once each', async () => {
    // The command's own reads (its undo stack, its reload), on a fight nobody watches.
    await command({ type: 'UndoCommands', count: 1 }, unwatched);
    const unwatchedReads = counts.unwatchedReads;
    counts.executions = counts.reads = 0;
    const seq = await command({ type: 'UndoCommands', count: 1 });
    await until(allAt(seq));

    expect(counts.executions).toBe(1);
    // Catching up meets the undo and folds the stream again: two reads, for all thirty.
    expect(counts.reads).toBeLessThanOrEqual(unwatchedReads + 2);
    for (const seqs of seen) expect(seqs).toEqual([3, 4, 5]);
  });
});
