import { Logger } from '@nestjs/common';
import { buildSchema, getIntrospectionQuery, GraphQLError, parse } from 'graphql';
import {
  checkDocument,
  checkVariables,
  FragmentVisits,
  jsonDepth,
  measureOperations,
  QUERY_LIMITS,
} from '../../src/graphql/query-limits';
import { formatGraphqlError, variableField } from '../../src/graphql/graphql-errors';

const schema = buildSchema(`
  type Query { systems: [System!]! system(id: ID!): System node: Node }
  type System { id: ID! name: String! parent: System children: [System!]! }
  type Mutation { note(text: String, data: [[Int]]): Int }
  interface Node { id: ID! }
`);

const measure = (doc: string, visits?: FragmentVisits) =>
  [...measureOperations(parse(doc), schema, visits).values()][0];

/** Fragments each spreading the next twice. */
function bomb(levels: number): string {
  let doc = `{ ...F0 } fragment F${levels} on Query { systems { id } }`;
  for (let i = levels - 1; i >= 0; i--) doc += ` fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`;
  return doc;
}

describe('measureOperations: depth, cost and weight in one pass, each fragment walked once', () => {
  it('a fragment bomb of 40 levels: cost 2^41, and each fragment visited exactly once', () => {
    const visits: FragmentVisits = new Map();
    const m = measure(bomb(40), visits);
    expect(m).toMatchObject({ depth: 2, cost: 2 ** 41, introspection: false });
    expect(visits.size).toBe(41);
    expect([...visits.values()].every((n) => n === 1)).toBe(true);
  });

  it('a bomb of 1,100 levels overflows to Infinity, which is over the limit (no wrap-around)', () => {
    const m = measure(bomb(1100));
    expect(m.cost).toBe(Infinity);
    expect(checkDocument(parse(bomb(1100)), schema)?.extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('depth counts fields, not fragments or inline fragments; cost counts every alias', () => {
    expect(measure('{ systems { parent { ... on System { parent { id } } } } }')).toMatchObject({
      depth: 4,
      cost: 4,
    });
    expect(measure('{ a: systems { id } b: systems { id } }')).toMatchObject({ depth: 2, cost: 4 });
    expect(measure('{ systems { ...P } } fragment P on System { parent { parent { id } } }')).toMatchObject({
      depth: 4,
      cost: 4,
    });
  });

  it('a list field multiplies the weight of what it selects by 10', () => {
    expect(measure('{ systems { id children { id } } }').weight).toBe(10 * (1 + 1 + 10 * 2));
    expect(measure('{ system(id: "x") { parent { id } } }').weight).toBe(3);
  });

  it('a fragment cycle (refused by validation) is measured without looping', () => {
    expect(
      measure(
        '{ systems { ...A } } fragment A on System { parent { ...B } } fragment B on System { children { ...A } }',
      ),
    ).toMatchObject({ depth: 3 });
  });

  it('introspection: only __schema, __type and __typename at the root, through fragments too', () => {
    expect(measure('{ __schema { queryType { name } } __typename }').introspection).toBe(true);
    expect(
      measure('query { ...I } fragment I on Query { __type(name: "System") { name } }').introspection,
    ).toBe(true);
    expect(measure('{ __schema { queryType { name } } systems { id } }').introspection).toBe(false);
  });
});

describe('checkDocument', () => {
  it('the standard introspection query is within its own bound though deeper than 10', () => {
    for (const query of [
      getIntrospectionQuery(),
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
        oneOf: true,
      }),
    ]) {
      const m = measure(query);
      expect(m.depth).toBeGreaterThan(QUERY_LIMITS.maxDepth);
      expect(checkDocument(parse(query), schema)).toBeUndefined();
    }
  });

  it('refusals carry their code, a 400 and a message that names the limit', () => {
    let deep = 'id';
    for (let i = 0; i < 10; i++) deep = `parent { ${deep} }`;
    const error = checkDocument(parse(`{ systems { ${deep} } }`), schema);
    expect(error?.extensions).toMatchObject({
      code: 'QUERY_TOO_DEEP',
      statusCode: 400,
      message: 'the query nests 12 levels deep; the limit is 10',
      http: { status: 400 },
    });
    expect(
      checkDocument(parse(`mutation { note(data: ${'['.repeat(65)}${']'.repeat(65)}) }`), schema)?.extensions
        .code,
    ).toBe('INPUT_TOO_DEEP');
    expect(
      checkDocument(parse(`mutation { note(data: ${'['.repeat(64)}${']'.repeat(64)}) }`), schema),
    ).toBeUndefined();
  });
});

describe('input nesting', () => {
  it('jsonDepth walks 100,000 levels without recursion and stops counting past the limit', () => {
    let v: unknown = 1;
    for (let i = 0; i < 100_000; i++) v = { a: [v] };
    expect(jsonDepth(v, 64)).toBe(65);
    expect(jsonDepth({ a: [1, { b: 2 }] }, 64)).toBe(3);
    expect(jsonDepth('x', 64)).toBe(0);
  });

  it('checkVariables names the variable too deep', () => {
    let v: unknown = 1;
    for (let i = 0; i < 70; i++) v = [v];
    expect(checkVariables({ ok: { a: 1 }, log: v })?.extensions).toMatchObject({
      code: 'INPUT_TOO_DEEP',
      field: 'log',
      statusCode: 400,
    });
    expect(checkVariables({ ok: { a: 1 } })).toBeUndefined();
    expect(checkVariables(undefined)).toBeUndefined();
  });
});

describe('formatGraphqlError: the one error shape', () => {
  it('an unexpected error is a 500 INTERNAL that says nothing of its cause (and is logged)', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const error = new GraphQLError("Cannot read properties of undefined (reading 'value')", {
      originalError: new TypeError('x'),
    });
    const formatted = formatGraphqlError(
      { message: error.message, extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      error,
    );
    expect(formatted).toEqual({
      message: 'internal error; it has been logged',
      extensions: { statusCode: 500, code: 'INTERNAL', message: 'internal error; it has been logged' },
    });
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });

  it("a refusal wrapped by Apollo's ValidationError gets its own code back", () => {
    const own = new GraphQLError('the query nests 12 levels deep; the limit is 10', {
      extensions: {
        code: 'QUERY_TOO_DEEP',
        statusCode: 400,
        message: 'the query nests 12 levels deep; the limit is 10',
      },
    });
    const wrapped = new GraphQLError(own.message, {
      originalError: own,
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } },
    });
    expect(
      formatGraphqlError(
        { message: own.message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', statusCode: 400 } },
        wrapped,
      ).extensions,
    ).toEqual({ statusCode: 400, code: 'QUERY_TOO_DEEP', message: own.message });
  });

  it('names the variable and the place in it of a coercion error', () => {
    expect(variableField('Variable "$f" of non-null type "ID!" must not be null.')).toBe('f');
    expect(
      variableField(
        'Variable "$i" got invalid value { bogus: 1 }; Field "bogus" is not defined by type "CreateFightInput".',
      ),
    ).toBe('i.bogus');
    expect(
      variableField(
        'Variable "$i" got invalid value "x" at "i.combatants[0].sheet"; Expected type "JSONObject".',
      ),
    ).toBe('i.combatants[0].sheet');
    expect(
      variableField(
        'Variable "$i" got invalid value {}; Field "system" of required type "String!" was not provided.',
      ),
    ).toBe('i.system');
    expect(variableField('Syntax Error: Unexpected "}".')).toBeUndefined();
  });
});
