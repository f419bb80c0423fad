import { ApolloDriverConfig } from '@nestjs/apollo';
import { GraphQLError } from 'graphql';
import { getComplexity, simpleEstimator } from 'graphql-query-complexity';

/**
 * Refuses operations that select too many fields in all (aliases multiply them).
 * A plugin, not a validation rule, because the rule cannot see the request's variables.
 */
type Plugin = NonNullable<ApolloDriverConfig['plugins']>[number];

export function complexityPlugin(maximum: number): Plugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema }: { request: { operationName?: string | null; variables?: Record<string, unknown> }; document: import('graphql').DocumentNode; schema: import('graphql').GraphQLSchema }) {
          const complexity = getComplexity({ schema, query: document, operationName: request.operationName ?? undefined, variables: request.variables ?? {}, estimators: [simpleEstimator({ defaultComplexity: 1 })] });
          if (complexity > maximum) {
            throw new GraphQLError(`query complexity ${complexity} is over the limit of ${maximum}`, { extensions: { code: 'QUERY_TOO_COMPLEX', statusCode: 400, http: { status: 400 } } });
          }
        },
      };
    },
  };
}
