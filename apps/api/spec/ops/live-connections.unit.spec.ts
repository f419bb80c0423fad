import { LiveConnections } from '../../src/ops/live-connections';

/** A graphql-ws socket as LiveConnections sees it, in a given state. */
function socket(readyState: number) {
  const listeners: Array<() => void> = [];
  return {
    readyState,
    closes: 0,
    terminated: 0,
    close(): void {
      this.closes++;
    },
    terminate(): void {
      this.terminated++;
    },
    on(_: 'close', listener: () => void): unknown {
      return listeners.push(listener);
    },
  };
}

describe('LiveConnections: the graphql-ws sockets a shutdown closes', () => {
  it('given a socket that closed while it was being authenticated, then it is not kept: a shutdown neither waits for it nor cuts it', async () => {
    const live = new LiveConnections();
    const gone = socket(3);
    live.trackWs(gone);
    const closed = await live.closeAll(50);
    expect(closed).toMatchObject({ ws: 0, cut: 0 });
    expect(gone.terminated).toBe(0);
  });

  it('given an open socket that never closes, then the shutdown asks it to go, then cuts it after the grace', async () => {
    const live = new LiveConnections();
    const open = socket(1);
    live.trackWs(open);
    const closed = await live.closeAll(50);
    expect(closed).toMatchObject({ ws: 1, cut: 1 });
    expect([open.closes, open.terminated]).toEqual([1, 1]);
  });
});
