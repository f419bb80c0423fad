import { Kind, type GraphQLResolveInfo, type ValueNode } from 'graphql';
import { firstTextProblem, numberLiteralProblem } from '@app/audit';
import type { FormatErrorMessage } from '../common/log-verifier';
import type { VariablesText } from './variables-text';

interface Hidden {
  field: string;
  why: string;
}

const join = (field: string, key: string | number) =>
  typeof key === 'number' ? `${field}[${key}]` : field ? `${field}.${key}` : key;

/**
 * The first number in the argument `argument` of the field being resolved that the request wrote otherwise
 * than the service writes it (`2.0000000000000001`, `4e0`, `-0`: numberLiteralProblem), as POST
 * /audit/verify refuses it (422 LOG_FORMAT_INVALID, `field` its path from the argument); undefined when
 * none. A literal's numbers are read off the document, a variable's off the request's text.
 */
export function hiddenNumberIn(
  info: GraphQLResolveInfo,
  argument: string,
  variables: VariablesText | undefined,
): FormatErrorMessage | undefined {
  const node = info.fieldNodes[0].arguments?.find((a) => a.name.value === argument)?.value;
  const found = node && hiddenIn(node, '', info, variables);
  if (!found) return undefined;
  const message = `${found.field} ${found.why}`;
  return { message, field: found.field, issues: [{ field: found.field, message }] };
}

function hiddenIn(
  node: ValueNode,
  field: string,
  info: GraphQLResolveInfo,
  variables: VariablesText | undefined,
): Hidden | undefined {
  if (node.kind === Kind.INT || node.kind === Kind.FLOAT) {
    const why = numberLiteralProblem(node.value);
    return why === undefined ? undefined : { field, why };
  }
  if (node.kind === Kind.VARIABLE) return hiddenInVariable(node.name.value, field, info, variables);
  const members: Array<[ValueNode, string]> =
    node.kind === Kind.LIST
      ? node.values.map((v, i) => [v, join(field, i)])
      : node.kind === Kind.OBJECT
        ? node.fields.map((f) => [f.value, join(field, f.name.value)])
        : [];
  for (const [value, place] of members) {
    const found = hiddenIn(value, place, info, variables);
    if (found) return found;
  }
  return undefined;
}

function hiddenInVariable(
  name: string,
  field: string,
  info: GraphQLResolveInfo,
  variables: VariablesText | undefined,
): Hidden | undefined {
  if (!variables) return undefined;
  const sent = variables.variables;
  if (typeof sent !== 'object' || sent === null || !Object.hasOwn(sent, name)) {
    const definition = info.operation.variableDefinitions?.find((d) => d.variable.name.value === name);
    return definition?.defaultValue && hiddenIn(definition.defaultValue, field, info, variables);
  }
  const problem = firstTextProblem(variables.text(), { numbers: true, within: [...variables.at, name] });
  if (!problem) return undefined;
  // A problem's message is its path (`(root)` when empty), then why.
  const why = problem.message.slice((problem.path || '(root)').length + 1);
  const path = problem.path;
  return {
    field: !field ? path : !path ? field : path.startsWith('[') ? field + path : `${field}.${path}`,
    why,
  };
}
