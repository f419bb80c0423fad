import type { ApolloDriverConfig } from '@nestjs/apollo';
import { GraphQLError, OperationTypeNode } from 'graphql';

/** An Apollo plugin as the Nest driver takes it. */
type Plugin = NonNullable<ApolloDriverConfig['plugins']>[number];

export const SUBSCRIPTION_OVER_HTTP =
  'a subscription runs over the WebSocket at /graphql (graphql-ws), not over HTTP';

/**
 * A subscription sent to POST /graphql is refused before it runs, 400 GRAPHQL_VALIDATION_FAILED, as
 * any other document HTTP cannot serve. Apollo would otherwise execute it as a query: its resolver
 * returns nothing there, and the client got a 500 for a non-null field left null. The operation that
 * would run is judged (operationName picks it), so a document that also holds a subscription still
 * serves its query. Over the WebSocket, graphql-ws never asks this plugin.
 */
export function httpSubscriptionsPlugin(): Plugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) return;
          throw new GraphQLError(SUBSCRIPTION_OVER_HTTP, {
            nodes: [operation],
            extensions: {
              code: 'GRAPHQL_VALIDATION_FAILED',
              statusCode: 400,
              message: SUBSCRIPTION_OVER_HTTP,
              http: { status: 400 },
            },
          });
        },
      };
    },
  };
}
