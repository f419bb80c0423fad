import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { checkDocument, checkVariables, QUERY_LIMITS, TOKEN_LIMIT_MESSAGE } from './query-limits';
import { storableStrings, unstorableVariable } from './storable-strings.rule';

/**
 * graphql-ws runs its own parse and validation, so documents sent over the WebSocket get the same
 * limits as POST /graphql here, before anything runs: the token bound while parsing, then depth, size
 * and input nesting in one linear pass, then the string rule, in the document and in its variables (POST
 * /graphql checks those with the request body). An over-limit subscription ends with an
 * `error` message carrying the one error shape in `extensions`.
 */
export function wsLimits(schemaOf: () => GraphQLSchema | undefined) {
  return (_ctx: unknown, _id: string, payload: SubscribePayload): readonly GraphQLError[] | void => {
    const schema = schemaOf();
    if (!schema) return;
    let document: DocumentNode;
    try {
      document = parse(payload.query, { maxTokens: QUERY_LIMITS.maxTokens });
    } catch (e) {
      // Any other syntax error is graphql-ws's own to report, as it always has.
      if (!TOKEN_LIMIT_MESSAGE.test((e as Error).message)) return;
      const message = `the query has more than ${QUERY_LIMITS.maxTokens} tokens; send large inputs as variables`;
      return [
        new GraphQLError(message, { extensions: { code: 'QUERY_TOO_LARGE', statusCode: 400, message } }),
      ];
    }
    const refused = checkDocument(document, schema) ?? checkVariables(payload.variables ?? undefined);
    if (refused) return [refused];
    const strings = validate(schema, document, [storableStrings]);
    if (strings.length > 0) return strings;
    const variable = unstorableVariable(payload.variables);
    if (variable) return [variable];
  };
}
