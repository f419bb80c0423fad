import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
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
        FightsModule,
        GraphQLModule.forRoot<ApolloDriverConfig>({
          driver: ApolloDriver,
          autoSchemaFile: true,
          subscriptions: { 'graphql-ws': { path: '/graphql' } },
          sortSchema: true,
          introspection: true,
          playground: false,
          includeStacktraceInErrorResponses: false,
          formatError: (formatted) => {
            const { stacktrace: _s, originalError: _o, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
            if (!('statusCode' in extensions)) Object.assign(extensions, { statusCode: 400, code: extensions.code ?? 'GRAPHQL_INVALID' });
            return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions };
          },
        }),
      ],
      controllers: [FightsController, StreamController, SystemsController, ProjectionsController, AuditController],
      providers: [FightsResolver, SystemsResolver, LiveResolver, { provide: APP_PIPE, useValue: validationPipe }, { provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
