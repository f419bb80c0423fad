import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks: the secret is `whsec_` + base64 of random bytes; the HMAC key is those bytes. */
export const newSigningSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

const keyOf = (secret: string): Buffer =>
  Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');

/** `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` (Standard Webhooks "Signature scheme"). */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The three headers of one attempt; during a rotation's overlap both secrets sign, space-separated. */
export function webhookHeaders(
  secrets: string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => sign(s, id, timestampSeconds, body)).join(' '),
  };
}
