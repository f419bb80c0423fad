import { ApolloDriverConfig } from '@nestjs/apollo';
import type { GqlSubscriptionServiceOptions } from '@nestjs/graphql';
import { AccessService, AppError, Principal } from '@app/fights';
import { typedContract } from './typed-contract';
import { oneOperationPerId, operationEnded, wsLimits } from './ws-limits';
import { authenticateConnection, refuseConnection } from './ws-connect';
import type { GraphQLSchema } from 'graphql';
import { storableStrings } from './storable-strings.rule';
import { jsonLiterals } from './json-literals.rule';
import { httpSubscriptionsPlugin } from './http-subscriptions';
import { LIVE_LINK, LiveSubscriptions, WsExtra } from './live-subscriptions';
import { LiveConnections, LiveSocket } from '../ops/live-connections';
import { queryLimits } from './query-limits';
import { formatGraphqlError, statusFromErrorsPlugin } from './graphql-errors';
import { accessLogPlugin } from './access-log.plugin';
import { refuseUncheckedJson, refuseUnknownParameters } from './envelope';
import { keepMessages, subscribeVariablesText, tyingMessages, VARIABLES_TEXT } from './variables-text';

/** Where GraphQL is served, over HTTP and as a graphql-ws WebSocket: the one path that takes an upgrade. */
export const GRAPHQL_PATH = '/graphql';

/** What graphql-ws's server (as Nest runs it) puts in a connection's `extra`; the principal is ours, set on connect. */
type ConnectionExtra = WsExtra & { socket: LiveSocket; principal?: Principal };
/** What `context` is called with: graphql-ws's context for a WebSocket operation, Fastify's request (then its reply) over HTTP. */
type ContextSource = { extra: ConnectionExtra; connectionParams?: unknown } | object;

export function graphqlOptions(
  access: AccessService,
  connections = new LiveConnections(),
): ApolloDriverConfig {
  const live = new LiveSubscriptions();
  // The schema as served (after transformSchema), for the WebSocket's own checks.
  let schema: GraphQLSchema | undefined;
  // Hostile documents: tokens, depth, fields in all (introspection with its own bound), input nesting.
  const limits = queryLimits();
  // Typed as what Nest hands graphql-ws: ApolloDriverConfig's `subscriptions` does not list `subscribe`.
  const subscriptions: Omit<GqlSubscriptionServiceOptions, 'schema'> = {
    'graphql-ws': {
      path: GRAPHQL_PATH,
      // Authenticated once on connect (connectionParams.authorization), re-checked per operation by the guard.
      onConnect: async (ctx: { connectionParams?: Readonly<Record<string, unknown>>; extra: unknown }) => {
        const extra = ctx.extra as ConnectionExtra;
        // A fight log's numbers are read off the message it came in (verifyFightLog): kept from the first.
        keepMessages(extra.socket);
        try {
          extra.principal = await authenticateConnection(access, ctx.connectionParams);
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          // Closed first with the reason: graphql-ws's own close for `false` would say only "Forbidden".
          refuseConnection(extra.socket, e);
          return false;
        }
        // Closed with 1001 Going Away at shutdown (graphql-ws clients reconnect on it).
        connections.trackWs(extra.socket);
        return true;
      },
      // Documents over the WebSocket get the limits of POST /graphql.
      onSubscribe: oneOperationPerId(tyingMessages(wsLimits(() => schema))),
      // An operation's id is taken until it ends (oneOperationPerId). Nest hands graphql-ws every option it
      // is given, though its type names fewer.
      ...{
        onComplete: (ctx: { extra?: unknown }, id: string) => operationEnded(ctx, id),
        onError: (ctx: { extra?: unknown }, id: string) => void operationEnded(ctx, id),
      },
    },
    subscribe: live.subscribe,
  };
  return {
    autoSchemaFile: true,
    // The contract, typed: one command mutation per system (a @oneOf input) and FightEvent.detail.
    transformSchema: (built) => (schema = typedContract(built)),
    sortSchema: true,
    introspection: true,
    playground: false,
    includeStacktraceInErrorResponses: false,
    parseOptions: limits.parseOptions,
    validationRules: [limits.rule, storableStrings, jsonLiterals],
    plugins: [limits.plugin, httpSubscriptionsPlugin(), statusFromErrorsPlugin(), accessLogPlugin()],
    subscriptions,
    // graphql-ws calls it with (its context, the operation id, …); Apollo on Fastify with (request, reply).
    context: (arg: ContextSource, second?: unknown, payload?: unknown) => {
      if ('extra' in arg)
        return {
          principal: arg.extra.principal,
          connectionParams: arg.connectionParams,
          [LIVE_LINK]: live.link(arg.extra, second as string),
          [VARIABLES_TEXT]: subscribeVariablesText(payload),
        };
      // Before Apollo reads the request: GET's JSON parameters get a POST body's checks, in the same
      // order (the body's before its members), and a parameter GraphQL over HTTP does not define is refused.
      refuseUncheckedJson(arg);
      refuseUnknownParameters(arg);
      return { req: arg, res: second };
    },
    formatError: formatGraphqlError,
  };
}
