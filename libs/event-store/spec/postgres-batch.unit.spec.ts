import type { PreparedEvent } from '../src/append-rules';
import { GroupCommit, type PendingAppend } from '../src/postgres-batch';
import type { AppendResult } from '../src/port';

const tick = () => new Promise((resolve) => setImmediate(resolve));

const event = (id: string): PreparedEvent => ({ id, type: 'T', data: '{}', metadata: '{}' });

/** Records each batch as "stream:ids", holding it open until `release` is called. */
function recorder() {
  const batches: string[][] = [];
  const releases: Array<() => void> = [];
  const group = new GroupCommit(async (batch) => {
    batches.push(batch.map((p) => `${p.stream}:${p.events.map((e) => e.id).join('+')}`));
    await new Promise<void>((resolve) => releases.push(resolve));
    batch.forEach((p) => p.resolve({ nextRevision: 0n, checkpoints: [] }));
  }, 1);
  const add = (stream: string, ...ids: string[]): Promise<unknown> =>
    new Promise((resolve, reject) =>
      group.add({ stream, events: ids.map(event), expected: 'any', resolve, reject }),
    );
  const releaseNext = async () => {
    releases.shift()?.();
    await tick();
    await tick();
  };
  return { batches, add, tick, releaseNext };
}

describe('GroupCommit (PostgreSQL group commit)', () => {
  it('appends of one tick share a batch; a stream or event id already in it waits for the next, in order', async () => {
    const r = recorder();
    const done = [
      r.add('a', 'e1'),
      r.add('b', 'e2'),
      r.add('a', 'e3'),
      r.add('c', 'e2'),
      r.add('a', 'e4'),
      r.add('d', 'e5'),
    ];
    await r.tick();
    expect(r.batches).toEqual([['a:e1', 'b:e2', 'd:e5']]);
    await r.releaseNext();
    expect(r.batches[1]).toEqual(['a:e3', 'c:e2']);
    await r.releaseNext();
    expect(r.batches[2]).toEqual(['a:e4']);
    await r.releaseNext();
    await Promise.all(done);
    expect(r.batches).toHaveLength(3);
  });

  it('runs one batch at a time; appends arriving meanwhile go together in the next', async () => {
    const r = recorder();
    const first = r.add('a', 'e1');
    await r.tick();
    const waiting = ['b', 'c', 'd'].map((s, i) => r.add(s, `w${i}`));
    await r.tick();
    expect(r.batches).toEqual([['a:e1']]);
    await r.releaseNext();
    await first;
    expect(r.batches[1]).toEqual(['b:w0', 'c:w1', 'd:w2']);
    await r.releaseNext();
    await Promise.all(waiting);
  });

  it('caps a batch at 2,000 events, but always takes the first append whatever its size', async () => {
    const r = recorder();
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const done = [
      r.add('big', ...ids('x', 2500)),
      r.add('a', ...ids('a', 1500)),
      r.add('b', ...ids('b', 500)),
      r.add('c', 'c0'),
    ];
    await r.tick();
    expect(r.batches.map((b) => b.map((x) => x.split(':')[0]))).toEqual([['big']]);
    await r.releaseNext();
    expect(r.batches[1].map((x) => x.split(':')[0])).toEqual(['a', 'b']);
    await r.releaseNext();
    expect(r.batches[2].map((x) => x.split(':')[0])).toEqual(['c']);
    await r.releaseNext();
    await Promise.all(done);
  });

  it("a stream's next append waits for the answer of one retried outside its batch; other streams go on", async () => {
    const batches: string[][] = [];
    let retried: ((r: AppendResult) => void) | undefined;
    const group = new GroupCommit(async (batch) => {
      batches.push(batch.map((p) => p.stream));
      for (const p of batch) {
        // The first append of 'a' is left out of its batch and answered later, as a retry alone would be.
        if (p.stream === 'a' && !retried) retried = p.resolve;
        else p.resolve({ nextRevision: 0n, checkpoints: [] });
      }
    }, 1);
    const add = (stream: string, id: string) =>
      new Promise((resolve, reject) =>
        group.add({ stream, events: [event(id)], expected: 'any', resolve, reject }),
      );
    const first = add('a', 'e1');
    const others = [add('b', 'e2')];
    await tick();
    const second = add('a', 'e3');
    others.push(add('c', 'e4'));
    await Promise.all(others);
    expect(batches).toEqual([['a', 'b'], ['c']]);
    retried!({ nextRevision: 0n, checkpoints: [] });
    await Promise.all([first, second]);
    expect(batches).toEqual([['a', 'b'], ['c'], ['a']]);
  });

  it('a batch whose commit throws rejects its own appends only', async () => {
    let calls = 0;
    const group = new GroupCommit(async (batch: PendingAppend[]) => {
      if (calls++ === 0) throw new Error('connection lost');
      batch.forEach((p) => p.resolve({ nextRevision: 7n, checkpoints: [] }));
    }, 1);
    const add = (stream: string, id: string) =>
      new Promise((resolve, reject) =>
        group.add({ stream, events: [event(id)], expected: 'any', resolve, reject }),
      );
    const failed = [add('a', 'e1'), add('b', 'e2')];
    const later = add('a', 'e3');
    await expect(Promise.all(failed)).rejects.toThrow('connection lost');
    await expect(failed[1]).rejects.toThrow('connection lost');
    await expect(later).resolves.toEqual({ nextRevision: 7n, checkpoints: [] });
  });
});
