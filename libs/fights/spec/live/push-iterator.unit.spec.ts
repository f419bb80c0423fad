import { PushIterator } from '../../src/live/push-iterator';

/** Every value kept, as a live event stream keeps them; `released` counts calls to release(). */
class Queue extends PushIterator<number> {
  readonly held: number[] = [];
  released = 0;
  push(n: number) {
    this.emit(n);
  }
  break(error: unknown) {
    this.fail(error);
  }
  protected take() {
    return this.held.shift();
  }
  protected hold(n: number) {
    this.held.push(n);
  }
  protected release() {
    this.released++;
    this.held.length = 0;
  }
}

const observer = () => ({ next: jest.fn(), error: jest.fn(), complete: jest.fn() });

describe('PushIterator: one ending for the live streams and view subscriptions', () => {
  it('a reader gets what was held, then what comes, in order; a waiting next() gets the next value', async () => {
    const q = new Queue();
    q.push(1);
    const waiting = [await q.next()];
    const later = q.next();
    q.push(2);
    waiting.push(await later);
    expect(waiting).toEqual([
      { value: 1, done: false },
      { value: 2, done: false },
    ]);
  });

  it('an observer takes what was held first, then every push, with no promise in between', () => {
    const q = new Queue();
    q.push(1);
    const o = observer();
    q.observe(o);
    q.push(2);
    expect(o.next.mock.calls).toEqual([[1], [2]]);
    expect(q.held).toEqual([]);
  });

  it('a failure rejects a waiting next(), and later reads after what is held', async () => {
    const q = new Queue();
    const waiting = q.next();
    q.break(new Error('source lost'));
    await expect(waiting).rejects.toThrow('source lost');
    const r = new Queue();
    r.push(7);
    r.break(new Error('gone'));
    expect(await r.next()).toEqual({ value: 7, done: false });
    await expect(r.next()).rejects.toThrow('gone');
  });

  it('return() releases once, ends a waiting next(), and completes an observer that had no error', async () => {
    const q = new Queue();
    const waiting = q.next();
    await q.return();
    await q.return();
    expect(q.released).toBe(1);
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(await q.next()).toEqual({ value: undefined, done: true });
    const o = observer();
    const r = new Queue();
    r.observe(o);
    await r.return();
    expect(o.complete).toHaveBeenCalledTimes(1);
  });

  it('an observer that had an error is not completed afterwards, and hears of no second error', async () => {
    const q = new Queue();
    const o = observer();
    q.observe(o);
    q.break(new Error('first'));
    q.break(new Error('second'));
    await q.return();
    expect(o.error.mock.calls).toEqual([[new Error('first')]]);
    expect(o.complete).not.toHaveBeenCalled();
  });
});
