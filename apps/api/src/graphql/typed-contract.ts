import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFieldConfigMap,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  GraphQLInputType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLOutputType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
  GraphQLFieldResolver,
} from 'graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  CORE_PENDING_KINDS,
  FightCore,
  jsonSchemaOf,
  lifecycleEvents,
  PendingKinds,
  RuleSystem,
  SYSTEMS,
} from '@app/rules';
import { pascal } from '../common/openapi-contract';

/**
 * The contract in GraphQL, generated from the same declarations as OpenAPI and AsyncAPI:
 * - one mutation per system, `narateerCommand(fightId, command: NarateerCommandInput!)`, whose input is a
 *   `@oneOf` with one field per command type, each a typed input of exactly the command's fields;
 * - `FightEvent.detail`: the event's data as a typed object, a union over every event type.
 * Shapes GraphQL cannot express (a field that is a number or an object, a free-form record) stay JSON.
 */

/** What this file reads of a JSON Schema (the ones jsonSchemaOf makes from the zod declarations). */
interface Json {
  type?: string | string[];
  anyOf?: Json[];
  oneOf?: Json[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Json>;
  required?: string[];
  items?: Json;
  description?: string;
}

const VALID_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const INT32 = 2 ** 31;
const SAFE = Number.MAX_SAFE_INTEGER;
const DETAIL_TYPE = Symbol('detailType');

const camel = (type: string) => type.charAt(0).toLowerCase() + type.slice(1);

function withoutNull(schema: Json): { schema: Json; nullable: boolean } {
  const alternatives: Json[] | undefined = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const rest = alternatives.filter((s) => s.type !== 'null');
    if (rest.length === 1 && rest.length < alternatives.length) return { schema: rest[0], nullable: true };
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((t: string) => t !== 'null');
    if (types.length === 1) return { schema: { ...schema, type: types[0] }, nullable: true };
  }
  return { schema, nullable: false };
}

/**
 * A union of objects (a discriminated union such as Arcana Beast's TriggerSet) as the one object GraphQL
 * can type: every member's fields, non-null where every member requires it; a field the members declare
 * differently is the union of its values where they are strings (`kind`: an enum of every member's), JSON
 * otherwise. Without this the type has no fields, which the GraphQL specification forbids (section 3.6).
 */
function asOneObject(schema: Json): Json {
  const members: Json[] | undefined = schema.anyOf ?? schema.oneOf;
  if (schema.properties || !members?.length || !members.every((m) => m.type === 'object' && m.properties))
    return schema;
  const properties: Record<string, Json> = {};
  for (const member of members)
    for (const [key, prop] of Object.entries<Json>(member.properties ?? {}))
      properties[key] = key in properties ? eitherOf(properties[key], prop) : prop;
  const required = Object.keys(properties).filter((key) => members.every((m) => m.required?.includes(key)));
  return { type: 'object', description: schema.description, properties, required };
}

function eitherOf(a: Json, b: Json): Json {
  if (JSON.stringify(a) === JSON.stringify(b)) return a;
  const strings = (s: Json): unknown[] | undefined => (s.const !== undefined ? [s.const] : s.enum);
  const values = [...(strings(a) ?? []), ...(strings(b) ?? [])];
  if (strings(a) && strings(b) && values.every((v) => typeof v === 'string'))
    return { type: 'string', enum: [...new Set(values)], description: a.description ?? b.description };
  return { description: a.description ?? b.description };
}

function intOrFloat(schema: Json) {
  const fits = (n: unknown) => n === undefined || Math.abs(Number(n)) === SAFE || Math.abs(Number(n)) < INT32;
  return fits(schema.minimum) && fits(schema.maximum) ? GraphQLInt : GraphQLFloat;
}

const NOTHING: ReadonlySet<string> = new Set();
/** A command's own `type`, which its typed input leaves out; a member named `type` deeper (a weapon's) stays. */
const COMMAND_TYPE: ReadonlySet<string> = new Set(['type']);

/** Builds GraphQL input and output types from JSON Schemas, one named type per path. */
class TypeBuilder {
  readonly named = new Map<string, GraphQLEnumType | GraphQLInputObjectType | GraphQLObjectType>();

  private once<T extends GraphQLEnumType | GraphQLInputObjectType | GraphQLObjectType>(
    name: string,
    make: () => T,
  ): T {
    const known = this.named.get(name);
    if (known) return known as T;
    const made = make();
    this.named.set(name, made);
    return made;
  }

  private enumOf(schema: Json, name: string): GraphQLEnumType | undefined {
    const values: unknown[] = schema.enum ?? [];
    if (
      !values.length ||
      !values.every(
        (v) => typeof v === 'string' && VALID_NAME.test(v) && !['true', 'false', 'null'].includes(v),
      )
    )
      return undefined;
    return this.once(
      name,
      () =>
        new GraphQLEnumType({
          name,
          description: schema.description,
          values: Object.fromEntries((values as string[]).map((v) => [v, { value: v }])),
        }),
    );
  }

  private scalar(schema: Json, name: string): (GraphQLInputType & GraphQLOutputType) | undefined {
    if (schema.enum)
      return (
        this.enumOf(schema, name) ??
        (schema.enum.every((v: unknown) => typeof v === 'string') ? GraphQLString : GraphQLJSON)
      );
    if (schema.const !== undefined) return typeof schema.const === 'string' ? GraphQLString : GraphQLJSON;
    switch (schema.type) {
      case 'string':
        return GraphQLString;
      case 'integer':
        return intOrFloat(schema);
      case 'number':
        return GraphQLFloat;
      case 'boolean':
        return GraphQLBoolean;
      default:
        return undefined;
    }
  }

  private fieldsUsable(schema: Json): boolean {
    const keys = Object.keys(schema.properties ?? {});
    return (
      schema.type === 'object' &&
      keys.length > 0 &&
      keys.every((k) => VALID_NAME.test(k) && !k.startsWith('__'))
    );
  }

  input(raw: Json, name: string): GraphQLInputType {
    const { schema } = withoutNull(raw);
    const scalar = this.scalar(schema, name);
    if (scalar) return scalar;
    if (schema.type === 'array' && schema.items)
      return new GraphQLList(new GraphQLNonNull(this.input(schema.items, `${name}Item`)));
    if (!this.fieldsUsable(schema)) return GraphQLJSON;
    return this.once(name, () => this.inputObject(schema, name));
  }

  /** `omitted`: members the input does not carry (a command's `type`: the field of the @oneOf names it). */
  inputObject(
    declared: Json,
    name: string,
    extra: GraphQLInputFieldConfigMap = {},
    description?: string,
    omitted: ReadonlySet<string> = NOTHING,
  ): GraphQLInputObjectType {
    const schema = asOneObject(declared);
    const required = new Set<string>(schema.required ?? []);
    return new GraphQLInputObjectType({
      name,
      description: description ?? schema.description,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {};
        for (const [key, prop] of Object.entries<Json>(schema.properties ?? {})) {
          if (omitted.has(key)) continue;
          const type = this.input(prop, `${name}${pascal(key)}`);
          // A required field whose null means something (SetPosition's position: null takes the combatant off the
          // map) stays nullable: GraphQL has no "required but may be null" for an input; leaving it out is then
          // refused by the contract, as over REST.
          const nonNull = required.has(key) && !withoutNull(prop).nullable;
          fields[key] = { type: nonNull ? new GraphQLNonNull(type) : type, description: prop.description };
        }
        return { ...fields, ...extra };
      },
    });
  }

  output(raw: Json, name: string): GraphQLOutputType {
    const { schema } = withoutNull(raw);
    const scalar = this.scalar(schema, name);
    if (scalar) return scalar;
    if (schema.type === 'array' && schema.items)
      return new GraphQLList(this.output(schema.items, `${name}Item`));
    if (!this.fieldsUsable(schema)) return GraphQLJSON;
    return this.once(name, () => this.objectType(schema, name));
  }

  objectType(declared: Json, name: string, description?: string): GraphQLObjectType {
    const schema = asOneObject(declared);
    const required = new Set<string>(schema.required ?? []);
    return new GraphQLObjectType({
      name,
      description: description ?? schema.description,
      fields: () => {
        const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
        for (const [key, prop] of Object.entries<Json>(schema.properties ?? {})) {
          const type = this.output(prop, `${name}${pascal(key)}`);
          const nullable = withoutNull(prop).nullable || !required.has(key);
          fields[key] = { type: nullable ? type : new GraphQLNonNull(type), description: prop.description };
        }
        return fields;
      },
    });
  }
}

/** A GraphQL value as the command path wants it: `null` means absent, unless the schema allows null there. */
export function fromGraphql(value: unknown, schema: Json): unknown {
  if (Array.isArray(value)) return value.map((v) => fromGraphql(v, withoutNull(schema).schema.items ?? {}));
  if (value === null || typeof value !== 'object') return value;
  const props: Record<string, Json> = withoutNull(schema).schema.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === null && !withoutNull(props[key] ?? {}).nullable) continue;
    out[key] = props[key] ? fromGraphql(v, props[key]) : v;
  }
  return out;
}

interface SystemCommands {
  system: RuleSystem<FightCore>;
  input: GraphQLInputObjectType;
  /** GraphQL field of the @oneOf input → command type and its JSON Schema. */
  commands: Map<string, { type: string; schema: Json }>;
}

function commandInputs(builder: TypeBuilder): SystemCommands[] {
  return Object.values(SYSTEMS).map((system) => {
    const sys = pascal(system.id);
    const commands = new Map<string, { type: string; schema: Json }>();
    const fields: GraphQLInputFieldConfigMap = {};
    for (const [type, zod] of Object.entries(system.contract.commands)) {
      if (type === 'StartFight') continue;
      const schema = jsonSchemaOf(zod) as Json;
      const name = `${sys}${type}Input`;
      const input = builder.inputObject(schema, name, {}, schema.description, COMMAND_TYPE);
      builder.named.set(name, input);
      fields[camel(type)] = { type: input, description: system.commands[type] ?? schema.description };
      commands.set(camel(type), { type, schema });
    }
    const input = new GraphQLInputObjectType({
      name: `${sys}CommandInput`,
      description: `A ${system.name} command: exactly one field, named after the command type.`,
      isOneOf: true,
      fields,
    });
    return { system, input, commands };
  });
}

/** The lifecycle events' fields whose shape is the system's: JSON in GraphQL, with these descriptions. */
const FREE_FORM: Record<string, string> = {
  sheet: 'The sheet as the engine folds it (defaults filled in), as JSON.',
  options: 'The system’s fight options as sent ({} when none), as JSON.',
};

/** The data of every event type as typed objects, and how to tell which one an event's data is. */
function eventDetails(builder: TypeBuilder): {
  union: GraphQLUnionType;
  detail: (type: string, data: unknown) => unknown;
} {
  const members: GraphQLObjectType[] = [];
  // Lifecycle events are the same in every system: one type each (sheets, options and rolls stay JSON); a pending
  // decision they record is of any system's kinds (each system's own in its view's types).
  const lifecycle = new Map<string, GraphQLObjectType>();
  const systems = Object.values<RuleSystem<FightCore>>(SYSTEMS);
  for (const [type, zod] of Object.entries(
    lifecycleEvents({
      sheet: systems[0].contract.sheet,
      options: systems[0].contract.options,
      // A kind every system shares (the core's) keeps the core's description, not one system's own reading of it.
      pendingKinds: {
        ...systems.reduce<PendingKinds>((all, s) => ({ ...all, ...s.contract.pendingKinds }), {}),
        ...CORE_PENDING_KINDS,
      },
    }),
  )) {
    const schema = jsonSchemaOf(zod) as Json;
    for (const [free, description] of Object.entries(FREE_FORM))
      if (schema.properties?.[free]) schema.properties[free] = { description };
    const t = builder.objectType(schema, `${type}Data`, `The data of ${type} (every system).`);
    builder.named.set(t.name, t);
    lifecycle.set(type, t);
    members.push(t);
  }
  const bySystem: Array<{
    system: RuleSystem<FightCore>;
    types: Map<string, { type: GraphQLObjectType; zod: { safeParse(v: unknown): { success: boolean } } }>;
  }> = [];
  for (const system of Object.values(SYSTEMS)) {
    const types = new Map<
      string,
      { type: GraphQLObjectType; zod: { safeParse(v: unknown): { success: boolean } } }
    >();
    for (const [type, zod] of Object.entries(system.contract.events ?? {})) {
      if (lifecycle.has(type)) continue;
      const t = builder.objectType(
        jsonSchemaOf(zod),
        `${pascal(system.id)}${type}Data`,
        `The data of ${type} in ${system.name}.`,
      );
      builder.named.set(t.name, t);
      types.set(type, { type: t, zod });
      members.push(t);
    }
    bySystem.push({ system, types });
  }
  const union = new GraphQLUnionType({
    name: 'FightEventDetail',
    description: 'The data of an event as a typed object, by event type (and system).',
    types: members,
    resolveType: (value: Record<symbol, string>) => value[DETAIL_TYPE],
  });
  const detail = (type: string, data: unknown): unknown => {
    const named =
      lifecycle.get(type)?.name ??
      bySystem
        .map((s) => s.types.get(type))
        .find((t, _i, all) => t && (all.filter(Boolean).length === 1 || t.zod.safeParse(data).success))?.type
        .name;
    if (!named || typeof data !== 'object' || data === null) return null;
    return { ...data, [DETAIL_TYPE]: named };
  };
  return { union, detail };
}

/** Each system's declared view as an object type, and the union a `view` resolves to by its `system`. */
function viewTypes(builder: TypeBuilder): GraphQLUnionType | undefined {
  const bySystem = new Map<string, GraphQLObjectType>();
  for (const system of Object.values(SYSTEMS)) {
    if (!system.contract.view) return undefined;
    const t = builder.objectType(
      jsonSchemaOf(system.contract.view),
      `${pascal(system.id)}View`,
      `The view of a ${system.name} fight.`,
    );
    builder.named.set(t.name, t);
    bySystem.set(system.id, t);
  }
  return new GraphQLUnionType({
    name: 'FightViewTyped',
    description: 'The fight view as a typed object of its system (`view` has the same as JSON).',
    types: [...bySystem.values()],
    resolveType: (view: { system?: string }) => bySystem.get(view.system ?? '')?.name,
  });
}

/** The system of a typed command mutation, by its name (`narateerCommand` → `narateer`); undefined for any other field. */
export function systemOfCommandField(fieldName: string): string | undefined {
  return Object.values(SYSTEMS).find((system) => commandFieldOf(system.id) === fieldName)?.id;
}

const commandFieldOf = (systemId: string) => `${camel(pascal(systemId))}Command`;

/** One typed mutation per system, `narateerCommand(fightId, command, …)`: each forwards to `command`. */
function commandMutations(
  systems: SystemCommands[],
  result: GraphQLObjectType,
  sendResolve: GraphQLFieldResolver<unknown, unknown>,
): GraphQLFieldConfigMap<unknown, unknown> {
  const extraMutations: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const { system, input, commands } of systems) {
    extraMutations[commandFieldOf(system.id)] = {
      type: new GraphQLNonNull(result),
      description: `Send a ${system.name} command, typed (the same path as POST /fights/:id/commands).`,
      args: {
        fightId: { type: new GraphQLNonNull(GraphQLID), description: 'The fight to send the command to.' },
        command: {
          type: new GraphQLNonNull(input),
          description: `The command: exactly one field, named after its type, holding its fields (${input.name}).`,
        },
        commandId: {
          type: GraphQLString,
          description:
            'Idempotency key: the same command sent again with it returns the first result and appends nothing; another command with it is 422 COMMAND_ID_REUSED.',
        },
        expectedSeq: {
          type: GraphQLInt,
          description: 'The seq the caller last saw; a mismatch is EXPECTED_SEQ_MISMATCH.',
        },
      },
      resolve: (
        root,
        args: {
          fightId: string;
          command: Record<string, unknown>;
          commandId?: string | null;
          expectedSeq?: number | null;
        },
        context,
        info,
      ) => {
        const [field, fields] = Object.entries(args.command)[0];
        const { type, schema: json } = commands.get(field)!;
        const payload = fromGraphql(fields, json) as Record<string, unknown>;
        const forwarded = {
          fightId: args.fightId,
          input: {
            type,
            payload,
            ...(args.commandId != null ? { commandId: args.commandId } : {}),
            ...(args.expectedSeq != null ? { expectedSeq: args.expectedSeq } : {}),
          },
        };
        return sendResolve(root, forwarded, context, info);
      },
    };
  }
  return extraMutations;
}

const ROOT_DESCRIPTIONS = {
  query: 'Reads: fights, their events, views and combatants, rule systems, webhooks, Combat Lab runs.',
  mutation: 'Changes: fights and their commands, webhooks, Combat Lab runs; and fight log verification.',
  subscription: 'A fight’s events and view, live (graphql-ws).',
};

/** The schema with the typed mutations, `typedView` on FightModel and CommandResultModel, FightEvent.detail. */
function withTypedFields(
  schema: GraphQLSchema,
  extraMutations: GraphQLFieldConfigMap<unknown, unknown>,
  views: GraphQLUnionType | undefined,
  { union, detail }: ReturnType<typeof eventDetails>,
): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.QUERY]: (type) =>
      new GraphQLObjectType({ ...type.toConfig(), description: ROOT_DESCRIPTIONS.query }),
    [MapperKind.SUBSCRIPTION]: (type) =>
      new GraphQLObjectType({ ...type.toConfig(), description: ROOT_DESCRIPTIONS.subscription }),
    [MapperKind.MUTATION]: (type) => {
      const config = type.toConfig();
      return new GraphQLObjectType({
        ...config,
        description: ROOT_DESCRIPTIONS.mutation,
        fields: { ...config.fields, ...extraMutations },
      });
    },
    [MapperKind.OBJECT_TYPE]: (type) => {
      if (views && (type.name === 'FightModel' || type.name === 'CommandResultModel')) {
        const config = type.toConfig();
        return new GraphQLObjectType({
          ...config,
          fields: {
            ...config.fields,
            typedView: {
              type: views,
              description:
                'The view as a typed object of the fight’s system (FightViewTyped); `view` has the same as JSON.',
              resolve: (r: { view: unknown }) => r.view,
            },
          },
        });
      }
      if (type.name !== 'FightEventModel') return type;
      const config = type.toConfig();
      return new GraphQLObjectType({
        ...config,
        fields: {
          ...config.fields,
          detail: {
            type: union,
            description:
              'The event’s data as a typed object (FightEventDetail); `data` has the same as JSON.',
            resolve: (e: { type: string; data: unknown }) => detail(e.type, e.data),
          },
        },
      });
    },
  });
}

/** Nest's `transformSchema`: adds the typed command mutations and FightEvent.detail to the code-first schema. */
export function typedContract(schema: GraphQLSchema): GraphQLSchema {
  const builder = new TypeBuilder();
  const systems = commandInputs(builder);
  const details = eventDetails(builder);
  const views = viewTypes(builder);
  const mutation = schema.getMutationType();
  const send = mutation?.getFields().command;
  const result = schema.getType('CommandResultModel') as GraphQLObjectType | undefined;
  if (!mutation || !send?.resolve || !result) return schema;
  const sendResolve = send.resolve as GraphQLFieldResolver<unknown, unknown>;
  const extraMutations = commandMutations(systems, result, sendResolve);

  const withTypes = new GraphQLSchema({
    ...schema.toConfig(),
    types: [
      ...schema.toConfig().types,
      ...builder.named.values(),
      details.union,
      ...(views ? [views] : []),
      ...systems.map((s) => s.input),
    ],
  });
  return withTypedFields(withTypes, extraMutations, views, details);
}
