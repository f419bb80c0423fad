import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { json, NextFunction, Request, Response, text } from 'express';
import { AppModule } from './app.module';
import { Logger } from 'nestjs-pino';
import { toApiError } from './common/to-api-error';
import { ApiConfig } from './config';

/** Builds the app for main, the tests and the schema generator alike. */
export async function createApp(config: ApiConfig, options: { logger?: false } = {}): Promise<{ app: INestApplication; openapi: OpenAPIObject }> {
  const quiet = options.logger === false;
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(quiet ? { ...config, logLevel: 'silent' } : config), { bodyParser: false, bufferLogs: !quiet, logger: quiet ? false : undefined });
  if (!quiet) app.useLogger(app.get(Logger));
  // Fight logs for verification are larger than commands: their own route, their own limit.
  app.use('/audit/verify', json({ limit: config.auditBodyLimit }), text({ type: 'application/x-ndjson', limit: config.auditBodyLimit }));
  app.use(json({ limit: config.bodyLimit }));
  // Body-parser errors happen before Nest routing: give them the service's error shape.
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    const e = toApiError(err);
    res.status(e.statusCode).json(e);
  });
  app.enableShutdownHooks();
  // CORS is off unless CORS_ORIGINS lists the browser origins allowed to call the API.
  if (config.corsOrigins?.length) app.enableCors({ origin: config.corsOrigins.includes('*') ? true : config.corsOrigins, allowedHeaders: ['authorization', 'content-type', 'last-event-id'] });
  const openapi = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Combat rules service')
      .setDescription('Event-sourced fights for Narateer, Arcana Beast and Archsoul. Errors: { statusCode, code, message, field? }.')
      .setVersion('0.1.0')
      .build(),
  );
  SwaggerModule.setup('docs', app, () => openapi, { jsonDocumentUrl: 'openapi.json' });
  return { app, openapi };
}
