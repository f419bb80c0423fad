import { z } from 'zod';
import { ID_PATTERN } from './fields';
import { RuleCommand } from './types';
import { RuleViolation } from './violation';

/**
 * The contract: every command (and sheet) a system accepts is declared once, as a zod schema.
 * From that one declaration come the runtime check at the edge (`checkCommand`: unknown fields,
 * wrong JSON types and out-of-range numbers are refused naming the field), the TypeScript types
 * (`z.infer`) and the JSON Schemas published by GET /systems/:id, OpenAPI, GraphQL and AsyncAPI.
 *
 * Refusals are 422 (the body was JSON and had a command type, but its fields break the declared
 * contract): `UNKNOWN_FIELD` for a field the command does not have, `INVALID_FIELD` for a field of
 * the wrong type or range; `issues` lists every failing field, `field` names the first.
 */

/** A combatant, weapon or other id: what ID_PATTERN allows. */
export const Id = z.string().regex(ID_PATTERN, { error: 'must be an id: 1 to 64 letters, digits, _ or -' });

/** An integer (a string, a fraction or a number beyond the safe range is refused as "must be an integer"). */
export const Int = z.int({
  error: (issue) =>
    issue.code === 'invalid_type' ||
    ((issue.code === 'too_big' || issue.code === 'too_small') &&
      Math.abs(
        Number(
          (issue as { maximum?: unknown; minimum?: unknown }).maximum ??
            (issue as { minimum?: unknown }).minimum,
        ),
      ) === Number.MAX_SAFE_INTEGER)
      ? 'must be an integer'
      : undefined,
});

/** A non-empty string of at most `max` characters. */
export const text = (max: number) => z.string().min(1).max(max);

/** The most faces one manual dice list holds. */
export const FACES_MAX = 200;

/** Manual dice: the faces of physical dice, in the order the rules roll them (C2). */
export const Faces = z.array(Int).max(FACES_MAX);

/** The three fields any command of a manual fight may carry its faces in (C13). */
export const MANUAL_DICE_FIELDS = {
  dice: Faces.optional().describe(
    'Manual dice: the faces of the pools this command rolls, in the order its system’s manual dice ruling gives (N22, A16, S15); an attack carries the attacker’s pool, then the defender’s.',
  ),
  rerollFaces: Faces.optional().describe(
    'Manual dice: faces of rerolls (Edge, and a tie reroll given in advance), the attacker’s first; Archsoul uses none (S15).',
  ),
  followUpFaces: Faces.optional().describe(
    'Manual dice: faces of rolls that follow the pools: the checks and tests the command calls for (a Continuation Check, a Devolution Test), table rolls and roll-offs.',
  ),
} as const;

/** A command's schema: `type` plus the declared fields and the manual dice fields; nothing else. */
export function command<T extends string, S extends z.ZodRawShape>(type: T, description: string, shape: S) {
  return z.strictObject({ type: z.literal(type), ...MANUAL_DICE_FIELDS, ...shape }).describe(description);
}

export type CommandSchemas = Readonly<Record<string, z.ZodObject>>;

export interface ContractIssue {
  field: string;
  code: 'UNKNOWN_FIELD' | 'INVALID_FIELD';
  message: string;
}

/** A refusal of the contract: the first failing field, and every failing field in `issues`. */
export class ContractViolation extends RuleViolation {
  readonly issues: ContractIssue[];

  constructor(issues: ContractIssue[]) {
    // A typo is the likeliest cause of every other issue (a required field "missing"): it comes first.
    issues = [
      ...issues.filter((i) => i.code === 'UNKNOWN_FIELD'),
      ...issues.filter((i) => i.code !== 'UNKNOWN_FIELD'),
    ];
    super(
      issues[0].code,
      issues.length === 1
        ? issues[0].message
        : `${issues[0].message} (and ${issues.length - 1} more: see issues)`,
      issues[0].field,
    );
    this.issues = issues;
  }
}

/**
 * Checks a command against its declared schema; a type no schema declares is left to `decide`
 * (which answers UNKNOWN_COMMAND). Returns the command as parsed; its decider, given the same command
 * object, reads that parse instead of parsing it again (parseOrRefuse).
 */
export function checkCommand(schemas: CommandSchemas, cmd: RuleCommand): RuleCommand {
  if (typeof cmd.type !== 'string' || !Object.hasOwn(schemas, cmd.type)) return cmd;
  return parseOrRefuse(schemas[cmd.type], cmd, '', cmd.type) as RuleCommand;
}

/**
 * Each object a schema accepted, with that schema and what it parsed to: an input parsed once (a command
 * at the edge) is not parsed again by the same schema (its decider). Inputs are JSON values nobody changes
 * once sent; the map holds them weakly.
 */
const PARSED = new WeakMap<object, { schema: z.ZodType; output: unknown }>();

/** Parses `value` with `schema`, or throws a ContractViolation whose fields start at `prefix`. */
export function parseOrRefuse<T extends z.ZodType>(
  schema: T,
  value: unknown,
  prefix: string,
  what: string,
): z.output<T> {
  const seen = typeof value === 'object' && value !== null ? PARSED.get(value) : undefined;
  if (seen?.schema === schema) return seen.output as z.output<T>;
  // JSON.parse makes `__proto__` an own key; zod's records drop it silently: refuse it wherever it is.
  const proto = protoKeyIn(value, prefix);
  if (proto !== undefined)
    throw new ContractViolation([
      { field: proto, code: 'UNKNOWN_FIELD', message: `${proto} is not a field of ${what}` },
    ]);
  // The plain parse is zod's fast path; only a refusal is parsed again, reporting the input (for "is required").
  const result = schema.safeParse(value);
  if (result.success) {
    if (typeof value === 'object' && value !== null) PARSED.set(value, { schema, output: result.data });
    return result.data;
  }
  const reported = schema.safeParse(value, { reportInput: true });
  throw new ContractViolation(
    toIssues(reported.success ? result.error.issues : reported.error.issues, prefix, what),
  );
}

/** The path of the first own `__proto__` key in a JSON value, if any. */
function protoKeyIn(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value !== 'object' || value === null || depth > 64) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = protoKeyIn(value[i], `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Object.hasOwn(value, '__proto__')) return path ? `${path}.__proto__` : '__proto__';
  for (const [key, v] of Object.entries(value)) {
    const found = protoKeyIn(v, path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `a.b[2].c`: the field naming the rest of the service uses. */
export function fieldPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

function toIssues(issues: readonly z.core.$ZodIssue[], prefix: string, what: string): ContractIssue[] {
  const out: ContractIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const parent = fieldPath(prefix, issue.path);
      for (const key of issue.keys) {
        const field = parent ? `${parent}.${key}` : key;
        out.push({
          field,
          code: 'UNKNOWN_FIELD',
          message: `${field} is not a field of ${parent ? parent : what}`,
        });
      }
      continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // A union: report the branch that got furthest (the one with the fewest issues).
      const best = [...issue.errors].sort((a, b) => a.length - b.length)[0];
      if (best.length > 0 && !(issue.path.length === 0 && best.every((i) => i.path.length === 0))) {
        out.push(
          ...toIssues(
            best.map((i) => ({ ...i, path: [...issue.path, ...i.path] })),
            prefix,
            what,
          ),
        );
        continue;
      }
    }
    const field = fieldPath(prefix, issue.path) || 'body';
    out.push({ field, code: 'INVALID_FIELD', message: `${field} ${describeIssue(issue)}` });
  }
  // One issue per field: z.int()'s own safe-range bound gives way to the declared one.
  const byField = new Map<string, ContractIssue>();
  for (const i of out)
    if (!byField.has(i.field) || /9007199254740991|must be an integer$/.test(byField.get(i.field)!.message))
      byField.set(i.field, i);
  out.length = 0;
  out.push(...byField.values());
  return out.length > 0
    ? out
    : [{ field: prefix || 'body', code: 'INVALID_FIELD', message: `${prefix || 'body'} is not valid` }];
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function describeIssue(issue: z.core.$ZodIssue): string {
  // A message the declaration wrote itself ("must be an id: …") is used as it is.
  if (/^(must|is) /.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? 'must be a non-empty string'
          : `must be at least ${issue.minimum} characters`;
      if (issue.origin === 'array')
        return `must have at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`;
      return issue.inclusive === false
        ? `must be more than ${issue.minimum}`
        : `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
      if (issue.origin === 'int' || issue.origin === 'number')
        return issue.inclusive === false
          ? `must be less than ${issue.maximum}`
          : `must be at most ${issue.maximum}`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex' && issue.message && !issue.message.startsWith('Invalid')
        ? issue.message
        : `must match ${issue.pattern ?? issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_union':
      return 'matches none of the forms it may take';
    case 'invalid_key':
      return 'has an invalid key';
    case 'invalid_element':
      return 'has an invalid element';
    default:
      return issue.message || 'is not valid';
  }
}

/**
 * Names every JavaScript object has (`toString`, `constructor`, `__proto__`, …): a key or id a sheet's map
 * or table is looked up by may be none of them. A refinement is no JSON Schema, so a schema that refuses them
 * says so with this meta (`.meta(NOT_OBJECT_BUILT_IN)`): `not: { enum }` in every dialect.
 */
export const OBJECT_BUILT_INS: readonly string[] = Object.getOwnPropertyNames(Object.prototype).sort();
export const NOT_OBJECT_BUILT_IN = { not: { enum: [...OBJECT_BUILT_INS] } };
/**
 * The one name a key cannot be: JSON.parse makes `__proto__` an own key, but a reader that builds objects by
 * assignment (and zod's records) drops it, or sets the object's prototype with it. A combatant id or a side,
 * which views and the fight's state are keyed by, is never it (`toString` and the like are plain keys there).
 */
export const PROTO_KEY = '__proto__';
export const PROTO_KEY_REFUSED =
  'must not be __proto__: views are keyed by it, and JSON readers that build objects by assignment drop that key';

/** A combatant's id as it joins: an id, and not `__proto__` (PROTO_KEY). */
export const CombatantKey = Id.refine((id) => id !== PROTO_KEY, { error: PROTO_KEY_REFUSED }).meta({
  not: { enum: [PROTO_KEY] },
});

/**
 * JSON Schema of a declared shape (draft 2020-12; draft 7 for AsyncAPI; OpenAPI 3.0's dialect), for GET
 * /systems/:id, OpenAPI and AsyncAPI. A record's keys are `propertyNames` in JSON Schema; OpenAPI 3.0 has no
 * such keyword (zod leaves it out, and a 3.0 linter refuses it), so there the key rule is the extension
 * `x-propertyNames`, the same schema: a reader sees which keys are refused, where 3.0 cannot say it. A nullable
 * enum lists null among its values there, as OpenAPI 3.0.3 asks (zod writes `nullable` beside the enum only).
 */
export function jsonSchemaOf(
  schema: z.ZodType,
  target: 'draft-2020-12' | 'draft-7' | 'openapi-3.0' = 'draft-2020-12',
): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    target,
    unrepresentable: 'any',
    io: 'input',
    override: ({ zodSchema, jsonSchema }) => {
      if (target !== 'openapi-3.0') return;
      // OpenAPI 3.0.3 ("nullable"): an enum that does not list null refuses null, nullable or not.
      const nullableEnum = jsonSchema as { nullable?: boolean; enum?: unknown[] };
      if (nullableEnum.nullable === true && nullableEnum.enum && !nullableEnum.enum.includes(null))
        nullableEnum.enum = [...nullableEnum.enum, null];
      if (zodSchema._zod.def.type !== 'record') return;
      const keys = jsonSchemaOf((zodSchema as unknown as z.ZodRecord).keyType as z.ZodType, target);
      if (Object.keys(keys).some((k) => k !== 'type'))
        (jsonSchema as Record<string, unknown>)['x-propertyNames'] = keys;
    },
  });
}

/** What a client sends beside a command's own fields (REST body, GraphQL input): idempotency and concurrency. */
export const COMMAND_ENVELOPE = {
  commandId: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Idempotency key: a repeated commandId returns the first result and appends nothing.'),
  expectedSeq: Int.min(0)
    .optional()
    .describe('The seq the caller last saw; a mismatch is 409 EXPECTED_SEQ_MISMATCH.'),
} as const;

/** A command as a client sends it: the command and its envelope, nothing else. */
export function withEnvelope(schema: z.ZodObject): z.ZodObject {
  return schema.extend(COMMAND_ENVELOPE);
}
