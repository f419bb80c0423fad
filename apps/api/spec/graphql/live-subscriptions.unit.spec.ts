import {
  ExecutionResult,
  GraphQLID,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
} from 'graphql';
import { AccessService, CATCH_UP_PAGE, FightEvent, FightFeed, LiveFightStream, Principal } from '@app/fights';
import { CATCH_UP_HIGH_WATER, SLOW_CONSUMER_LIMIT } from '../../src/graphql/frame-batcher';
import { graphqlOptions } from '../../src/graphql/graphql-options';
import { LIVE_LINK, LiveSubscriptions } from '../../src/graphql/live-subscriptions';
import { event, GM, OTHER_GM_KEY, SPECTATOR } from './helpers';

/** A WebSocket and its TCP socket in one: `writes` lists what each system call would carry. */
class FakeConnection {
  readonly OPEN = 1;
  readyState = 1;
  readonly writes: string[][] = [];
  /** What the client has not read: set by a test to stand for a client that stopped reading. */
  bufferedAmount = 0;
  closedWith?: { code: number; reason: string };
  private corked = 0;
  private buffered: string[] = [];

  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
    this.readyState = 2;
  }

  send(frame: string): void {
    this.buffered.push(frame);
    if (this.corked === 0) this.uncorked();
  }
  cork(): void {
    this.corked++;
  }
  uncork(): void {
    if (--this.corked === 0) this.uncorked();
  }
  private uncorked(): void {
    if (this.buffered.length) this.writes.push(this.buffered.splice(0));
  }
  get messages(): Array<{ id: string; type: string; payload: ExecutionResult }> {
    return this.writes.flat().map((f) => JSON.parse(f));
  }
}

const QUERY = 'subscription ($fightId: ID!) { fightEvents(fightId: $fightId) { seq type note } }';
const tick = () => new Promise((r) => setImmediate(r));
/** Waits until `done` holds: work spread over timers takes as long as the machine makes it. */
async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const started = Date.now(); !done(); await new Promise((r) => setTimeout(r, 5)))
    if (Date.now() - started > timeoutMs) throw new Error(`not done after ${timeoutMs} ms`);
}

/** A schema shaped like ours, with one field only the GM may read, one resolved asynchronously, and a count of executions. */
function fixture(read: (after: number, limit: number) => Promise<FightEvent[]> = async () => []) {
  const feed = new FightFeed();
  const streams: LiveFightStream[] = [];
  const counts = { executions: 0 };
  const Event = new GraphQLObjectType<FightEvent, { principal: Principal }>({
    name: 'Event',
    fields: {
      seq: { type: GraphQLInt, resolve: (e) => (counts.executions++, e.seq) },
      type: { type: GraphQLString },
      note: {
        type: GraphQLString,
        resolve: (e, _args, ctx) => (ctx.principal.kind === 'tenant' ? e.data.note : null),
      },
      later: {
        type: GraphQLInt,
        resolve: (e) => (e.seq === 1 ? new Promise((r) => setTimeout(() => r(e.seq), 30)) : e.seq),
      },
    },
  });
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: {
        fightEvents: {
          type: Event,
          args: { fightId: { type: new GraphQLNonNull(GraphQLID) } },
          subscribe: (_root, args: { fightId: string }) =>
            streams[
              streams.push(new LiveFightStream(0, read, (deliver) => feed.on(args.fightId, deliver))) - 1
            ],
          resolve: (e: FightEvent) => e,
        },
      },
    }),
  });
  const live = new LiveSubscriptions();
  let ids = 0;
  /** As graphql-ws does: subscribe, then ask for the first result (unless `start` is false). */
  const subscribe = async (
    principal: Principal,
    conn = new FakeConnection(),
    query = QUERY,
    start = true,
  ) => {
    const id = `op${++ids}`;
    const contextValue = {
      principal,
      [LIVE_LINK]: live.link({ socket: conn, request: { socket: conn } }, id),
    };
    const result = (await live.subscribe({
      schema,
      document: parse(query),
      variableValues: { fightId: 'f1' },
      contextValue,
    })) as AsyncGenerator<ExecutionResult>;
    const ended = start ? result.next() : undefined;
    return { conn, id, result, ended };
  };
  return { feed, streams, counts, subscribe };
}

describe('subscriptions fanned out: one execution per event for subscribers alike, one write per connection', () => {
  it('100 subscribers alike: each event is executed once, and each subscriber receives every event in order', async () => {
    const { feed, counts, subscribe } = fixture();
    const subs = await Promise.all(
      Array.from({ length: 100 }, (_, i) => subscribe(i % 2 ? GM : OTHER_GM_KEY)),
    );
    await tick();
    [1, 2, 3].map(event).forEach((e) => feed.publish(e));
    await tick();
    expect(counts.executions).toBe(3);
    for (const s of subs) {
      expect(s.conn.messages).toEqual(
        [1, 2, 3].map((seq) => ({
          id: s.id,
          type: 'next',
          payload: { data: { fightEvents: { seq, type: 'NoteAdded', note: `secret ${seq}` } } },
        })),
      );
    }
  });

  it('a spectator and the GM get their own payloads: the spectator never sees what only the GM may', async () => {
    const { feed, counts, subscribe } = fixture();
    const gm = await subscribe(GM);
    const spectator = await subscribe(SPECTATOR);
    await tick();
    feed.publish(event(1));
    await tick();
    expect(counts.executions).toBe(2);
    expect(gm.conn.messages[0].payload.data).toEqual({
      fightEvents: { seq: 1, type: 'NoteAdded', note: 'secret 1' },
    });
    expect(spectator.conn.messages[0].payload.data).toEqual({
      fightEvents: { seq: 1, type: 'NoteAdded', note: null },
    });
  });

  it('different documents are not shared', async () => {
    const { feed, subscribe } = fixture();
    const full = await subscribe(GM);
    const short = await subscribe(
      GM,
      new FakeConnection(),
      'subscription ($fightId: ID!) { fightEvents(fightId: $fightId) { seq } }',
    );
    await tick();
    feed.publish(event(1));
    await tick();
    expect(full.conn.messages[0].payload.data).toEqual({
      fightEvents: { seq: 1, type: 'NoteAdded', note: 'secret 1' },
    });
    expect(short.conn.messages[0].payload.data).toEqual({ fightEvents: { seq: 1 } });
  });

  it("a command's events reach each connection in one write, its subscriptions' frames together", async () => {
    const { feed, subscribe } = fixture();
    const conn = new FakeConnection();
    const a = await subscribe(GM, conn);
    const b = await subscribe(SPECTATOR, conn);
    await tick();
    [1, 2, 3].map(event).forEach((e) => feed.publish(e));
    await tick();
    expect(conn.writes).toHaveLength(1);
    expect(conn.messages.map((m) => [m.id, m.payload.data!.fightEvents])).toEqual([
      [a.id, expect.objectContaining({ seq: 1 })],
      [b.id, expect.objectContaining({ seq: 1 })],
      [a.id, expect.objectContaining({ seq: 2 })],
      [b.id, expect.objectContaining({ seq: 2 })],
      [a.id, expect.objectContaining({ seq: 3 })],
      [b.id, expect.objectContaining({ seq: 3 })],
    ]);
  });

  it('return() (the client completed or left) stops the stream; nothing more is sent', async () => {
    const { feed, subscribe } = fixture();
    const s = await subscribe(GM);
    await tick();
    await s.result.return(undefined);
    expect(await s.ended).toEqual({ value: undefined, done: true });
    expect(feed.subscribers).toBe(0);
    feed.publish(event(1));
    await tick();
    expect(s.conn.writes).toEqual([]);
  });

  it('a revoked subscription ends only after the frames already queued for it are written', async () => {
    const { feed, streams, subscribe } = fixture();
    const s = await subscribe(SPECTATOR);
    await tick();
    feed.publish(event(1));
    void streams[0].return();
    expect(s.conn.messages.map((m) => m.payload.data)).toEqual([
      { fightEvents: { seq: 1, type: 'NoteAdded', note: null } },
    ]);
    expect(await s.ended).toEqual({ value: undefined, done: true });
  });

  it('a stream that cannot read the store fails the operation (graphql-ws then sends `error`)', async () => {
    const { subscribe } = fixture(() => Promise.reject(new Error('store down')));
    const s = await subscribe(GM);
    await expect(s.ended).rejects.toThrow('store down');
  });

  it('a payload a resolver makes asynchronous keeps its place: later events wait for it', async () => {
    const { feed, subscribe } = fixture();
    const s = await subscribe(
      GM,
      new FakeConnection(),
      'subscription ($fightId: ID!) { fightEvents(fightId: $fightId) { later } }',
    );
    await tick();
    [1, 2, 3].map(event).forEach((e) => feed.publish(e));
    await until(() => s.conn.messages.length >= 3);
    expect(s.conn.messages.map((m) => m.payload.data!.fightEvents)).toEqual([
      { later: 1 },
      { later: 2 },
      { later: 3 },
    ]);
  });

  it('nothing is sent before graphql-ws has registered the operation and asks for its first result', async () => {
    const { feed, subscribe } = fixture();
    const s = await subscribe(GM, new FakeConnection(), QUERY, false);
    await tick();
    feed.publish(event(1));
    await tick();
    expect(s.conn.writes).toEqual([]);
    void s.result.next();
    await tick();
    expect(s.conn.messages.map((m) => m.payload.data!.fightEvents)).toEqual([
      expect.objectContaining({ seq: 1 }),
    ]);
  });

  it('given a client that stops reading, a catch-up waits past the high-water mark and reads on once it has read', async () => {
    const history = Array.from({ length: 1200 }, (_, i) => event(i + 1));
    const reads: number[] = [];
    const { subscribe } = fixture(async (after, limit) => {
      reads.push(after);
      return history.filter((e) => e.seq > after).slice(0, limit);
    });
    const conn = new FakeConnection();
    const send = conn.send.bind(conn);
    // The client reads nothing from its first frame on.
    conn.send = (frame) => {
      send(frame);
      conn.bufferedAmount = CATCH_UP_HIGH_WATER;
    };
    const s = await subscribe(GM, conn);
    await until(() => s.conn.messages.length >= CATCH_UP_PAGE);
    // Time for a read past the high-water mark, were one made.
    await new Promise((r) => setTimeout(r, 100));
    expect(reads).toEqual([0]);
    expect(s.conn.messages).toHaveLength(CATCH_UP_PAGE);

    conn.send = send;
    conn.bufferedAmount = 0;
    await until(() => s.conn.messages.length >= history.length);
    expect(reads).toEqual([0, CATCH_UP_PAGE, 2 * CATCH_UP_PAGE]);
    expect(s.conn.messages.map((m) => (m.payload.data!.fightEvents as { seq: number }).seq)).toEqual(
      history.map((e) => e.seq),
    );
    expect(conn.closedWith).toBeUndefined();
  });

  it('given a client that has not read more than the slow-consumer limit, closes its connection 1013 and sends it nothing more', async () => {
    const { feed, subscribe } = fixture();
    const s = await subscribe(GM);
    await tick();
    feed.publish(event(1));
    await tick();
    expect(s.conn.closedWith).toBeUndefined();
    s.conn.bufferedAmount = SLOW_CONSUMER_LIMIT + 1;
    feed.publish(event(2));
    await tick();
    expect(s.conn.closedWith).toEqual({ code: 1013, reason: expect.stringMatching(/^slow consumer/) });
    feed.publish(event(3));
    await tick();
    expect(s.conn.messages.map((m) => (m.payload.data!.fightEvents as { seq: number }).seq)).toEqual([1, 2]);
  });

  it('the app hands graphql-ws this subscribe, and each graphql-ws operation a link to its connection', () => {
    const options = graphqlOptions({} as AccessService) as {
      subscriptions: { subscribe?: unknown };
      context: (...args: unknown[]) => Record<symbol, unknown>;
    };
    const conn = new FakeConnection();
    const context = options.context(
      { extra: { principal: GM, socket: conn, request: { socket: conn } }, connectionParams: {} },
      'op1',
    );
    expect(typeof options.subscriptions.subscribe).toBe('function');
    expect(context[LIVE_LINK]).toMatchObject({ id: 'op1' });
  });
});
