import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { ReplyStream } from '../../src/common/http-reply';

/**
 * A reply whose client reads nothing until told: what ReplyStream sends is handed back. Its server cuts
 * an answer whose client takes nothing for `stalledReaderMs`.
 */
function slowClient(stalledReaderMs = 60_000) {
  const raw = Object.assign(new EventEmitter(), {
    destroyed: false,
    destroy() {
      raw.destroyed = true;
      raw.emit('close');
    },
  });
  let body: Readable | undefined;
  const reply = {
    raw,
    server: { stalledReaderMs },
    send: (stream: Readable) => void (body = stream),
  } as unknown as FastifyReply;
  const out = new ReplyStream(reply);
  return { out, raw, body: () => body! };
}

const chunk = 'x'.repeat(8 * 1024);
const settled = (p: Promise<unknown>) =>
  Promise.race([p.then(() => true), new Promise((r) => setImmediate(() => r(false)))]);

describe('ReplyStream', () => {
  it('given writes past the buffer that nobody awaits, waits on one drain with one set of listeners', async () => {
    const { out, raw, body } = slowClient();
    const writes = Array.from({ length: 200 }, () => out.write(chunk));
    expect(body().listenerCount('drain')).toBe(1);
    expect(body().listenerCount('close')).toBe(1);
    expect(await settled(writes[199])).toBe(false);

    const read: string[] = [];
    body().on('data', (c: Buffer) => read.push(c.toString()));
    await Promise.all(writes);
    expect(read.join('').length).toBe(200 * chunk.length);
    expect(body().listenerCount('drain')).toBe(0);
    // After the drain, a full buffer waits on a drain of its own.
    body().pause();
    while (await settled(out.write(chunk)));
    expect(body().listenerCount('drain')).toBe(1);
    raw.destroy(); // clears that drain's stall timer
  });

  describe('on a fake clock (only setTimeout and clearTimeout are faked: streams run as they do)', () => {
    // The stall limit is a timer; a real one fires whenever the machine is slow enough, so these cases
    // move the clock themselves and check on either side of the limit.
    beforeEach(() =>
      jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask', 'Date'] }),
    );
    afterEach(() => jest.useRealTimers());

    it('given a client that takes nothing for stalledReaderMs while a write waits, cuts the answer and lets the writes go', async () => {
      const { out, raw } = slowClient(50);
      const writes = Array.from({ length: 10 }, () => out.write(chunk));
      expect(await settled(writes[9])).toBe(false);
      jest.advanceTimersByTime(49);
      expect(await settled(writes[9])).toBe(false);
      expect(raw.destroyed).toBe(false);
      jest.advanceTimersByTime(1);
      expect(raw.destroyed).toBe(true);
      await Promise.all(writes);
      expect(out.closed).toBe(true);
    });

    it('given a client that reads, however slowly, within stalledReaderMs each time, never cuts it', async () => {
      const { out, raw, body } = slowClient(300);
      for (let i = 0; i < 4; i++) {
        body().pause();
        const writes = Array.from({ length: 10 }, () => out.write(chunk));
        expect(await settled(writes[9])).toBe(false);
        // Takes nothing until just before the limit, then reads what is there; the pauses add up to
        // nearly four times the limit.
        jest.advanceTimersByTime(299);
        expect(raw.destroyed).toBe(false);
        body().resume();
        await Promise.all(writes);
      }
      jest.advanceTimersByTime(10_000);
      expect(raw.destroyed).toBe(false);
      expect(out.closed).toBe(false);
    });
  });

  it('given a client that leaves while writes wait, lets every one of them go', async () => {
    const { out, raw, body } = slowClient();
    const writes = Array.from({ length: 10 }, () => out.write(chunk));
    expect(await settled(writes[9])).toBe(false);
    raw.destroy();
    await Promise.all(writes);
    expect(out.closed).toBe(true);
    expect(body().listenerCount('drain')).toBe(0);
    expect(await settled(out.write(chunk))).toBe(true);
  });
});
