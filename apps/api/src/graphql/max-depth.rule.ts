import { ASTVisitor, FragmentDefinitionNode, GraphQLError, Kind, SelectionSetNode, ValidationContext } from 'graphql';

/**
 * Refuses documents whose selections nest deeper than `max`, introspection included:
 * graphql-depth-limit skips `__schema`/`__type` subtrees, which nest without end.
 */
export function maxDepthRule(max: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of context.getDocument().definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const depthOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!set) return 0;
      let deepest = 0;
      for (const s of set.selections) {
        if (s.kind === Kind.FIELD) deepest = Math.max(deepest, s.selectionSet ? 1 + depthOf(s.selectionSet, seen) : 1);
        else if (s.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(s.selectionSet, seen));
        else if (!seen.has(s.name.value)) deepest = Math.max(deepest, depthOf(fragments.get(s.name.value)?.selectionSet, new Set([...seen, s.name.value])));
        if (deepest > max) return deepest;
      }
      return deepest;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > max) context.reportError(new GraphQLError(`query depth ${depth > max ? `over ${max}` : depth} is not allowed (the limit is ${max})`, { nodes: [node], extensions: { code: 'QUERY_TOO_DEEP', statusCode: 400 } }));
      },
    };
  };
}
