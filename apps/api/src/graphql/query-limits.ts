import type { ApolloDriverConfig } from '@nestjs/apollo';
import {
  DocumentNode,
  getNamedType,
  getNullableType,
  GraphQLError,
  GraphQLNamedType,
  GraphQLSchema,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  OperationDefinitionNode,
  parse,
  SchemaMetaFieldDef,
  SelectionSetNode,
  TypeMetaFieldDef,
  ValidationRule,
  visit,
} from 'graphql';

/** An Apollo plugin as the Nest driver takes it (@apollo/server's own type comes in a CommonJS and an ESM copy). */
type Plugin = NonNullable<ApolloDriverConfig['plugins']>[number];

/**
 * Limits on one GraphQL document, all checked before graphql-js validates it: a document within
 * them is small enough that every validation rule is cheap, one over them costs its parse and one
 * pass over its syntax tree.
 */
export interface QueryLimits {
  /** Tokens in the document (graphql-js stops parsing there): bounds every later pass. */
  maxTokens: number;
  /** Nesting of selections, fragments expanded. */
  maxDepth: number;
  /** Fields selected in all, counted each time a fragment or alias repeats them. */
  maxCost: number;
  /**
   * Whole fight logs and event pages read (LOG_READS: up to a whole log, or 10,000 events, each), counted as
   * `maxCost` counts: one field aliased 200 times built one answer of 200 logs, past what a string can hold.
   */
  maxLogReads: number;
  /** Introspection documents (only `__schema`, `__type`, `__typename` at the root): their own depth… */
  maxIntrospectionDepth: number;
  /** …and weight: fields counted with each list field multiplying what it selects by `LIST_WEIGHT`. */
  maxIntrospectionWeight: number;
  /** Nesting of input values, in the document and in the variables. */
  maxInputDepth: number;
}

/** The size a list is assumed to have when weighing an introspection document. */
export const LIST_WEIGHT = 10;

export const QUERY_LIMITS: QueryLimits = {
  maxTokens: 2000,
  maxDepth: 10,
  maxCost: 500,
  maxLogReads: 1,
  // graphql-js getIntrospectionQuery(), the query codegen, GraphiQL and Apollo Sandbox send, nests 15
  // deep and weighs 50,980 (53,411 with every option): room for a deeper type reference, and twice it.
  maxIntrospectionDepth: 20,
  maxIntrospectionWeight: 110_000,
  maxInputDepth: 64,
};

export interface Measure {
  depth: number;
  cost: number;
  weight: number;
  /** Selections of the root fields in LOG_READS. */
  logReads: number;
  /** Every root selection is `__schema`, `__type` or `__typename`. */
  introspection: boolean;
}

/** How often each fragment's selections were walked: once per document, however often it is spread. */
export type FragmentVisits = Map<string, number>;

const INTROSPECTION_ROOTS = new Set(['__schema', '__type', '__typename']);

/** The Query fields whose answer is a whole fight log or a page of up to 10,000 of its events. */
export const LOG_READS: ReadonlySet<string> = new Set(['fightExport', 'events', 'eventsPage']);

type Fragment = { selectionSet: SelectionSetNode; type: GraphQLNamedType | undefined };

/** The document's fragments by name, each with its selections and the type it applies to. */
function fragmentsOf(document: DocumentNode, schema: GraphQLSchema): Map<string, Fragment> {
  const fragments = new Map<string, Fragment>();
  for (const d of document.definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION)
      fragments.set(d.name.value, {
        selectionSet: d.selectionSet,
        type: schema.getType(d.typeCondition.name.value),
      });
  return fragments;
}

/** The type of a parent's field (`__schema` and `__type` anywhere); undefined when the schema has no such field. */
function fieldType(parent: GraphQLNamedType | undefined, name: string) {
  if (name === '__schema') return SchemaMetaFieldDef.type;
  if (name === '__type') return TypeMetaFieldDef.type;
  return parent && (isObjectType(parent) || isInterfaceType(parent))
    ? parent.getFields()[name]?.type
    : undefined;
}

/**
 * Depth, cost and weight of each operation, in time linear in the document: a fragment is measured
 * once and its numbers reused wherever it is spread (a fragment spreading the next twice, 30 deep,
 * is 2^30 fields, found in 30 steps). Numbers that overflow become Infinity, which is over any limit.
 * A fragment met again inside itself (a cycle, which validation refuses anyway) counts as empty.
 */
export function measureOperations(
  document: DocumentNode,
  schema: GraphQLSchema,
  visits?: FragmentVisits,
): Map<OperationDefinitionNode, Measure> {
  const fragments = fragmentsOf(document, schema);
  const measured = new Map<string, Measure>();
  const inProgress = new Set<string>();
  const EMPTY: Measure = { depth: 0, cost: 0, weight: 0, logReads: 0, introspection: true };
  const query = schema.getQueryType() ?? undefined;

  const fragment = (name: string): Measure => {
    const done = measured.get(name);
    if (done) return done;
    const definition = fragments.get(name);
    if (!definition || inProgress.has(name)) return EMPTY;
    inProgress.add(name);
    visits?.set(name, (visits.get(name) ?? 0) + 1);
    const m = selections(definition.selectionSet, definition.type);
    inProgress.delete(name);
    measured.set(name, m);
    return m;
  };

  const selections = (set: SelectionSetNode, parent: GraphQLNamedType | undefined): Measure => {
    const total: Measure = { depth: 0, cost: 0, weight: 0, logReads: 0, introspection: true };
    for (const s of set.selections) {
      let m: Measure;
      if (s.kind === Kind.FIELD) {
        const type = fieldType(parent, s.name.value);
        const below = s.selectionSet ? selections(s.selectionSet, type && getNamedType(type)) : EMPTY;
        const many = type !== undefined && isListType(getNullableType(type)) ? LIST_WEIGHT : 1;
        m = {
          depth: 1 + below.depth,
          cost: 1 + below.cost,
          weight: many * (1 + below.weight),
          logReads: below.logReads + (parent === query && LOG_READS.has(s.name.value) ? 1 : 0),
          introspection: INTROSPECTION_ROOTS.has(s.name.value),
        };
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        m = selections(s.selectionSet, s.typeCondition ? schema.getType(s.typeCondition.name.value) : parent);
      } else {
        m = fragment(s.name.value);
      }
      total.depth = Math.max(total.depth, m.depth);
      total.cost += m.cost;
      total.weight += m.weight;
      total.logReads += m.logReads;
      total.introspection &&= m.introspection;
    }
    return total;
  };

  const result = new Map<OperationDefinitionNode, Measure>();
  for (const d of document.definitions)
    if (d.kind === Kind.OPERATION_DEFINITION)
      result.set(d, selections(d.selectionSet, schema.getRootType(d.operation) ?? undefined));
  return result;
}

/** The deepest nesting of object and list values written in the document (arguments, defaults). */
export function literalDepth(document: DocumentNode): number {
  let depth = 0;
  let deepest = 0;
  const enter = () => void (deepest = Math.max(deepest, ++depth));
  const leave = () => void depth--;
  visit(document, { ObjectValue: { enter, leave }, ListValue: { enter, leave } });
  return deepest;
}

/** How deep a JSON value nests (a scalar is 0), without recursion; stops counting past `limit`. */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d + 1 > deepest) deepest = d + 1;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
  }
  return deepest;
}

function refusal(
  code: string,
  message: string,
  node?: OperationDefinitionNode,
  field?: string,
): GraphQLError {
  return new GraphQLError(message, {
    nodes: node ? [node] : undefined,
    extensions: { code, statusCode: 400, message, ...(field ? { field } : {}), http: { status: 400 } },
  });
}

const count = (n: number, max: number) => (Number.isFinite(n) && n < 1e12 ? String(n) : `more than ${max}`);

/** The first limit the document breaks, or undefined. */
export function checkDocument(
  document: DocumentNode,
  schema: GraphQLSchema,
  limits: QueryLimits = QUERY_LIMITS,
): GraphQLError | undefined {
  for (const [operation, m] of measureOperations(document, schema)) {
    const kind = m.introspection ? 'introspection query' : 'query';
    const maxDepth = m.introspection ? limits.maxIntrospectionDepth : limits.maxDepth;
    if (m.depth > maxDepth)
      return refusal(
        'QUERY_TOO_DEEP',
        `the ${kind} nests ${m.depth} levels deep; the limit is ${maxDepth}`,
        operation,
      );
    if (m.introspection && m.weight > limits.maxIntrospectionWeight) {
      return refusal(
        'QUERY_TOO_COMPLEX',
        `the introspection query weighs ${count(m.weight, limits.maxIntrospectionWeight)} (each field 1, each list field ${LIST_WEIGHT} times what it selects); the limit is ${limits.maxIntrospectionWeight}`,
        operation,
      );
    }
    if (!m.introspection && m.cost > limits.maxCost) {
      return refusal(
        'QUERY_TOO_COMPLEX',
        `the query selects ${count(m.cost, limits.maxCost)} fields (each alias and each use of a fragment counted); the limit is ${limits.maxCost}`,
        operation,
      );
    }
    if (m.logReads > limits.maxLogReads) {
      return refusal(
        'QUERY_TOO_COMPLEX',
        `the query reads ${count(m.logReads, limits.maxLogReads)} fight logs or event pages (${[...LOG_READS].join(', ')}; each alias and each use of a fragment counted); the limit is ${limits.maxLogReads}: send one operation for each`,
        operation,
      );
    }
  }
  const literal = literalDepth(document);
  if (literal > limits.maxInputDepth)
    return refusal(
      'INPUT_TOO_DEEP',
      `an input value in the query nests ${literal} levels deep; the limit is ${limits.maxInputDepth}`,
    );
  return undefined;
}

/** The first variable nested deeper than the limit, as a refusal naming it. */
export function checkVariables(
  variables: Record<string, unknown> | undefined,
  limits: QueryLimits = QUERY_LIMITS,
): GraphQLError | undefined {
  for (const [name, value] of Object.entries(variables ?? {})) {
    if (jsonDepth(value, limits.maxInputDepth) > limits.maxInputDepth)
      return refusal(
        'INPUT_TOO_DEEP',
        `variable $${name} nests deeper than ${limits.maxInputDepth} levels`,
        undefined,
        name,
      );
  }
  return undefined;
}

/**
 * The first variable sent that the operation does not declare, as a refusal naming it. graphql-js reads
 * the declared ones and drops the rest, so `$limit` sent to an operation that forgot `($limit: Int)`
 * was silently ignored (the field used its default).
 */
export function undeclaredVariable(
  operation: OperationDefinitionNode | undefined,
  variables: Record<string, unknown> | null | undefined,
): GraphQLError | undefined {
  if (!operation) return undefined;
  const declared = new Set((operation.variableDefinitions ?? []).map((d) => d.variable.name.value));
  const name = Object.keys(variables ?? {}).find((n) => !declared.has(n));
  if (name === undefined) return undefined;
  return refusal(
    'BAD_USER_INPUT',
    `variable $${name} is not declared by the operation${operation.name ? ` ${operation.name.value}` : ''}`,
    operation,
    name,
  );
}

/** graphql-js's own message when `maxTokens` stops the parser (16.x spells it "more that"). */
export const TOKEN_LIMIT_MESSAGE =
  /^Syntax Error: Document contains more th(?:an|at) \d+ tokens\. Parsing aborted\.$/;

/**
 * What Apollo needs to apply the limits: `parseOptions` (the token limit, inside Apollo's parse, so
 * it is a 400 like any syntax error), a plugin and a validation rule.
 *
 * Apollo validates with graphql-js's rules and ours in one pass over the document, and a plugin hook
 * that throws is a 500. So the plugin measures the document when validation starts and, if it breaks
 * a limit, hands validation a one-field stand-in instead, on which our rule reports the refusal: the
 * answer is Apollo's usual validation failure (400, no `data`) and the expensive rules never see the
 * document (OverlappingFieldsCanBeMerged alone is quadratic in the fields that share a name).
 * Variables are checked once the operation is resolved, before anything coerces them.
 */
export function queryLimits(limits: QueryLimits = QUERY_LIMITS): {
  parseOptions: { maxTokens: number };
  plugin: Plugin;
  rule: ValidationRule;
} {
  const refused = new WeakMap<DocumentNode, GraphQLError>();
  return {
    parseOptions: { maxTokens: limits.maxTokens },
    plugin: {
      async requestDidStart() {
        return {
          async validationDidStart(context) {
            const error = checkDocument(context.document, context.schema, limits);
            if (!error) return;
            const standIn = parse('{ __typename }');
            refused.set(standIn, error);
            (context as { document: DocumentNode }).document = standIn;
          },
          async didResolveOperation({ request, operation }) {
            const error =
              checkVariables(request.variables, limits) ?? undeclaredVariable(operation, request.variables);
            if (error) throw error;
          },
        };
      },
    },
    rule: (context) => {
      const error = refused.get(context.getDocument());
      if (error) context.reportError(error);
      return {};
    },
  };
}
