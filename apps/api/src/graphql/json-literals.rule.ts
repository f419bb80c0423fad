import {
  getNullableType,
  GraphQLError,
  isScalarType,
  Kind,
  type ASTVisitFn,
  type EnumValueNode,
  type ListValueNode,
  type ObjectValueNode,
  type ValidationRule,
  type ValueNode,
} from 'graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { literalField } from './storable-strings.rule';

/** The scalars whose literals graphql-scalars reads as JSON, an enum value inside one as undefined. */
const JSON_SCALARS: ReadonlySet<string> = new Set([GraphQLJSON.name, GraphQLJSONObject.name]);

/** The first enum value inside a JSON literal, and where it is in it (`.combatantId`, `.playerSides[1]`). */
function enumIn(node: ValueNode, at = ''): { node: EnumValueNode; at: string } | undefined {
  if (node.kind === Kind.ENUM) return { node, at };
  const members: Array<[ValueNode, string]> =
    node.kind === Kind.LIST
      ? node.values.map((v, i) => [v, `${at}[${i}]`])
      : node.kind === Kind.OBJECT
        ? node.fields.map((f) => [f.value, `${at}.${f.name.value}`])
        : [];
  for (const [value, place] of members) {
    const found = enumIn(value, place);
    if (found) return found;
  }
  return undefined;
}

/**
 * JSON has no enum values, and graphql-scalars' JSON and JSONObject read one written inside their literal
 * as undefined: `payload: { text: "x", combatantId: FOO }` was a note about no one, `options: { playerSides:
 * FOO }` no options at all. It is refused as graphql-js refuses a literal its type cannot read (400
 * GRAPHQL_VALIDATION_FAILED), `field` naming the member as a variable's place is named
 * (`input.payload.combatantId`; literalField). A JSON value that is itself an enum value graphql-js refuses.
 * A rule, not a wrapper scalar: parseLiteral sees its own literal only, never the argument it is in.
 */
export const jsonLiterals: ValidationRule = (context) => {
  const check: ASTVisitFn<ObjectValueNode | ListValueNode> = (node, _key, parent, path, ancestors) => {
    const type = getNullableType(context.getInputType());
    if (!isScalarType(type) || !JSON_SCALARS.has(type.name)) return undefined;
    const found = enumIn(node);
    if (found) {
      const at = literalField(path, parent === undefined ? ancestors : [...ancestors, parent]);
      const field = at === undefined ? undefined : `${at}${found.at}`;
      const message = `${field ?? 'a JSON value'} is the enum value ${found.node.value}, which JSON cannot hold; a string is written "${found.node.value}"`;
      context.reportError(
        new GraphQLError(message, {
          nodes: [found.node],
          extensions: {
            code: 'GRAPHQL_VALIDATION_FAILED',
            statusCode: 400,
            message,
            ...(field !== undefined ? { field } : {}),
            http: { status: 400 },
          },
        }),
      );
    }
    // What is inside a JSON literal has no GraphQL type to check it against.
    return false;
  };
  return { ObjectValue: check, ListValue: check };
};
