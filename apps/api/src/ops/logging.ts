import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Params } from 'nestjs-pino';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** Structured JSON logs (pino): a request id per request, echoed back, and no secrets. */
export function loggingOptions(level: string): Params {
  return {
    pinoHttp: {
      level,
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["sec-websocket-protocol"]'], censor: '[redacted]' },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: withoutToken(req.url) }),
      },
    },
  };
}

/**
 * `?token=` carries a key or token for EventSource and OBS: never write it down. A parameter's name is
 * judged as the query parser reads it (percent-decoded, `+` a space, any `[…]` suffix dropped, any
 * case), so `?tok%65n=` or `?TOKEN[]=` is redacted too; so is a name that does not decode.
 */
export function withoutToken(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return secretName(name) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return url.slice(0, q + 1) + redacted + (hash < 0 ? '' : url.slice(hash));
}

function secretName(raw: string): boolean {
  let name: string;
  try {
    name = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return true;
  }
  return /^\s*token\s*(\[.*)?$/i.test(name);
}
