import { errorAndCauses } from './error-causes';

/** What kept a store from doing its work, when it is the machine's or the database's state, not the request. */
export type StoreFault = 'full' | 'read-only' | 'busy' | 'io';

/** SQLite's result codes (extended codes start with the primary's name). */
const SQLITE: ReadonlyArray<[string, StoreFault]> = [
  ['SQLITE_FULL', 'full'],
  ['SQLITE_READONLY', 'read-only'],
  ['SQLITE_BUSY', 'busy'],
  ['SQLITE_LOCKED', 'busy'],
  ['SQLITE_NOMEM', 'busy'],
  ['SQLITE_IOERR', 'io'],
  ['SQLITE_CANTOPEN', 'io'],
  ['SQLITE_PROTOCOL', 'io'],
];

/**
 * PostgreSQL's SQLSTATEs of the same kinds: class 53 (insufficient resources: disk full, out of memory,
 * too many connections), a read-only transaction (a standby after a failover), a lock or a statement
 * that timed out, an I/O error.
 */
const SQLSTATE: Record<string, StoreFault> = {
  '53100': 'full',
  '53200': 'busy',
  '53300': 'busy',
  '53400': 'busy',
  '25006': 'read-only',
  '55P03': 'busy',
  '57014': 'busy',
  '58030': 'io',
};

/** The file system's, where a store writes files (SQLite's journal, a data directory). */
const ERRNO: Record<string, StoreFault> = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  EROFS: 'read-only',
  EACCES: 'read-only',
  EMFILE: 'busy',
  ENFILE: 'busy',
  EIO: 'io',
};

/**
 * The fault when `error` says the store could not write or answer for a reason of its own (a full disk,
 * a read-only file or standby, a lock held too long, out of resources, an I/O error), else undefined. Read
 * off the error's code alone, and its cause's: a driver's error of another realm is no `Error` here.
 */
export function storeFault(error: unknown): StoreFault | undefined {
  for (const { code } of errorAndCauses(error)) {
    if (typeof code !== 'string') continue;
    const fault =
      SQLITE.find(([prefix]) => code === prefix || code.startsWith(`${prefix}_`))?.[1] ??
      (Object.hasOwn(SQLSTATE, code) ? SQLSTATE[code] : undefined) ??
      (Object.hasOwn(ERRNO, code) ? ERRNO[code] : undefined);
    if (fault) return fault;
  }
  return undefined;
}
