import {
  GraphQLError,
  Kind,
  type ArgumentNode,
  type ASTNode,
  type ObjectFieldNode,
  type ValidationRule,
} from 'graphql';
import { AppError } from '@app/fights';
import { assertStorable, UNSTORABLE } from '../common/body-checks';

/**
 * A string literal in the document (`"a\u0000b"` is a NUL once graphql-js has read its escape) is refused
 * as REST refuses it in a body: 400 INVALID_STRING, on every engine alike, `field` naming the argument it
 * is in (literalField) where it is in one. Variables are checked with the request body, before GraphQL
 * sees them.
 */
export const storableStrings: ValidationRule = (context) => ({
  StringValue(node, _key, parent, path, ancestors) {
    if (!UNSTORABLE.test(node.value)) return;
    const message =
      'a string in the query holds U+0000 or an unpaired UTF-16 surrogate, which cannot be stored';
    const field = literalField(path, parent === undefined ? ancestors : [...ancestors, parent]);
    context.reportError(
      new GraphQLError(message, {
        nodes: [node],
        extensions: {
          code: 'INVALID_STRING',
          statusCode: 400,
          message,
          ...(field !== undefined ? { field } : {}),
          http: { status: 400 },
        },
      }),
    );
  },
});

/**
 * Where a literal is, as a variable's place is named (`id`, `input.text`, `input.combatantIds[1]`): the
 * argument it is in, then the input fields and list items down to it. None outside an argument (a
 * variable's default value). `path[i]` is the key taken in `containers[i]`, the literal's parent last.
 */
export function literalField(
  path: ReadonlyArray<string | number>,
  containers: ReadonlyArray<ASTNode | ReadonlyArray<ASTNode>>,
): string | undefined {
  let field: string | undefined;
  containers.forEach((node, i) => {
    if (Array.isArray(node)) {
      const list = containers[i - 1] as ASTNode | undefined;
      if (field !== undefined && list?.kind === Kind.LIST) field += `[${path[i]}]`;
    } else if ((node as ASTNode).kind === Kind.ARGUMENT) field = (node as ArgumentNode).name.value;
    else if ((node as ASTNode).kind === Kind.OBJECT_FIELD && field !== undefined)
      field += `.${(node as ObjectFieldNode).name.value}`;
  });
  return field;
}

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
