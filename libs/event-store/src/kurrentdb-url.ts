/** `esdb` is the old name: the client accepts it with a warning on the console, so it is renamed here. */
const SCHEMES: Record<string, string> = {
  kurrentdb: 'kurrentdb',
  'kurrentdb+discover': 'kurrentdb+discover',
  esdb: 'kurrentdb',
  'esdb+discover': 'kurrentdb+discover',
};

export const KURRENTDB_SCHEMES = Object.keys(SCHEMES);

/**
 * The client's connection-string options, spelled as it compares them (lowercase, no `-` or `_`).
 * It prints an unknown key to the console together with the whole string, password included, so
 * unknown keys are refused here first. `throwOnAppendFailure=false` would turn conflicts into
 * silent results, which the store does not read.
 */
const OPTIONS = new Set([
  'connectionname',
  'defaultdeadline',
  'discoveryinterval',
  'gossiptimeout',
  'keepaliveinterval',
  'keepalivetimeout',
  'maxdiscoverattempts',
  'nodepreference',
  'tls',
  'tlscafile',
  'tlsverifycert',
  'usercertfile',
  'userkeyfile',
]);

export interface KurrentTarget {
  /** What the client gets. */
  connectionString: string;
  /** Scheme and hosts only: safe for logs and error messages. */
  display: string;
  /** Strings to mask wherever a client message might repeat them. */
  secrets: string[];
}

/** Checks a `kurrentdb://` (or `esdb://`, `+discover`) url; errors name the scheme, hosts or key, never the credentials. */
export function kurrentTarget(url: string): KurrentTarget {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/is.exec(url.trim());
  const given = match?.[1].toLowerCase() ?? '';
  const scheme = SCHEMES[given];
  if (!match || !scheme)
    throw new RangeError(
      'a KurrentDB url starts with kurrentdb://, kurrentdb+discover://, esdb:// or esdb+discover://',
    );
  const rest = match[2];
  const query = rest.includes('?') ? rest.slice(rest.indexOf('?') + 1) : '';
  const authority = rest.includes('?') ? rest.slice(0, rest.indexOf('?')) : rest;
  const at = authority.lastIndexOf('@');
  const credentials = at < 0 ? '' : authority.slice(0, at);
  const hosts = authority.slice(at + 1).replace(/\/+$/, '');
  const display = `${given}://${credentials ? '***@' : ''}${hosts}`;
  if (!hosts) throw new RangeError(`KurrentDB url ${display} names no host`);
  for (const pair of query ? query.split('&') : []) {
    const key = pair.split('=')[0];
    if (!OPTIONS.has(key.toLowerCase().replace(/[-_]/g, '')))
      throw new RangeError(`KurrentDB url ${display}: unsupported option "${key}"`);
  }
  const password = credentials.slice(credentials.indexOf(':') + 1);
  const secrets = credentials
    ? [...new Set([credentials, password, safeDecode(password)])].filter((s) => s.length > 0)
    : [];
  return { connectionString: `${scheme}://${rest}`, display, secrets };
}

/** A client error as a message without the credentials (its parse errors quote the string). */
export function describeError(error: unknown, target: KurrentTarget): string {
  const e =
    typeof error === 'object' && error !== null ? (error as { type?: unknown; message?: unknown }) : {};
  let text = [e.type, e.message ?? String(error)]
    .filter((part) => typeof part === 'string' && part)
    .join(': ');
  for (const secret of [...target.secrets].sort((a, b) => b.length - a.length))
    text = text.split(secret).join('***');
  return text.split('\n')[0];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
