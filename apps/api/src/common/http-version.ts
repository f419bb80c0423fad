import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { AppError } from '@app/fights';
import type { ApiError } from './api-error';

/**
 * RFC 9110 section 15.6.6: 505 for a version of HTTP the server does not support. The service speaks
 * HTTP/1.1 and HTTP/1.0; Node's parser refuses most other versions itself (`HTTP/1.2`, `HTTP/3.0`) but
 * takes `HTTP/2.0` and `HTTP/0.9` (a request line without a version), which were served. Every one of
 * them gets this answer, and its connection is closed.
 */
export const VERSION_NOT_SUPPORTED: ApiError = {
  statusCode: 505,
  code: 'HTTP_VERSION_NOT_SUPPORTED',
  message: 'the request line does not end in HTTP/1.1 (or HTTP/1.0): no other version of HTTP is served',
  field: 'version',
};

/** HTTP/1.1 or HTTP/1.0. */
export const isServedVersion = (req: IncomingMessage): boolean =>
  req.httpVersionMajor === 1 && (req.httpVersionMinor === 1 || req.httpVersionMinor === 0);

/**
 * Refuses (VERSION_NOT_SUPPORTED, the connection closed after it) a request in a version the parser took
 * but the service does not speak. The first of the refusals before a body is read.
 */
export function refuseHttpVersion(req: FastifyRequest, reply: FastifyReply): void {
  if (isServedVersion(req.raw)) return;
  void reply.header('connection', 'close');
  const { statusCode, code, message, field } = VERSION_NOT_SUPPORTED;
  throw new AppError(statusCode, code, message, field);
}

/** llhttp's refusals of a version: one it does not know (`HTTP/1.2`), and HTTP/2's preface (`PRI * HTTP/2.0`); refuseClientError answers them. */
export const UNPARSED_VERSIONS: ReadonlySet<string> = new Set([
  'HPE_INVALID_VERSION',
  'HPE_PAUSED_H2_UPGRADE',
]);
