import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { AppError } from '@app/fights';
import { contentTypeOf, headerPatternOf } from './media-types';
import { decodeBody, decoderOf, readJsonObject, UnreadBody } from './body-checks';

/** The body's charset: UTF-8 unless the Content-Type names another UTF (RFC 8259: JSON is UTF). */
function charsetOf(req: FastifyRequest): string {
  return contentTypeOf(String(req.headers['content-type'])).charset ?? 'utf-8';
}

/** The route whose body is read off the request thread, by the verifier. */
export const VERIFY_ROUTE = '/audit/verify';

/** A body's text in its declared charset (a 415 unless it is a UTF), its nesting limited first. */
function decode(req: FastifyRequest, body: Buffer): string {
  return decodeBody(body, charsetOf(req));
}

/**
 * As body-parser's strict JSON: an object or an array at the top, each member name once; an empty body
 * is no body (undefined), as if none had been sent.
 */
export function parseJsonBody(req: FastifyRequest, body: Buffer): unknown {
  return readJsonObject(body, charsetOf(req), req.routeOptions.url === GRAPHQL_ROUTE);
}

/** The GraphQL endpoint: a duplicate in its `variables` is named as the variable. */
const GRAPHQL_ROUTE = '/graphql';

/**
 * A fight log posted for verification is taken as it came in, its charset checked (a 415 here, as
 * for every body) and everything else left to the verifier's worker (readPostedLog): decoding,
 * depth, JSON and strings of megabytes would hold every other request up.
 */
function bodyOf(req: FastifyRequest, body: Buffer, media: 'json' | 'ndjson'): unknown {
  if (req.routeOptions.url === VERIFY_ROUTE) {
    const charset = charsetOf(req);
    decoderOf(charset);
    return new UnreadBody(body, charset, media);
  }
  return media === 'json' ? parseJsonBody(req, body) : decode(req, body);
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
      done(null, bodyOf(req, body as Buffer, 'json'));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.addContentTypeParser(headerPatternOf('ndjson'), { parseAs: 'buffer' }, (req, body, done) => {
    try {
      done(null, bodyOf(req, body as Buffer, 'ndjson'));
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
