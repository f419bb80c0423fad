import { ApolloDriverConfig } from '@nestjs/apollo';
import { complexityPlugin } from './complexity.plugin';
import { AccessService } from '@app/fights';
import { bearerFrom } from '../auth/bearer';
import { maxDepthRule } from './max-depth.rule';

/** Hostile input: no query nested deeper than this, introspection included (issue "Access control"). */
export const MAX_QUERY_DEPTH = 10;
/** …and no query selecting more than this many fields in all. */
export const MAX_QUERY_COMPLEXITY = 500;

export function graphqlOptions(access: AccessService): ApolloDriverConfig {
  return {
    autoSchemaFile: true,
    sortSchema: true,
    introspection: true,
    playground: false,
    includeStacktraceInErrorResponses: false,
    validationRules: [maxDepthRule(MAX_QUERY_DEPTH)],
    plugins: [complexityPlugin(MAX_QUERY_COMPLEXITY)],
    subscriptions: {
      'graphql-ws': {
        path: '/graphql',
        // Authenticated once on connect (connectionParams.authorization), re-checked per operation by the guard.
        onConnect: (ctx: any) => {
          const params = (ctx.connectionParams ?? {}) as Record<string, unknown>;
          const secret = bearerFrom({ method: 'GET', headers: { authorization: params.authorization ?? params.Authorization } });
          const principal = secret ? access.registry.authenticate(secret) : undefined;
          if (!principal) return false;
          ctx.extra.principal = principal;
          return true;
        },
      },
    },
    context: (arg: any) => ('extra' in arg ? { principal: arg.extra.principal, connectionParams: arg.connectionParams } : { req: arg.req, res: arg.res }),
    formatError: (formatted) => {
      const { stacktrace: _s, originalError: _o, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
      if (!('statusCode' in extensions)) Object.assign(extensions, { statusCode: 400, code: extensions.code ?? 'GRAPHQL_INVALID' });
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions };
    },
  };
}
