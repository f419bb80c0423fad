import { ApolloDriverConfig } from '@nestjs/apollo';
import type { GqlSubscriptionServiceOptions } from '@nestjs/graphql';
import { complexityPlugin } from './complexity.plugin';
import { AccessService } from '@app/fights';
import { bearerFrom } from '../auth/bearer';
import { maxDepthRule } from './max-depth.rule';
import { LIVE_LINK, LiveSubscriptions, WsExtra } from './live-subscriptions';

/** Hostile input: no query nested deeper than this, introspection included (issue "Access control"). */
export const MAX_QUERY_DEPTH = 10;
/** …and no query selecting more than this many fields in all. */
export const MAX_QUERY_COMPLEXITY = 500;

export function graphqlOptions(access: AccessService): ApolloDriverConfig {
  const live = new LiveSubscriptions();
  // Typed as what Nest hands graphql-ws: ApolloDriverConfig's `subscriptions` does not list `subscribe`.
  const subscriptions: Omit<GqlSubscriptionServiceOptions, 'schema'> = {
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
    subscribe: live.subscribe,
  };
  return {
    autoSchemaFile: true,
    sortSchema: true,
    introspection: true,
    playground: false,
    includeStacktraceInErrorResponses: false,
    validationRules: [maxDepthRule(MAX_QUERY_DEPTH)],
    plugins: [complexityPlugin(MAX_QUERY_COMPLEXITY)],
    subscriptions,
    // graphql-ws calls it with (its context, the operation id, …); Apollo with ({ req, res }).
    context: (arg: any, id?: string) =>
      'extra' in arg ? { principal: arg.extra.principal, connectionParams: arg.connectionParams, [LIVE_LINK]: live.link(arg.extra as WsExtra, id!) } : { req: arg.req, res: arg.res },
    formatError: (formatted) => {
      const { stacktrace: _s, originalError: _o, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
      if (!('statusCode' in extensions)) Object.assign(extensions, { statusCode: 400, code: extensions.code ?? 'GRAPHQL_INVALID' });
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions };
    },
  };
}
