import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { json, NextFunction, Request, Response, text } from 'express';
import helmet from 'helmet';
import { AppModule } from './app.module';
import { Logger, PinoLogger } from 'nestjs-pino';
import { AccessService } from '@app/fights';
import { accessLog } from './ops/logging';
import { toApiError } from './common/to-api-error';
import { publishContract } from './common/openapi-contract';
import { ApiConfig } from './config';
import { limitBodyDepth, refuseUnstorableStrings } from './common/validation';

/**
 * helmet's defaults (nosniff, frame and referrer policies, no X-Powered-By…) with a CSP that Swagger UI
 * at /docs lives with (its scripts are files of this origin, its styles partly inline, its icons data:
 * URLs). The overlay sends its own nonce-based CSP, which replaces this one on its pages. No
 * upgrade-insecure-requests and no HSTS: the service is often reached over plain HTTP (localhost, a
 * LAN), and HSTS belongs to whatever terminates TLS in front of it.
 */
const HELMET: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: { useDefaults: true, directives: { upgradeInsecureRequests: null } },
  strictTransportSecurity: false,
};

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
  const app = await NestFactory.create<NestExpressApplication>(root, {
    bodyParser: false,
    bufferLogs: !quiet,
    logger: quiet ? false : undefined,
  });
  if (!quiet) app.useLogger(app.get(Logger));
  // First, so that every answer (a body parser's 400 too) has its request id and its one log line.
  const access = app.get(AccessService);
  app.use(accessLog(PinoLogger.root, (fightId) => access.registry.owners.get(fightId)));
  app.disable('x-powered-by');
  app.use(helmet(HELMET));
  // Fight logs for verification are larger than commands: their own route, their own limit.
  app.use(
    '/audit/verify',
    json({ limit: config.auditBodyLimit, verify: limitBodyDepth }),
    text({ type: 'application/x-ndjson', limit: config.auditBodyLimit, verify: limitBodyDepth }),
  );
  app.use(json({ limit: config.bodyLimit, verify: limitBodyDepth }));
  app.use(refuseUnstorableStrings);
  // Body-parser errors happen before Nest routing: give them the service's error shape.
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    const e = toApiError(err);
    res.status(e.statusCode).json(e);
  });
  // No enableShutdownHooks: main.ts owns the process's signals and closes live streams before the app.
  // CORS is off unless CORS_ORIGINS lists the browser origins allowed to call the API.
  // Request headers are the browser's to ask for (the allowed origins are the restriction); what JS may read is listed.
  if (config.corsOrigins?.length)
    app.enableCors({
      origin: config.corsOrigins.includes('*') ? true : config.corsOrigins,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      maxAge: 600,
    });
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
  SwaggerModule.setup('docs', app, () => openapi, { jsonDocumentUrl: 'openapi.json' });
  return { app, openapi };
}
