import { storeFault } from '../src/store-faults';

const err = (code: string, cause?: unknown) => Object.assign(new Error(code), { code, cause });

describe('storeFault: the store could not do its work for a reason of its own', () => {
  it.each([
    ['SQLITE_FULL', 'full'],
    ['SQLITE_IOERR_WRITE', 'io'],
    ['SQLITE_IOERR', 'io'],
    ['SQLITE_READONLY_DBMOVED', 'read-only'],
    ['SQLITE_BUSY_SNAPSHOT', 'busy'],
    ['SQLITE_CANTOPEN', 'io'],
    ['53100', 'full'],
    ['53300', 'busy'],
    ['25006', 'read-only'],
    ['57014', 'busy'],
    ['ENOSPC', 'full'],
    ['EROFS', 'read-only'],
    ['EIO', 'io'],
  ])('%s is %s', (code, fault) => {
    expect(storeFault(err(code))).toBe(fault);
    // Wrapped, as a driver or a framework hands it on, and of another realm (no Error at all).
    expect(storeFault(new Error('wrapped', { cause: err(code) }))).toBe(fault);
    expect(storeFault({ code })).toBe(fault);
  });

  it.each([
    ['a constraint', 'SQLITE_CONSTRAINT_UNIQUE'],
    ['a name that only starts like a fault', 'SQLITE_FULLY'],
    ['a syntax error', '42601'],
    ['a unique violation', '23505'],
    ['no code', undefined],
  ])('%s is none', (_what, code) => {
    expect(storeFault(code === undefined ? new Error('x') : err(code))).toBeUndefined();
    expect(storeFault(null)).toBeUndefined();
    expect(storeFault('SQLITE_FULL')).toBeUndefined();
  });

  it('a cause that is itself ends the walk', () => {
    const looped: { code: string; cause?: unknown } = { code: 'X' };
    looped.cause = looped;
    expect(storeFault(looped)).toBeUndefined();
  });

  it('a chain that loops back through another ends the walk too; a fault within it is still found', () => {
    const a: { code: string; cause?: unknown } = { code: 'X' };
    const b = { code: 'Y', cause: a };
    a.cause = b;
    expect(storeFault(b)).toBeUndefined();
    expect(storeFault({ code: 'Z', cause: { code: 'W', cause: err('SQLITE_FULL', b) } })).toBe('full');
  });
});
