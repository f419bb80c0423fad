import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AuthGuard } from './auth/auth.guard';
import { OpsModule } from './ops/ops.module';
import { LabModule } from './lab/lab.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { OverlayModule } from './overlay/overlay.module';
import { LoggerModule } from 'nestjs-pino';
import { loggingOptions } from './ops/logging';
import { KeyThrottlerGuard } from './auth/key-throttler.guard';
import { ThrottlerModule } from '@nestjs/throttler';
import { AccessService } from '@app/fights';
import { graphqlOptions } from './graphql/graphql-options';
import { AdminController } from './auth/admin.controller';
import { TokensController } from './auth/tokens.controller';
import { GraphQLModule } from '@nestjs/graphql';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { validationPipe } from './common/validation';
import { ApiConfig } from './config';
import { API_CONFIG, FightsModule } from './fights.module';
import { FightsResolver } from './graphql/fights.resolver';
import { SystemsResolver } from './graphql/systems.resolver';
import { LiveResolver } from './graphql/live.resolver';
import { StreamController } from './rest/stream.controller';
import { ProjectionsController } from './rest/projections.controller';
import { AuditController } from './rest/audit.controller';
import { FightsController } from './rest/fights.controller';
import { SystemsController } from './rest/systems.controller';

@Module({})
export class AppModule {
  static forRoot(config: ApiConfig): DynamicModule {
    const configModule: DynamicModule = { module: class ConfigHolder {}, global: true, providers: [{ provide: API_CONFIG, useValue: config }], exports: [API_CONFIG] };
    return {
      module: AppModule,
      imports: [
        configModule,
        LoggerModule.forRoot(loggingOptions(config.logLevel ?? 'info')),
        FightsModule,
        OpsModule,
        LabModule,
        WebhooksModule,
        OverlayModule,
        ThrottlerModule.forRoot({ throttlers: [{ name: 'per-second', ttl: 1000, limit: config.rateLimitPerSecond || Number.MAX_SAFE_INTEGER }] }),
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          imports: [FightsModule],
          inject: [AccessService],
          useFactory: graphqlOptions,
        }),
      ],
      controllers: [FightsController, StreamController, SystemsController, ProjectionsController, AuditController, AdminController, TokensController],
      providers: [FightsResolver, SystemsResolver, LiveResolver, { provide: APP_PIPE, useValue: validationPipe }, { provide: APP_FILTER, useClass: AllExceptionsFilter }, { provide: APP_GUARD, useClass: KeyThrottlerGuard }, { provide: APP_GUARD, useClass: AuthGuard }],
    };
  }
}
