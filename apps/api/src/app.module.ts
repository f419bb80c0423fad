import { DynamicModule, Module, Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AuthGuard } from './auth/auth.guard';
import { OpsModule } from './ops/ops.module';
import { LabModule } from './lab/lab.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { OverlayModule } from './overlay/overlay.module';
import { LoggerModule } from 'nestjs-pino';
import { loggingOptions } from './ops/logging';
import { LiveConnections, LiveConnectionsModule } from './ops/live-connections';
import { KeyThrottlerGuard, RATE_LIMIT } from './auth/key-throttler.guard';
import { AccessService } from '@app/fights';
import { graphqlOptions } from './graphql/graphql-options';
import { AdminController } from './auth/admin.controller';
import { TokensController } from './auth/tokens.controller';
import { GraphQLModule } from '@nestjs/graphql';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { validationPipe } from './common/validation';
import { DeclaredInputGuard } from './common/declared-input.guard';
import { ApiConfig, byteLimit } from './config';
import { API_CONFIG, FightsModule } from './fights.module';
import { FightsResolver } from './graphql/fights.resolver';
import { SystemsResolver } from './graphql/systems.resolver';
import { LiveResolver } from './graphql/live.resolver';
import { TokensResolver } from './graphql/tokens.resolver';
import { WsMessageLimit } from './graphql/ws-limits';
import { StreamController } from './rest/stream.controller';
import { ProjectionsController } from './rest/projections.controller';
import { AuditController } from './rest/audit.controller';
import { LogVerifier } from './common/log-verifier';
import { FightsController } from './rest/fights.controller';
import { SystemsController } from './rest/systems.controller';

@Module({})
export class AppModule {
  static forRoot(config: ApiConfig): DynamicModule {
    const configModule: DynamicModule = {
      module: class ConfigHolder {},
      global: true,
      providers: [{ provide: API_CONFIG, useValue: config }],
      exports: [API_CONFIG],
    };
    return {
      module: AppModule,
      imports: [
        configModule,
        LiveConnectionsModule,
        // A fight token's tenant, for the access log, is its fight's owner.
        LoggerModule.forRootAsync({
          imports: [FightsModule],
          inject: [AccessService],
          useFactory: (access: AccessService) =>
            loggingOptions(config.logLevel ?? 'info', (fightId) => access.registry.owners.get(fightId)),
        }),
        FightsModule,
        OpsModule,
        LabModule,
        WebhooksModule,
        OverlayModule,
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          imports: [FightsModule],
          inject: [AccessService, LiveConnections],
          useFactory: graphqlOptions,
        }),
      ],
      controllers: [
        FightsController,
        StreamController,
        SystemsController,
        ProjectionsController,
        AuditController,
        AdminController,
        TokensController,
      ],
      providers: [
        // One verifier thread for POST /audit/verify and GraphQL verifyFightLog (AuditController closes it).
        // Logs of up to three largest bodies wait for it; one more is 503 VERIFIER_BUSY, not memory held.
        {
          provide: LogVerifier,
          useFactory: () =>
            new LogVerifier({
              maxQueuedBytes: 3 * byteLimit(config.auditBodyLimit, 'AUDIT_BODY_LIMIT'),
            }),
        },
        FightsResolver,
        SystemsResolver,
        TokensResolver,
        // Every graphql-ws message bounded by BODY_LIMIT, as a POST /graphql body is.
        WsMessageLimit,
        LiveResolver,
        { provide: APP_PIPE, useValue: validationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        ...rateLimiting(config),
        { provide: APP_GUARD, useClass: AuthGuard },
        // After authentication: a caller without a key learns nothing of a route's input.
        { provide: APP_GUARD, useClass: DeclaredInputGuard },
      ],
    };
  }
}

/** RATE_LIMIT_PER_SECOND=0 (or unset in a config object): no guard at all, so no headers and no cost per request. */
function rateLimiting(config: ApiConfig): Provider[] {
  if (!config.rateLimitPerSecond) return [];
  return [
    { provide: RATE_LIMIT, useValue: { limit: config.rateLimitPerSecond, windowMs: 1000 } },
    { provide: APP_GUARD, useClass: KeyThrottlerGuard },
  ];
}
