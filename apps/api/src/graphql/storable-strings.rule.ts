import { GraphQLError, type ValidationRule } from 'graphql';
import { AppError } from '@app/fights';
import { assertStorable, UNSTORABLE } from '../common/body-checks';

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

/**
 * A string no engine can store in a subscription's variables (graphql-ws sends no request body to
 * check), as INVALID_STRING naming the variable's path (`id`, `input.text`), as BAD_USER_INPUT names one.
 */
export function unstorableVariable(
  variables: Record<string, unknown> | null | undefined,
): GraphQLError | undefined {
  try {
    assertStorable(variables ?? undefined, '');
    return undefined;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return new GraphQLError(e.message, {
      extensions: { code: 'INVALID_STRING', statusCode: 400, message: e.message, field: e.field },
    });
  }
}
