/** Streams that hold one event id's claim (kurrentdb-claims.ts); no stream of the service may start so. */
export const CLAIM_PREFIX = 'event-id-';

/**
 * Where the store's streams live in a KurrentDB database: `<namespace><stream>`. The namespace is
 * empty in production, so streams keep their own names; the contract tests give every store its
 * own, which is how a shared server gives each test an empty store.
 */
export class KurrentNames {
  /** Server-side filter of `$all` (a .NET regex; kept to what JavaScript reads the same way). */
  readonly logRegex: string;
  private readonly ours: RegExp;

  constructor(readonly namespace = '') {
    if (!/^[A-Za-z0-9_.-]*$/.test(namespace))
      throw new RangeError(`KurrentDB namespace "${namespace}" may hold only letters, digits, _ . -`);
    this.logRegex = `^${namespace.replace(/\./g, '\\.')}(?!\\$|${CLAIM_PREFIX})`;
    this.ours = new RegExp(this.logRegex);
  }

  /** `$` streams are KurrentDB's own (metadata, projections); claim streams are the store's bookkeeping. */
  stream(stream: string): string {
    if (stream === '' || stream.startsWith('$') || stream.startsWith(CLAIM_PREFIX)) {
      throw new TypeError(`stream name "${stream}" is reserved in KurrentDB`);
    }
    return this.namespace + stream;
  }

  logical(streamId: string): string {
    return streamId.slice(this.namespace.length);
  }

  claim(eventId: string): string {
    return `${this.namespace}${CLAIM_PREFIX}${eventId}`;
  }

  /** Whether an event read from `$all` belongs to the log: the server filter's twin, plus no `$` event types. */
  inLog(streamId: string, type: string): boolean {
    return this.ours.test(streamId) && !type.startsWith('$');
  }
}
