import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** API keys `crs_<id>_<secret>`, fight tokens `crt_<id>_<secret>`: the id finds the record, only the secret's hash is stored. */
export type SecretKind = 'crs' | 'crt';

const PATTERN = /^(crs|crt)_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export function newSecret(kind: SecretKind): { id: string; secret: string; hash: string } {
  const id = randomBytes(8).toString('hex');
  const body = randomBytes(32).toString('base64url');
  return { id, secret: `${kind}_${id}_${body}`, hash: hashSecret(body) };
}

export function parseSecret(secret: string): { kind: SecretKind; id: string; body: string } | undefined {
  const m = PATTERN.exec(secret);
  return m ? { kind: m[1] as SecretKind, id: m[2], body: m[3] } : undefined;
}

export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
