import type { INestApplication, Type as Class } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { DECORATORS, type OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import { nestedTypesOf } from './validation';

type Schema = Record<string, unknown>;
type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];

/**
 * What each check of class-validator (by its name) declares in OpenAPI: `own` of the field itself, `items` of
 * each item when the check is `{ each: true }` (or of an array's items: OpenAPI puts a string's bounds there).
 * A check whose refusals the document cannot say is `null`; a check named in neither is an error when the
 * document is built, so no new check can refuse what the document calls valid unseen.
 */
const DECLARES: Record<string, ((constraints: unknown[]) => Schema) | null> = {
  isInt: () => ({ type: 'integer' }),
  isNumber: () => ({ type: 'number' }),
  min: ([min]) => ({ minimum: min }),
  max: ([max]) => ({ maximum: max }),
  isLength: ([min, max]) => ({ minLength: min, ...(typeof max === 'number' ? { maxLength: max } : {}) }),
  minLength: ([min]) => ({ minLength: min }),
  maxLength: ([max]) => ({ maxLength: max }),
  matches: ([pattern, modifiers]) => ({ pattern: patternOf(pattern, modifiers) }),
  isIn: ([values]) => ({ enum: values }),
  arrayMinSize: ([min]) => ({ minItems: min }),
  arrayMaxSize: ([max]) => ({ maxItems: max }),
  arrayUnique: () => ({ uniqueItems: true }),
  // common/date-time.ts: RFC 3339 with its `T`, on the calendar, seconds 00–59 (Date reads no leap second).
  isDateTime: () => ({
    format: 'date-time',
    pattern:
      '^\\d{4}-\\d{2}-\\d{2}T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d+)?(Z|[+-]([01]\\d|2[0-3]):[0-5]\\d)$',
  }),
  // webhooks.dto.ts: an absolute http(s) URL that WHATWG's parser reads. The pattern keeps to URLs it always
  // reads (a host name whose last label starts with a letter, a port of at most 4 digits); the service may
  // still refuse a private, loopback or link-local target (422), which no schema can say.
  isHttpUrl: () => ({
    format: 'uri',
    pattern: '^[Hh][Tt][Tt][Pp][Ss]?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*(:[0-9]{1,4})?([/?#]\\S*)?$',
  }),
  // The value's JSON type, which the field's declared type already says.
  isString: null,
  isBoolean: null,
  isArray: null,
  isObject: null,
  // Whether the field is checked at all (Optional, IsOptional), and a nested DTO (its own schema says its checks).
  conditionalValidation: null,
  isOptional: null,
  nestedValidation: null,
};

/** A RegExp (or a string and its flags) as an OpenAPI `pattern`: only one whose flags change nothing there. */
function patternOf(pattern: unknown, modifiers: unknown): string {
  const [source, flags] =
    pattern instanceof RegExp
      ? [pattern.source, pattern.flags]
      : [String(pattern), typeof modifiers === 'string' ? modifiers : ''];
  if (flags.replace(/[gu]/g, '') !== '')
    throw new Error(`the pattern /${source}/${flags} has flags an OpenAPI pattern cannot say`);
  return source;
}

/** A check's name: a ValidateBy check (IsInt, Length, a custom one) by its name, the others by their type. */
const nameOf = (m: ValidationMetadata) => m.name ?? m.type;

/** What one field's checks declare: of the field, and of each of its items. */
function declarationsOf(checks: ValidationMetadata[], where: string): { own: Schema; items: Schema } {
  const own: Schema = {};
  const items: Schema = {};
  for (const check of checks) {
    const name = nameOf(check);
    if (!(name in DECLARES))
      throw new Error(
        `${where}: the check ${name} is not declared in OpenAPI (common/declared-checks.ts DECLARES)`,
      );
    const declared = DECLARES[name]?.(check.constraints ?? []);
    if (!declared) continue;
    if (check.each) Object.assign(items, declared);
    else if (name === 'isNumber' && own.type === 'integer') continue;
    else Object.assign(own, declared);
  }
  return { own, items };
}

/** The OpenAPI item type of an array field `@ApiProperty({ type: [String] })` declares. */
function itemTypeOf(type: unknown): string | undefined {
  if (type === String) return 'string';
  if (type === Number) return 'number';
  if (type === Boolean) return 'boolean';
  return typeof type === 'string' && type !== 'array' ? type : undefined;
}

/**
 * The checks of a DTO (and of the DTOs nested in it), declared on its Swagger properties: the document says
 * what the validation pipe refuses (integer, bounds, lengths, patterns, enums, item counts and uniqueness), from
 * the one place each field says it. A field the DTO checks but does not declare is an error.
 */
function declareChecksOf(dto: Class, seen: Set<Class>): void {
  if (seen.has(dto)) return;
  seen.add(dto);
  const proto = dto.prototype as object;
  const byField = new Map<string, ValidationMetadata[]>();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false))
    byField.set(m.propertyName, [...(byField.get(m.propertyName) ?? []), m]);
  for (const [field, checks] of byField) {
    const declared = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, proto, field) as Schema | undefined;
    if (!declared) throw new Error(`${dto.name}.${field} is checked but not declared (@ApiProperty)`);
    const { own, items } = declarationsOf(checks, `${dto.name}.${field}`);
    const array = declared.isArray === true || declared.type === 'array';
    const next: Schema = { ...declared };
    if (array) {
      // Swagger moves a string's bounds of an array onto its items: each is declared where it applies.
      const { minItems, maxItems, uniqueItems, ...ofItems } = own;
      for (const [key, value] of Object.entries({ minItems, maxItems, uniqueItems }))
        if (value !== undefined) next[key] = value;
      const itemType = itemTypeOf(declared.type);
      next.items = {
        ...(itemType && !(declared.items as Schema | undefined)?.$ref ? { type: itemType } : {}),
        ...(declared.items as Schema | undefined),
        ...ofItems,
        ...items,
      };
    } else Object.assign(next, own);
    Reflect.defineMetadata(DECORATORS.API_MODEL_PROPERTIES, next, proto, field);
  }
  for (const nested of nestedTypesOf(dto)) declareChecksOf(nested, seen);
}

/** The DTOs each route's `@Body()` and `@Query()` take (what the validation pipe judges), with the nested ones. */
function routeInputs(app: INestApplication): { bodies: Set<Class>; queries: Set<Class> } {
  const bodies = new Set<Class>();
  const queries = new Set<Class>();
  for (const module of app.get(ModulesContainer).values())
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Class | null;
      if (!controller || excluded(Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller)))
        continue;
      const proto = controller.prototype as object;
      for (const method of Object.getOwnPropertyNames(proto)) {
        const handler = (proto as Record<string, unknown>)[method];
        if (
          typeof handler === 'function' &&
          excluded(Reflect.getMetadata(DECORATORS.API_EXCLUDE_ENDPOINT, handler))
        )
          continue;
        const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) as
          Record<string, { index: number; data?: unknown }> | undefined;
        const types = Reflect.getMetadata('design:paramtypes', proto, method) as unknown[] | undefined;
        for (const [key, arg] of Object.entries(args ?? {})) {
          const type = types?.[arg.index];
          // A whole body or query, as a DTO; `@Body('x')` or a primitive is not one.
          if (typeof type !== 'function' || arg.data !== undefined || !isDto(type as Class)) continue;
          if (key.startsWith(`${RouteParamtypes.BODY}:`)) bodies.add(type as Class);
          if (key.startsWith(`${RouteParamtypes.QUERY}:`)) queries.add(type as Class);
        }
      }
    }
  return { bodies, queries };
}

/** ApiExcludeController's `[true]`, ApiExcludeEndpoint's `{ disable: true }`: a route the document leaves out. */
const excluded = (mark: unknown) =>
  Array.isArray(mark) ? mark[0] === true : (mark as { disable?: boolean } | undefined)?.disable === true;

const isDto = (type: Class) =>
  getMetadataStorage().getTargetValidationMetadatas(type, '', true, false).length > 0;

/**
 * Before the document is built: every route input's checks declared on its Swagger properties. Returns the
 * body DTOs (and those nested in them), whose schemas `forbidUndeclaredFields` closes once it is built.
 */
export function declareChecks(app: INestApplication): Class[] {
  const { bodies, queries } = routeInputs(app);
  const seen = new Set<Class>();
  for (const dto of [...bodies, ...queries]) declareChecksOf(dto, seen);
  const closed = new Set<Class>();
  const close = (dto: Class) => {
    if (closed.has(dto)) return;
    closed.add(dto);
    nestedTypesOf(dto).forEach(close);
  };
  bodies.forEach(close);
  return [...closed];
}

/**
 * The validation pipe refuses a field a body DTO does not declare (422 UNKNOWN_FIELD): its schema says so,
 * `additionalProperties: false`, as the contract's command and sheet schemas do.
 */
export function forbidUndeclaredFields(doc: OpenAPIObject, bodies: Class[]): void {
  const schemas = doc.components?.schemas ?? {};
  for (const dto of bodies) {
    const schema = schemas[dto.name] as Schema | undefined;
    if (!schema) throw new Error(`the body ${dto.name} has no schema in the OpenAPI document`);
    schema.additionalProperties = false;
  }
}
