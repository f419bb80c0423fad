import fc from 'fast-check';

type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

/** Names that exist on every JavaScript object: a lookup by any of them must be refused, never crash. */
export const PROTO_NAMES = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', 'prototype'];

/** Raw JSON of every kind, plus the values that most often break hand-written readers. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    ...PROTO_NAMES,
    '',
    ' ',
    '6',
    '1e3',
    -1,
    0,
    1,
    2,
    6,
    1.5,
    -0.5,
    1e19,
    -1e19,
    2147483648,
    Number.MAX_SAFE_INTEGER + 2,
    null,
    true,
    false,
    [],
    {},
    [null],
    [[]],
    ['6'],
    { 0: 6 },
  ),
);

export interface ArbitraryOptions {
  /** Strings likely to be ids in this fight (combatants, weapons…), mixed into every id-like string. */
  ids?: readonly string[];
  maxDepth?: number;
}

/**
 * Values that fit a JSON Schema (as the contract publishes it), mostly: strings fit their pattern and
 * length, numbers their range; ids come from `ids` most of the time, so generated commands reach the rules.
 */
export function arbitraryOf(
  schema: Schema,
  options: ArbitraryOptions = {},
  depth = 0,
): fc.Arbitrary<unknown> {
  const max = options.maxDepth ?? 5;
  if (depth > max) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, options, depth + 1)));
  if (schema.allOf?.length) return arbitraryOf(Object.assign({}, ...schema.allOf), options, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      const ids = options.ids ?? [];
      const fitting = schema.pattern
        ? fc
            .stringMatching(new RegExp(schema.pattern))
            .filter((s) => s.length <= (schema.maxLength ?? 200) && s.length >= (schema.minLength ?? 0))
        : fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 20) });
      return ids.length > 0
        ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: fitting })
        : fitting;
    }
    case 'integer': {
      const min =
        schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -5);
      const maxN =
        schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 12);
      const lo = Math.max(min, -1e6);
      const hi = Math.min(maxN, Math.max(lo, 1e6));
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: lo, max: Math.min(hi, lo + 12) }) },
        { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) },
      );
    }
    case 'number':
      return fc.double({
        min: schema.minimum ?? -20,
        max: schema.maximum ?? 20,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(
        schema.items ? arbitraryOf(schema.items, options, depth + 1) : fc.jsonValue({ maxDepth: 1 }),
        {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 6, 6),
        },
      );
    case 'object': {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, s] of Object.entries(props)) record[key] = arbitraryOf(s, options, depth + 1);
      if (Object.keys(record).length === 0)
        return schema.additionalProperties === false
          ? fc.constant({})
          : fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in record) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * A value that fits the schema, or one broken in one place: a field set to hostile JSON, a field
 * removed, or a typo'd field added. Each breakage is what a careless or hostile client sends.
 */
export function mostlyFitting(
  schema: Schema,
  options: ArbitraryOptions = {},
): fc.Arbitrary<Record<string, unknown>> {
  const fitting = arbitraryOf(schema, options) as fc.Arbitrary<Record<string, unknown>>;
  const keys = Object.keys(schema.properties ?? {}).filter((k) => k !== 'type');
  const pick = keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('x');
  return fc.oneof(
    { weight: 4, arbitrary: fitting },
    {
      weight: 2,
      arbitrary: fc.tuple(fitting, pick, hostileValue).map(([v, k, bad]) => ({ ...v, [k]: bad })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fitting, pick)
        .map(([v, k]) => Object.fromEntries(Object.entries(v).filter(([key]) => key !== k))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fitting,
          fc.oneof(
            fc.constantFrom(...PROTO_NAMES, 'boots', 'bost', 'rounds', 'responderedge'),
            fc.string({ minLength: 1, maxLength: 8 }),
          ),
          hostileValue,
        )
        .map(([v, k, bad]) => (k === 'type' ? v : { ...v, [k]: bad })),
    },
  );
}
