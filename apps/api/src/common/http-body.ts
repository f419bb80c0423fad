import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { AppError } from '@app/fights';
import { headerPatternOf } from './media-types';
import { limitBodyDepth } from './validation';

/** The body's charset: UTF-8 unless the Content-Type names another UTF (RFC 8259: JSON is UTF). */
function charsetOf(req: FastifyRequest): string {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(String(req.headers['content-type'] ?? ''));
  return (m?.[1] ?? 'utf-8').toLowerCase();
}

/** One decoder per charset label seen (a handful: the UTFs), not one per request. */
const DECODERS = new Map<string, TextDecoder>();

/** Decodes a body in its declared charset; a charset that is no UTF, or that is unknown, is a 415. */
function decode(req: FastifyRequest, body: Buffer): string {
  const charset = charsetOf(req);
  const unsupported = () =>
    new AppError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `unsupported charset "${charset.toUpperCase()}"`,
      'content-type',
    );
  if (!charset.startsWith('utf-')) throw unsupported();
  let decoder = DECODERS.get(charset);
  if (!decoder) {
    try {
      decoder = new TextDecoder(charset);
    } catch {
      throw unsupported();
    }
    // Labels come from clients: a few are kept, any others decoded with a decoder of their own.
    if (DECODERS.size < 16) DECODERS.set(charset, decoder);
  }
  limitBodyDepth(body, charset);
  return decoder.decode(body);
}

const invalidJson = () => new AppError(400, 'INVALID_JSON', 'the request body is not valid JSON');

/** As body-parser's strict JSON: an object or an array at the top; an empty body is `{}`. */
export function parseJsonBody(req: FastifyRequest, body: Buffer): unknown {
  const text = decode(req, body);
  const start = /^[\s\uFEFF]*(.)/.exec(text)?.[1];
  if (start === undefined) return {};
  if (start !== '{' && start !== '[') throw invalidJson();
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    throw invalidJson();
  }
}

/**
 * Request bodies, as the service takes them on Fastify: JSON (UTF-8 or another UTF named by its
 * charset) everywhere, NDJSON text for a fight log to verify, each nested at most MAX_BODY_DEPTH deep
 * (counted on the raw bytes before parsing); gzip, deflate and br bodies inflated first, their limit
 * counting inflated bytes. Fastify's own parsers (secure-json-parse, text/plain) are replaced: a
 * `__proto__` key is plain data here, as it is in every stored event, never an object's prototype.
 * Media types a route does not take are refused before any of this by `requireJsonBody`.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(headerPatternOf('json'), { parseAs: 'buffer' }, (req, body, done) => {
    try {
      done(null, parseJsonBody(req, body as Buffer));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.addContentTypeParser(headerPatternOf('ndjson'), { parseAs: 'buffer' }, (req, body, done) => {
    try {
      done(null, decode(req, body as Buffer));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.addHook('preParsing', (req, _reply, payload, done) => {
    const coding = String(req.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    if (coding === 'identity' || coding === '') return done(null, payload);
    const inflate =
      coding === 'gzip' || coding === 'x-gzip'
        ? createGunzip()
        : coding === 'deflate'
          ? createInflate()
          : coding === 'br'
            ? createBrotliDecompress()
            : undefined;
    if (!inflate)
      return done(
        new AppError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          `unsupported content encoding "${coding}"`,
          'content-encoding',
        ),
      );
    // Fastify checks Content-Length against the bytes that came in, not the inflated ones.
    const inflated = inflate as typeof inflate & { receivedEncodedLength: number };
    inflated.receivedEncodedLength = 0;
    payload.on('data', (chunk: Buffer) => (inflated.receivedEncodedLength += chunk.length));
    payload.on('error', (e) => inflate.destroy(e));
    // A body that does not inflate is the client's fault: a 400 naming its Content-Encoding.
    inflate.on('error', (e) => {
      Object.assign(e, { statusCode: 400, contentEncoding: coding });
      payload.resume();
    });
    done(null, payload.pipe(inflate) as Readable);
  });
}
