import { WriteHealth, WRITE_FAULT_HOLD_MS } from '../../src/ops/write-health';

/** A fight service's append listeners, driven by hand, and a clock the test moves. */
function setup() {
  const onAppend = new Set<(failure?: unknown) => void>();
  let now = Date.parse('2026-12-07T10:00:00Z');
  const health = new WriteHealth({ onAppend }, () => now);
  const append = (failure?: unknown) => onAppend.forEach((l) => l(failure));
  return { health, append, advance: (ms: number) => (now += ms) };
}

const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
const standby = Object.assign(new Error('cannot execute INSERT in a read-only transaction'), {
  code: '25006',
});

describe('WriteHealth: whether the store takes this instance’s writes, as its appends found it', () => {
  it('given appends that are stored, when asked, then no fault', () => {
    const { health, append } = setup();
    append();
    expect(health.current()).toBeUndefined();
  });

  it('given a full disk failing two appends, when asked, then the fault with when it began and how many failed', () => {
    const { health, append, advance } = setup();
    append(full);
    advance(2_000);
    append(standby);
    expect(health.current()).toEqual({
      fault: 'read-only',
      since: new Date('2026-12-07T10:00:00Z'),
      latest: new Date('2026-12-07T10:00:02Z'),
      failures: 2,
    });
  });

  it('given a failed append, when one is stored after it, then the fault is cleared at once', () => {
    const { health, append } = setup();
    append(full);
    append();
    expect(health.current()).toBeUndefined();
  });

  it('given a failed append, when the hold passes without another, then the fault ends by itself; a new one starts again at 1', () => {
    const { health, append, advance } = setup();
    append(full);
    advance(WRITE_FAULT_HOLD_MS - 1);
    expect(health.current()?.fault).toBe('full');
    advance(1);
    expect(health.current()).toBeUndefined();
    append(full);
    expect(health.current()?.failures).toBe(1);
  });

  it('given an error that is no store fault (a bug, a refused value), when an append fails with it, then nothing is marked', () => {
    const { health, append } = setup();
    append(new TypeError('undefined is not a function'));
    append(Object.assign(new Error('duplicate'), { code: '23505' }));
    expect(health.current()).toBeUndefined();
  });

  it('given a lost connection, when an append fails with it, then the fault is connection', () => {
    const { health, append } = setup();
    append(Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' }));
    expect(health.current()?.fault).toBe('connection');
  });
});
