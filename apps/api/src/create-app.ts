import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import helmet, { HelmetOptions } from 'helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppModule } from './app.module';
import { Logger, PinoLogger } from 'nestjs-pino';
import { AccessService, AppError } from '@app/fights';
import { accessLog, requestIdOf } from './ops/logging';
import { publishContract } from './common/openapi-contract';
import { declareChecks, forbidUndeclaredFields } from './common/declared-checks';
import { ApiConfig, byteLimit, DEFAULT_REQUEST_TIMEOUT_MS } from './config';
import { toApiError } from './common/to-api-error';
import { refuseUnstorableStrings } from './common/body-checks';
import {
  refuseBodylessBody,
  refuseRepeatedHeaders,
  refuseTransferCodings,
  requireJsonBody,
} from './common/validation';
import { registerBodyParsers, VERIFY_ROUTE } from './common/http-body';
import {
  answerNotModified,
  bodyDeadline,
  refuseClientError,
  refuseExpectation,
  refuseMissingHost,
  refuseUpgrade,
  refuseUnknownMethod,
} from './common/http-reply';
import { Metrics } from './ops/metrics';
import { answerOptions, corsOptions } from './common/cors';
import { GRAPHQL_PATH } from './graphql/graphql-options';
import { refuseQuery } from './common/declared-input.guard';
import { answerConnect } from './common/connect-method';
import { refuseHttpVersion } from './common/http-version';
import { refuseUnstorablePath, staticRefusalNotFound } from './common/static-file-refusals';

/**
 * helmet's defaults (nosniff, frame and referrer policies, no X-Powered-By…) with a CSP that Swagger UI
 * at /docs lives with (its scripts are files of this origin, its styles partly inline, its icons data:
 * URLs). The overlay sends its own nonce-based CSP, which replaces this one on its pages. No
 * upgrade-insecure-requests and no HSTS: the service is often reached over plain HTTP (localhost, a
 * LAN), and HSTS belongs to whatever terminates TLS in front of it.
 */
const HELMET: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: true, directives: { upgradeInsecureRequests: null } },
  strictTransportSecurity: false,
};

/** The routes SwaggerModule.setup('docs', …, { jsonDocumentUrl: 'openapi.json' }) adds: the page, its files, the documents. */
const SWAGGER_ROUTE = /^\/(?:docs(?:\/.*)?|docs-yaml|openapi\.json)$/;

/** Response headers a browser's JavaScript may read on a cross-origin answer. */
export const CORS_EXPOSED_HEADERS = [
  'x-request-id',
  'location',
  'etag',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'www-authenticate',
  'link',
  'x-next-cursor',
  'x-read-model-stale',
];

/** Builds the app for main, the tests and the schema generator alike. */
export async function createApp(
  config: ApiConfig,
  options: { logger?: false; controllers?: Type[] } = {},
): Promise<{ app: INestApplication; openapi: OpenAPIObject }> {
  const quiet = options.logger === false;
  const root = AppModule.forRoot(quiet ? { ...config, logLevel: 'silent' } : config);
  // Extra controllers: the benchmark's in-app constant route, behind the same middleware, guards and filter.
  if (options.controllers) root.controllers = [...(root.controllers ?? []), ...options.controllers];
  const requestTimeout = config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const adapter = new FastifyAdapter({
    bodyLimit: byteLimit(config.bodyLimit, 'BODY_LIMIT'),
    // Headers that have not arrived in time are 408 REQUEST_TIMEOUT (refuseClientError); Node looks every 30 s, or
    // sooner for a short limit. A body that stalls after them is bodyDeadline's.
    requestTimeout,
    // An HTTP/1.1 request without Host is refuseMissingHost's (Node's own 400 has an empty body).
    http: {
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeout / 4))),
      requireHostHeader: false,
    },
    // As Express routed: /fights/ is /fights; a parameter (an id, a name) may be long, the pipes judge it.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16_384 },
    genReqId: requestIdOf,
    // Keep-alive sockets idle at close are closed; busy ones finish (main.ts bounds that with its grace).
    forceCloseConnections: 'idle',
    // A request reaching a stopping instance is whileStopping's, in the error shape (Fastify's 503 has no code).
    return503OnClosing: false,
    clientErrorHandler: refuseClientError,
    // What the router refuses before any hook (a path whose percent-escapes are not UTF-8): the error shape.
    frameworkErrors: (error: Error, _req: unknown, reply: FastifyReply) => {
      const e = toApiError(error);
      void reply.code(e.statusCode).send(e);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    bodyParser: false,
    // A provider that fails (a store it cannot open or reach) rejects here, for the caller to report
    // in one line (main.ts), rather than Nest logging its stack and ending the process itself.
    abortOnError: false,
    bufferLogs: !quiet,
    logger: quiet ? false : undefined,
  });
  if (!quiet) app.useLogger(app.get(Logger));
  const fastify = app.getHttpAdapter().getInstance();
  fastify.server.on('checkExpectation', refuseExpectation);
  fastify.server.on('upgrade', refuseUpgrade(GRAPHQL_PATH));
  fastify.server.on('connect', answerConnect(fastify.server));
  // A streamed answer whose client takes nothing for as long as a request may take to arrive is cut.
  fastify.decorate('stalledReaderMs', requestTimeout);
  const access = app.get(AccessService);
  const logRequest = accessLog(PinoLogger.root, (fightId) => access.registry.owners.get(fightId));
  const armBodyDeadline = bodyDeadline(requestTimeout);
  const security = securityHeaders(HELMET);
  // One onRequest hook whose steps run in order (a hook each cost a turn of Fastify's hook runner): the
  // access log first, so that every answer (a body parser's 400 too) has its request id and its one log
  // line; then the body's deadline, helmet's headers and what is refused before the body is read.
  const stopped = whileStopping(fastify);
  fastify.addHook('onRequest', (req, reply, done) => {
    logRequest(req, reply);
    armBodyDeadline(req, reply);
    void reply.headers(security);
    const refused = stopped(reply) ?? attempt(() => refuseBeforeReading(fastify, req, reply));
    if (refused) return done(refused);
    refuseBodylessBody(req, reply, done);
  });
  fastify.addHook('onResponse', app.get(Metrics).countRequests);
  registerBodyParsers(fastify);
  fastify.addHook('onRoute', perRoute(byteLimit(config.auditBodyLimit, 'AUDIT_BODY_LIMIT')));
  fastify.addHook('preValidation', (req, _reply, done) => done(attempt(() => refuseUnstorableStrings(req))));
  // No enableShutdownHooks: main.ts owns the process's signals and closes live streams before the app.
  // CORS is off unless CORS_ORIGINS lists the browser origins allowed to call the API.
  // Request headers are the browser's to ask for (the allowed origins are the restriction); what JS may read is listed.
  // A preflight allows the path's own methods (corsOptions); any other OPTIONS is answered with Allow (answerOptions).
  if (config.corsOrigins?.length)
    app.enableCors(
      corsOptions(fastify, {
        origin: config.corsOrigins.includes('*') ? true : config.corsOrigins,
        exposedHeaders: CORS_EXPOSED_HEADERS,
        maxAge: 600,
      }),
    );
  answerOptions(fastify, !config.corsOrigins?.length);
  const bodies = declareChecks(app);
  const openapi = publishContract(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Combat rules service')
        .setDescription(
          'Event-sourced fights for Narateer, Arcana Beast and Archsoul. Errors: { statusCode, code, message, field? }.',
        )
        .setVersion('0.1.0')
        .build(),
    ),
  );
  forbidUndeclaredFields(openapi, bodies);
  SwaggerModule.setup('docs', app, () => openapi, { jsonDocumentUrl: 'openapi.json' });
  return { app, openapi };
}

/**
 * helmet's headers for these options, computed once: helmet sets the same values on every answer, and
 * @fastify/helmet built them again (CSP directives parsed, names dashed) for each request.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as never, res as never, (e?: unknown) => {
    if (e) throw e instanceof Error ? e : new Error('helmet refused its options');
  });
  return headers;
}

/**
 * What some routes get of their own as they are added: a GET or HEAD route judges its answer's
 * conditions (answerNotModified, its first onSend hook; a POST runs none, where an instance hook ran on
 * every answer only to return); fight logs for verification are larger than commands (their own limit); Swagger's routes are Fastify's, not Nest's, so DeclaredInputGuard never
 * sees them, and they declare no query either (`/openapi.json?x=1` was a 200 where
 * `/asyncapi.json?x=1` is a 400); a path their file server refuses (U+0000, a dot segment) is answered
 * as on any other route (common/static-file-refusals.ts), not with its 403.
 */
function perRoute(auditLimit: number) {
  const refuseAnyQuery = (req: FastifyRequest, _reply: FastifyReply, done: (e?: Error) => void) =>
    done(attempt(() => refuseQuery(req.query)));
  return (route: RouteOptions): void => {
    if (route.url === VERIFY_ROUTE) route.bodyLimit = auditLimit;
    // Only a GET or HEAD answer has conditions to judge: a route of other methods runs no onSend hook at all.
    const methods = [route.method].flat();
    if (methods.includes('GET') || methods.includes('HEAD'))
      route.onSend = [answerNotModified, ...[route.onSend ?? []].flat()];
    if (!SWAGGER_ROUTE.test(route.url)) return;
    route.onRequest = [...[route.onRequest ?? []].flat(), refuseAnyQuery];
    route.preHandler = [...[route.preHandler ?? []].flat(), refuseUnstorablePath];
    route.errorHandler = staticRefusalNotFound(route.errorHandler);
  };
}

/**
 * A version of HTTP not served (505), no Host, a header sent twice, a transfer coding other than chunked,
 * a method the path does not have (405), or a body in a media type the route does not take, is refused
 * before it is read (a body sent with a GET or HEAD is refuseBodylessBody's, the hook's last step).
 */
function refuseBeforeReading(fastify: FastifyInstance, req: FastifyRequest, reply: FastifyReply): void {
  refuseHttpVersion(req, reply);
  refuseMissingHost(req, reply);
  refuseRepeatedHeaders(req.raw.rawHeaders);
  refuseTransferCodings(req.headers);
  refuseUnknownMethod(fastify, req, reply);
  requireJsonBody(req);
}

/**
 * Once the instance has begun to stop (Fastify's preClose), what refuses each request that still reaches it, on a
 * connection that was busy when the stop began (an idle one is closed): stopping's answer; before, nothing.
 */
function whileStopping(fastify: FastifyInstance): (reply: FastifyReply) => AppError | undefined {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  return (reply) => (closing ? stopping(reply) : undefined);
}

/**
 * A request that reaches the instance once it has begun to stop: 503 SHUTTING_DOWN in the error shape, with
 * `Retry-After` and the connection closed, so a client sends it again, to another instance or to this one once
 * it is back. It has done nothing.
 */
function stopping(reply: FastifyReply): AppError {
  void reply.header('retry-after', '1').header('connection', 'close');
  return new AppError(
    503,
    'SHUTTING_DOWN',
    'this instance is stopping and did nothing with the request; send it again (to another instance, or to this one once it is back)',
  );
}

function attempt(check: () => void): Error | undefined {
  try {
    check();
    return undefined;
  } catch (e) {
    return e as Error;
  }
}
