/**
 * Stops the clock the service reads (Date) and returns what moves it. A token that expires 1.5 s after it
 * is made expired whenever the machine took that long to open its stream and deliver to it; on a stopped
 * clock it expires when the test says, after the checks that it works until then. Timers stay real; the
 * spec puts the clock back with `jest.useRealTimers()`.
 */
export function stoppedClock(): { pass(ms: number): void } {
  jest.useFakeTimers({
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  return { pass: (ms) => jest.setSystemTime(Date.now() + ms) };
}
