import { GraphQLError, type ValidationRule } from 'graphql';
import { UNSTORABLE } from '../common/body-checks';

/**
 * A string literal in the document (`"a\u0000b"` is a NUL once graphql-js has read its escape) is refused
 * as REST refuses it in a body: 400 INVALID_STRING, on every engine alike. Variables are checked with
 * the request body, before GraphQL sees them.
 */
export const storableStrings: ValidationRule = (context) => ({
  StringValue(node) {
    if (!UNSTORABLE.test(node.value)) return;
    const message =
      'a string in the query holds U+0000 or an unpaired UTF-16 surrogate, which cannot be stored';
    context.reportError(
      new GraphQLError(message, {
        nodes: [node],
        extensions: { code: 'INVALID_STRING', statusCode: 400, message, http: { status: 400 } },
      }),
    );
  },
});
