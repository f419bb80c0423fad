import type { ApolloDriverConfig } from '@nestjs/apollo';
import { noteGraphql } from '../ops/logging';

type Plugin = NonNullable<ApolloDriverConfig['plugins']>[number];

/**
 * Every GraphQL request is `POST /graphql 200` on the status line: the access log's line gets the
 * operation's name and the codes of the answer's errors (its level and `err` follow the worst of them).
 */
export function accessLogPlugin(): Plugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue, operationName }) {
          const res = (contextValue as { res?: object }).res;
          if (!res || response.body.kind !== 'single') return;
          noteGraphql(res, operationName, response.body.singleResult.errors ?? []);
        },
      };
    },
  };
}
