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

/** `?token=` carries a key or token for EventSource and OBS: never write it down. */
export function withoutToken(url: string): string {
  return url.replace(/([?&]token=)[^&]*/g, '$1[redacted]');
}
