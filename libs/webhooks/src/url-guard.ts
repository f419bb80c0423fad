import { lookup, LookupAddress } from 'node:dns';
import { lookup as lookupAsync } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError, invalidField } from '@app/fights';

/** The longest endpoint URL, counted as it is stored and sent: normalised, non-ASCII percent-encoded. */
export const WEBHOOK_URL_MAX_LENGTH = 2000;

const ALLOW_HINT =
  'the operator can allow private targets with WEBHOOK_ALLOW_PRIVATE=true (local development only)';

/**
 * IPv4-compatible IPv6 addresses (`::a.b.c.d`, RFC 4291 section 2.5.5.1, deprecated): ipaddr.js calls
 * them unicast, but `[::127.0.0.1]` names the IPv4 address inside, and no public host has one.
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** Why an address may not be a webhook target (anything but public unicast), or undefined when it may. */
export function refusedRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === 'unicast' && parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE))
    return 'ipv4Compatible';
  return range === 'unicast' ? undefined : range;
}

export class PrivateTargetError extends Error {
  constructor(
    readonly address: string,
    readonly range: string,
  ) {
    super(`target address ${address} is in the ${range} range; ${ALLOW_HINT}`);
    this.name = 'PrivateTargetError';
  }
}

/** Management time: the URL must be http(s) and every address its host resolves to must be public (unless allowed). */
export async function assertSafeUrl(raw: string, allowPrivate: boolean, field = 'url'): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidField(field, `${field} must be an absolute http or https URL`);
  }
  // What is stored is the normalised URL (url.href): an "é" is 6 characters there, "%C3%A9".
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH)
    throw invalidField(
      field,
      `${field} must be at most ${WEBHOOK_URL_MAX_LENGTH} characters as stored (normalised, non-ASCII percent-encoded); this one is ${url.href.length}`,
    );
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidField(field, `${field} must use http or https`);
  if (url.username || url.password) throw invalidField(field, `${field} must not carry credentials`);
  // WHATWG's parser takes port 0, but nothing listens there: every attempt would fail until the endpoint is disabled.
  if (url.port === '0') throw invalidField(field, `${field} must name a port from 1 to 65535, not 0`);
  // A fragment is never sent (the request target is the path and query): rather than keep what is ignored, refuse it.
  if (url.href.includes('#'))
    throw invalidField(field, `${field} must not have a fragment (#…): it is never sent to the receiver`);
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host)
      ? [host]
      : (await lookupAsync(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new AppError(422, 'WEBHOOK_URL_UNRESOLVABLE', `the host ${host} of url does not resolve`, field);
  }
  for (const address of addresses) {
    const range = refusedRange(address);
    if (range)
      throw new AppError(
        422,
        'WEBHOOK_URL_NOT_ALLOWED',
        `url points at ${address}, a ${range} address: private, loopback and link-local targets are refused; ${ALLOW_HINT}`,
        field,
      );
  }
  return url;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * Send time: a `lookup` for node:http that refuses private answers, so a name that
 * re-resolves to a private address after it was accepted (DNS rebinding) is still refused.
 */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number },
  callback: LookupCallback,
): void {
  lookup(
    hostname,
    { ...options, all: true, verbatim: true } as never,
    (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return callback(err, []);
      for (const a of addresses) {
        const range = refusedRange(a.address);
        if (range)
          return callback(Object.assign(new PrivateTargetError(a.address, range), { code: 'EPRIVATE' }), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    },
  );
}
