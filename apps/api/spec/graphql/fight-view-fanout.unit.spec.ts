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
import {
  FightCache,
  FightFeed,
  FightReads,
  FightViewResult,
  LiveViews,
  LoadedFight,
  Principal,
  viewResult,
} from '@app/fights';
import { LIVE_LINK, LiveSubscriptions } from '../../src/graphql/live-subscriptions';
import { event, GM, OTHER_GM_KEY, SPECTATOR } from './helpers';

/** A WebSocket and its TCP socket in one, keeping every frame it was asked to send. */
class FakeConnection {
  readonly OPEN = 1;
  readyState = 1;
  readonly frames: string[] = [];
  readonly bufferedAmount = 0;
  send(frame: string): void {
    this.frames.push(frame);
  }
  close(): void {
    throw new Error('not expected');
  }
  cork(): void {}
  uncork(): void {}
  get messages(): Array<{ id: string; type: string; payload: ExecutionResult }> {
    return this.frames.map((f) => JSON.parse(f));
  }
}

const QUERY = 'subscription ($fightId: ID!) { fightView(fightId: $fightId) { seq note } }';

/** Waits for a state the fan-out reaches within a few turns of the event loop (no timers). */
async function settle(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
}

/**
 * The real LiveViews and LiveSubscriptions over a fake fold: `counts.views` counts view computations
 * (the rule system's `view`), `counts.executions` executions of the subscription's selection; `note`
 * is a field only the GM may read, as a view redacted per audience would be.
 */
function fixture() {
  const counts = { views: 0, executions: 0 };
  const feed = new FightFeed();
  const system = {
    view: (state: { note: string }) => (counts.views++, { note: state.note }),
  } as unknown as LoadedFight['system'];
  const fightAt = (seq: number) =>
    ({
      fightId: 'f1',
      seq,
      headHash: `h${seq}`,
      state: { note: `secret ${seq}` },
      system,
    }) as unknown as LoadedFight;
  let current = fightAt(1);
  const cache = {
    load: async () => current,
    get: () => current,
    refresh: async () => current,
  } as unknown as FightCache;
  const reads = {
    view: async () => viewResult(current),
    events: async () => [],
  } as unknown as FightReads;
  const views = new LiveViews(cache, feed, reads);
  const FightView = new GraphQLObjectType<FightViewResult, { principal: Principal }>({
    name: 'FightView',
    fields: {
      seq: { type: GraphQLInt, resolve: (v) => (counts.executions++, v.seq) },
      note: {
        type: GraphQLString,
        resolve: (v, _args, ctx) => (ctx.principal.kind === 'tenant' ? v.view.note : null),
      },
    },
  });
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: {
        fightView: {
          type: FightView,
          args: { fightId: { type: new GraphQLNonNull(GraphQLID) } },
          subscribe: (_root, args: { fightId: string }) => views.watchViews(args.fightId),
          resolve: (v: FightViewResult) => v,
        },
      },
    }),
  });
  const live = new LiveSubscriptions();
  let ids = 0;
  /** As graphql-ws does: subscribe, then ask for the first result. */
  const subscribe = async (principal: Principal) => {
    const conn = new FakeConnection();
    const id = `op${++ids}`;
    const result = (await live.subscribe({
      schema,
      document: parse(QUERY),
      variableValues: { fightId: 'f1' },
      contextValue: { principal, [LIVE_LINK]: live.link({ socket: conn, request: { socket: conn } }, id) },
    })) as AsyncGenerator<ExecutionResult>;
    void result.next();
    return { conn, id, result };
  };
  /** A change: the fold moves on to `seq` and its event goes out. */
  const change = (seq: number) => {
    current = fightAt(seq);
    feed.publish(event(seq));
  };
  return { counts, subscribe, change };
}

describe('fightView fanned out: one view and one execution per change for each audience', () => {
  it('given 50 subscribers of one fight and audience, when the fight changes, the view is computed and executed once for all', async () => {
    const { counts, subscribe, change } = fixture();
    const subs = await Promise.all(
      Array.from({ length: 50 }, (_, i) => subscribe(i % 2 ? GM : OTHER_GM_KEY)),
    );
    await settle(() => subs.every((s) => s.conn.messages.length === 1));
    counts.views = 0;
    counts.executions = 0;

    change(2);
    await settle(() => subs.every((s) => s.conn.messages.length === 2));
    change(3);
    await settle(() => subs.every((s) => s.conn.messages.length === 3));

    expect(counts.views).toBe(2);
    expect(counts.executions).toBe(2);
    for (const s of subs)
      expect(s.conn.messages.slice(1)).toEqual(
        [2, 3].map((seq) => ({
          id: s.id,
          type: 'next',
          payload: { data: { fightView: { seq, note: `secret ${seq}` } } },
        })),
      );
    await Promise.all(subs.map((s) => s.result.return(undefined)));
  });

  it('given the GM and a spectator, when the fight changes, each audience gets its own execution: the spectator never sees what only the GM may', async () => {
    const { counts, subscribe, change } = fixture();
    const gms = await Promise.all([subscribe(GM), subscribe(OTHER_GM_KEY)]);
    const spectators = await Promise.all([subscribe(SPECTATOR), subscribe(SPECTATOR)]);
    const all = [...gms, ...spectators];
    await settle(() => all.every((s) => s.conn.messages.length === 1));
    counts.views = 0;
    counts.executions = 0;

    change(2);
    await settle(() => all.every((s) => s.conn.messages.length === 2));

    expect(counts.views).toBe(1);
    expect(counts.executions).toBe(2);
    for (const s of gms)
      expect(s.conn.messages[1].payload.data).toEqual({ fightView: { seq: 2, note: 'secret 2' } });
    for (const s of spectators)
      expect(s.conn.messages[1].payload.data).toEqual({ fightView: { seq: 2, note: null } });
    await Promise.all(all.map((s) => s.result.return(undefined)));
  });
});
