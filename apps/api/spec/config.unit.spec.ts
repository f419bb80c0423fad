import { byteLimit, readConfig } from '../src/config';

describe('readConfig: READ_SIDE (docs/event-store.md "One owner of the read side")', () => {
  it('given nothing, then the instance stands for the read side', () => {
    expect(readConfig({}).readSide).toBe('elect');
    expect(readConfig({ READ_SIDE: 'elect' }).readSide).toBe('elect');
  });

  it('given follow, then the instance never owns it', () => {
    expect(readConfig({ READ_SIDE: 'follow' }).readSide).toBe('follow');
  });

  it('given another value, then the boot stops naming the variable', () => {
    expect(() => readConfig({ READ_SIDE: 'passive' })).toThrow(/READ_SIDE must be elect or follow/);
  });
});

describe('readConfig: PROJECTIONS_THREAD (docs/event-store.md "Read side thread")', () => {
  it('given nothing, then the projections fold on a worker thread', () => {
    expect(readConfig({}).projectionsThread).toBe('worker');
    expect(readConfig({ PROJECTIONS_THREAD: 'worker' }).projectionsThread).toBe('worker');
  });

  it('given main, then they fold in the thread that serves requests', () => {
    expect(readConfig({ PROJECTIONS_THREAD: 'main' }).projectionsThread).toBe('main');
  });

  it('given another value, then the boot stops naming the variable', () => {
    expect(() => readConfig({ PROJECTIONS_THREAD: 'thread' })).toThrow(
      /PROJECTIONS_THREAD must be worker or main, got "thread"/,
    );
  });
});

describe('byteLimit: BODY_LIMIT and AUDIT_BODY_LIMIT', () => {
  it('given a size in the units the README shows, then it is that many bytes', () => {
    expect(byteLimit('256kb', 'BODY_LIMIT')).toBe(256 * 1024);
    expect(byteLimit('20mb', 'AUDIT_BODY_LIMIT')).toBe(20 * 1024 * 1024);
    expect(byteLimit('1000', 'BODY_LIMIT')).toBe(1000);
  });

  it('given something that is no size, then the boot stops naming the variable', () => {
    for (const bad of ['lots', '', '0', '-5kb'])
      expect(() => byteLimit(bad, 'BODY_LIMIT')).toThrow(/^BODY_LIMIT must be a size such as 256kb/);
  });

  it('readConfig checks both with the other settings, and keeps what was written', () => {
    expect(readConfig({})).toMatchObject({ bodyLimit: '256kb', auditBodyLimit: '20mb' });
    expect(readConfig({ BODY_LIMIT: '1mb', AUDIT_BODY_LIMIT: '4096' })).toMatchObject({
      bodyLimit: '1mb',
      auditBodyLimit: '4096',
    });
    expect(() => readConfig({ BODY_LIMIT: 'huge' })).toThrow(/^BODY_LIMIT must be a size/);
    expect(() => readConfig({ AUDIT_BODY_LIMIT: '0' })).toThrow(/^AUDIT_BODY_LIMIT must be a size/);
  });
});

describe('readConfig: REQUEST_TIMEOUT_MS', () => {
  it('given nothing, then five minutes, as Node itself would', () => {
    expect(readConfig({}).requestTimeoutMs).toBe(300_000);
  });

  it('given a whole number of milliseconds from one second, then that', () => {
    expect(readConfig({ REQUEST_TIMEOUT_MS: '1000' }).requestTimeoutMs).toBe(1000);
    expect(readConfig({ REQUEST_TIMEOUT_MS: '60000' }).requestTimeoutMs).toBe(60_000);
  });

  it('given less than a second or no number, then the boot stops naming the variable', () => {
    for (const bad of ['999', '0', '-1', '1.5', 'soon'])
      expect(() => readConfig({ REQUEST_TIMEOUT_MS: bad })).toThrow(/^REQUEST_TIMEOUT_MS must be/);
  });
});
