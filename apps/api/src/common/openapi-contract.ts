import { LOG_FORMAT } from '@app/audit';
import type { OpenAPIObject } from '@nestjs/swagger';
import { eventSchemasOf, FightCore, jsonSchemaOf, RuleSystem, SYSTEMS, withEnvelope } from '@app/rules';
import { COMMAND_EXAMPLES } from './command-examples';

type Schema = Record<string, unknown>;
type Operation = {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  responses: Record<string, Schema>;
  tags?: string[];
  parameters?: unknown[];
  requestBody?: unknown;
};

/** Stable operation ids a generated client names its functions by; METHOD path → id. */
const OPERATION_IDS: Record<string, string> = {
  'POST /fights': 'createFight',
  'GET /fights': 'listFights',
  'GET /fights/{id}': 'getFight',
  'GET /fights/{id}/log': 'exportFightLog',
  'GET /fights/{id}/combatants': 'listCombatants',
  'GET /fights/{id}/events': 'listFightEvents',
  'POST /fights/{id}/commands': 'sendCommand',
  'GET /fights/{id}/stream': 'streamFightEvents',
  'GET /systems': 'listSystems',
  'GET /systems/{id}': 'getSystem',
  'GET /asyncapi.json': 'getAsyncApiDocument',
  'GET /projections': 'getProjectionStatus',
  'POST /audit/verify': 'verifyFightLog',
  'POST /admin/tenants': 'createTenant',
  'GET /admin/tenants': 'listTenants',
  'POST /admin/tenants/{tenantId}/keys': 'issueApiKey',
  'GET /admin/keys': 'listApiKeys',
  'DELETE /admin/keys/{keyId}': 'revokeApiKey',
  'POST /admin/keys/{keyId}/rotate': 'rotateApiKey',
  'POST /fights/{id}/tokens': 'issueFightToken',
  'GET /fights/{id}/tokens': 'listFightTokens',
  'DELETE /fights/{id}/tokens/{tokenId}': 'revokeFightToken',
  'GET /health/live': 'getLiveness',
  'GET /health/ready': 'getReadiness',
  'GET /metrics': 'getMetrics',
  'POST /lab/runs': 'startLabRun',
  'GET /lab/runs/{id}': 'getLabRun',
  'POST /webhooks/endpoints': 'createWebhookEndpoint',
  'GET /webhooks/endpoints': 'listWebhookEndpoints',
  'GET /webhooks/endpoints/{endpointId}': 'getWebhookEndpoint',
  'PATCH /webhooks/endpoints/{endpointId}': 'updateWebhookEndpoint',
  'DELETE /webhooks/endpoints/{endpointId}': 'deleteWebhookEndpoint',
  'POST /webhooks/endpoints/{endpointId}/rotate-secret': 'rotateWebhookSecret',
  'POST /webhooks/endpoints/{endpointId}/ping': 'pingWebhookEndpoint',
  'GET /webhooks/endpoints/{endpointId}/deliveries': 'listWebhookDeliveries',
  'GET /webhooks/endpoints/{endpointId}/deliveries/{deliveryId}': 'getWebhookDelivery',
  'POST /webhooks/endpoints/{endpointId}/deliveries/{deliveryId}/redeliver': 'redeliverWebhookDelivery',
  'POST /webhooks/endpoints/{endpointId}/redeliver': 'redeliverWebhookDeliveriesSince',
};

/**
 * The one rule for bad input (README "Errors"): 400 when the request cannot be read, 422 when a readable
 * body's fields break the route's declaration. Every operation with a body or a parameter declares both.
 */
const UNREADABLE =
  'The request cannot be read: the body is not JSON (INVALID_JSON), not a JSON object (VALIDATION_FAILED, field `body`), nests deeper than 64 levels (BODY_TOO_DEEP) or holds a string no engine can store (INVALID_STRING, field names it); or a query or path parameter is malformed or not one this route declares (VALIDATION_FAILED or INVALID_STRING, field names it); or Host, Content-Type or Authorization is sent more than once (BAD_REQUEST, field names the header); or a GET or HEAD carries a body (BODY_NOT_ALLOWED, field `body`).';
const BREAKS_DECLARATION =
  'A readable JSON body whose fields break this route’s declaration: UNKNOWN_FIELD or INVALID_FIELD, `field` the first failing field as a path (`combatants[0].name`, `dice.mode`), `issues` every one, unknown fields first.';
const TAKES_NO_BODY =
  'This route takes no body: a JSON body with fields is refused, UNKNOWN_FIELD naming the first, `issues` every one.';
/** What else an operation answers 400 or 422 with, beside the rule. */
const MORE_400: Record<string, string> = {
  verifyFightLog:
    'LOG_FORMAT_INVALID: the body cannot be read as a fight log (not JSON or NDJSON, empty, a body that is not an object; `field` names the line).',
};
const MORE_422: Record<string, string> = {
  verifyFightLog:
    'LOG_FORMAT_INVALID: a readable log whose fields break the log format (`field` names the first, e.g. `entries[3].seq`).',
  startLabRun:
    'LAB_UNKNOWN_STRATEGY, LAB_DUPLICATE_STRATEGY, LAB_SHEETS_INVALID: the lab’s own checks of a field.',
};

/** Routes anyone may call: no key or token. */
const PUBLIC = /^\/(systems|health|metrics|asyncapi\.json)(\/|$)/;

/** `narateer` → `Narateer`, `arcana-beast` → `ArcanaBeast`. */
export function pascal(id: string): string {
  return id.replace(/(^|-)([a-z])/g, (_, _dash, c: string) => c.toUpperCase());
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** An OpenAPI 3.0 schema of a zod declaration: no `$schema`, definitions inlined. */
function openapiSchema(schema: Parameters<typeof jsonSchemaOf>[0]): Schema {
  const { $schema: _drop, ...rest } = jsonSchemaOf(schema, 'openapi-3.0');
  return withoutRepeats(rest) as Schema;
}

/**
 * OpenAPI 3.0 has no `prefixItems`, so a tuple's items are `anyOf` its members: a pair of points is
 * `anyOf: [point, point]`, which linters rightly call illogical. The same member once is the same set of
 * values; one left is the schema itself.
 */
function withoutRepeats(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRepeats);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = withoutRepeats(v);
  if (!Array.isArray(out.anyOf)) return out;
  const seen = new Set<string>();
  const members = (out.anyOf as unknown[]).filter((m) => {
    const text = JSON.stringify(m);
    return !seen.has(text) && seen.add(text);
  });
  const { anyOf: _members, ...rest } = out;
  if (members.length > 1) return { ...rest, anyOf: members };
  const [only] = members as Array<Record<string, unknown>>;
  return Object.keys(rest).some((key) => key in only) ? { ...rest, allOf: [only] } : { ...rest, ...only };
}

const ENVELOPE_FIELDS: Schema = {
  fightId: { type: 'string', format: 'uuid' },
  seq: { type: 'integer', minimum: 1, description: '1-based position in the fight’s log' },
  v: { type: 'integer', description: 'Event version' },
  at: { type: 'string', format: 'date-time', description: 'Server time, ISO 8601' },
  actor: { type: 'string' },
  commandId: { type: 'string' },
  hash: {
    type: 'string',
    description: 'sha256(previous hash + RFC 8785 canonical JSON of this event without its hash)',
  },
};

/** The schemas of one system: each command (with its envelope), each event, the sheet and the unions over them. */
function systemSchemas(
  system: RuleSystem<FightCore>,
  out: Record<string, Schema>,
): { command: string; event: string; sheet: string; view?: string } {
  const name = pascal(system.id);
  const commandRefs: Record<string, string> = {};
  for (const [type, schema] of Object.entries(system.contract.commands)) {
    if (type === 'StartFight') continue; // POST /fights sends it
    const key = `${name}${type}Command`;
    out[key] = openapiSchema(withEnvelope(schema));
    const example = COMMAND_EXAMPLES[system.id]?.[type];
    if (example) out[key].example = example.command;
    commandRefs[type] = `#/components/schemas/${key}`;
  }
  out[`${name}Command`] = {
    description: `A ${system.name} command: one of its command types, with exactly the fields it declares.`,
    oneOf: Object.values(commandRefs).map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'type', mapping: commandRefs },
  };
  const eventRefs: Record<string, string> = {};
  for (const [type, data] of Object.entries(eventSchemasOf(system.contract))) {
    const key = `${name}${type}Event`;
    out[key] = {
      type: 'object',
      additionalProperties: false,
      required: ['fightId', 'seq', 'type', 'v', 'at', 'actor', 'commandId', 'data', 'hash'],
      properties: { ...ENVELOPE_FIELDS, type: { type: 'string', enum: [type] }, data: openapiSchema(data) },
    };
    eventRefs[type] = `#/components/schemas/${key}`;
  }
  out[`${name}Event`] = {
    description: `An event of a ${system.name} fight, by type.`,
    oneOf: Object.values(eventRefs).map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'type', mapping: eventRefs },
  };
  out[`${name}Sheet`] = openapiSchema(system.contract.sheet);
  let view: string | undefined;
  if (system.contract.view) {
    const schema = openapiSchema(system.contract.view) as { properties?: Record<string, Schema> };
    // One system per view: `system` discriminates the views of all systems.
    if (schema.properties?.system) schema.properties.system = { type: 'string', enum: [system.id] };
    out[(view = `${name}View`)] = schema;
  }
  return { command: `${name}Command`, event: `${name}Event`, sheet: `${name}Sheet`, view };
}

type Schemas = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>;
type SystemRefs = ReturnType<typeof systemSchemas>;

/** The unions over the systems: any system's command, event and sheet, and the fight view by `system`. */
function publishUnions(schemas: Schemas, bySystem: SystemRefs[]): void {
  schemas.Command = {
    description: 'A command of the fight’s system (GET /systems/:id lists them, with their JSON Schemas).',
    anyOf: bySystem.map((s) => ref(s.command)),
  };
  schemas.FightEvent = {
    description: 'An event of any system’s fight, by type.',
    anyOf: bySystem.map((s) => ref(s.event)),
  };
  schemas.Sheet = {
    description: 'A combatant sheet of the fight’s system.',
    anyOf: bySystem.map((s) => ref(s.sheet)),
  };
  const views: Array<[string, string]> = [];
  Object.values(SYSTEMS).forEach((sys, i) => {
    const view = bySystem[i].view;
    if (view) views.push([sys.id, view]);
  });
  if (views.length === bySystem.length) {
    schemas.FightView = {
      description: 'What a frontend renders: the fight view of its system (`system` tells which).',
      oneOf: views.map(([, v]) => ref(v)),
      discriminator: {
        propertyName: 'system',
        mapping: Object.fromEntries(views.map(([id, v]) => [id, `#/components/schemas/${v}`])),
      },
    };
    for (const model of ['FightModel', 'CommandResultModel']) {
      const props = (schemas[model] as { properties?: Record<string, unknown> } | undefined)?.properties;
      // A $ref alone: OpenAPI 3.0 ignores what stands beside one, and an allOf around it would make
      // generated clients drop the discriminator (`system`) from the type.
      if (props?.view) props.view = ref('FightView');
    }
  }
}

/** How a client authenticates (a key or token, as a bearer or a query parameter), where the service runs. */
function declareSecurity(doc: OpenAPIObject): void {
  (doc.components ??= {}).securitySchemes = {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description:
        'An API key (`crs_…`: the operator’s or a tenant’s) or a fight token (`crt_…`: GM, player or spectator).',
    },
    token: {
      type: 'apiKey',
      in: 'query',
      name: 'token',
      description:
        'The same key or token as a query parameter, for clients that cannot set headers (EventSource, an overlay URL).',
    },
  };
  doc.security = [{ bearer: [] }, { token: [] }];
  doc.servers = [
    {
      url: '/',
      description:
        'The service that serves this document (a local one, `npm start`, is http://localhost:3000)',
    },
  ];
  doc.info.license = { name: 'UNLICENSED' };
}

/** The answers of a route that needs a key or token: 401, 403, 429 and 503 (none on a public route). */
function declareAccessErrors(path: string, op: Operation): void {
  if (PUBLIC.test(path)) op.security = [];
  else {
    op.responses['401'] ??= {
      description:
        'No valid key or token, or an Authorization header without the Bearer scheme (WWW-Authenticate: Bearer).',
      content: { 'application/json': { schema: ref('ErrorModel') } },
    };
    op.responses['403'] ??= {
      description: 'The key or token may not do this (FORBIDDEN, GM_ONLY_FIELD, NOT_YOUR_COMBATANT).',
      content: { 'application/json': { schema: ref('ErrorModel') } },
    };
    op.responses['429'] ??= {
      description: 'Rate limited (RATE_LIMITED); Retry-After says when to try again.',
      content: { 'application/json': { schema: ref('ErrorModel') } },
    };
  }
  if (!PUBLIC.test(path))
    op.responses['503'] ??= {
      description:
        'The store is unreachable, or cannot take the request for now: its disk full, read-only, busy (STORE_UNAVAILABLE); Retry-After says when to try again.',
      content: { 'application/json': { schema: ref('ErrorModel') } },
    };
}

/**
 * The answers to bad input (README "Errors"): 400 and 422 by the one rule, 415 and 413 for a body. Every route
 * refuses a query parameter it does not declare (400), and every route a body may be sent to refuses fields it
 * does not declare (422), also one that takes no body.
 */
function declareInputErrors(method: string, op: Operation): void {
  const error = { content: { 'application/json': { schema: ref('ErrorModel') } } };
  const id = op.operationId ?? '';
  op.responses['400'] = { ...error, description: [UNREADABLE, MORE_400[id]].filter(Boolean).join(' ') };
  if (op.requestBody || method !== 'get') {
    const declared: unknown = op.responses['422']?.description;
    op.responses['422'] = {
      ...error,
      description: [
        op.requestBody ? BREAKS_DECLARATION : TAKES_NO_BODY,
        MORE_422[id],
        typeof declared === 'string' && declared ? `Or: ${declared}` : '',
      ]
        .filter(Boolean)
        .join(' '),
    };
  }
  if (method === 'post' || method === 'patch')
    op.responses['415'] ??= {
      description:
        'The body is not JSON, or its Content-Type cannot be read by RFC 9110 or names its charset twice (UNSUPPORTED_MEDIA_TYPE, field content-type).',
      content: { 'application/json': { schema: ref('ErrorModel') } },
    };
  if (method === 'post' || method === 'patch')
    op.responses['413'] ??= {
      description: 'The body is larger than BODY_LIMIT (PAYLOAD_TOO_LARGE).',
      content: { 'application/json': { schema: ref('ErrorModel') } },
    };
}

/** Each operation's stable id and summary, its security and the error answers it can give. */
function declareOperations(doc: OpenAPIObject): void {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      const key = `${method.toUpperCase()} ${path}`;
      if (OPERATION_IDS[key]) op.operationId = OPERATION_IDS[key];
      op.summary ??= op.operationId;
      declareAccessErrors(path, op);
      declareInputErrors(method, op);
    }
  }
}

/** Events typed by system wherever a response or body carries them (FightEventModel → FightEvent). */
function retypeEvents(doc: OpenAPIObject, schemas: Schemas): void {
  const retype = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(retype);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.$ref === '#/components/schemas/FightEventModel') o.$ref = '#/components/schemas/FightEvent';
    for (const v of Object.values(o)) retype(v);
  };
  retype(doc.paths);
  retype(schemas);
  delete schemas.FightEventModel;
}

/** Sheets typed by system in a new fight's combatants, commands by system in POST /fights/{id}/commands. */
function typeInputs(doc: OpenAPIObject, schemas: Schemas): void {
  schemas.CombatantInput = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'sheet'],
    properties: {
      id: {
        type: 'string',
        pattern: '^[A-Za-z0-9_-]{1,64}$',
        description: 'Unique in the fight; default c1, c2, …',
      },
      name: { type: 'string', minLength: 1, maxLength: 100 },
      side: {
        type: 'string',
        pattern: '^[A-Za-z0-9_-]{1,40}$',
        description: 'Opponents are combatants on other sides; default "default".',
      },
      sheet: ref('Sheet'),
    },
  };
  const create = schemas.CreateFightInput as { properties?: Record<string, Schema> } | undefined;
  if (create?.properties?.combatants)
    create.properties.combatants = {
      type: 'array',
      maxItems: 200,
      items: ref('CombatantInput'),
      description:
        'The first combatants; each sheet follows the system (GET /systems/:id gives its JSON Schema).',
    };
  const send = (doc.paths['/fights/{id}/commands'] as Record<string, { requestBody?: unknown }> | undefined)
    ?.post;
  if (send)
    send.requestBody = {
      required: true,
      content: { 'application/json': { schema: ref('Command'), examples: commandExamples() } },
    };
}

/**
 * The contract published in OpenAPI: commands as a `oneOf` per system with a discriminator on `type`,
 * events typed by type, sheets by system; security schemes; operation ids a generated client uses.
 */
export function publishContract(doc: OpenAPIObject): OpenAPIObject {
  const schemas = ((doc.components ??= {}).schemas ??= {});
  const bySystem = Object.values(SYSTEMS).map((s) => systemSchemas(s, schemas as Record<string, Schema>));
  publishUnions(schemas, bySystem);
  declareSecurity(doc);
  // Before the operations' error answers: a command's body is declared here, and its 422 says what breaks it.
  typeInputs(doc, schemas);
  declareOperations(doc);
  declareHeaders(doc);
  errorsAsJson(doc);
  declareFightLog(doc, schemas);
  retypeEvents(doc, schemas);
  describeOperations(doc);
  describeEmptyAnswers(doc);
  return doc;
}

/** What an answer a route declares without words means, by its status: no response is left undescribed. */
const ANSWER_BY_STATUS: Record<string, string> = {
  '200': 'OK: the result, as the schema declares.',
  '201': 'Created: the new resource, as the schema declares.',
  '202': 'Accepted: the work goes on after the answer; the body says where to follow it.',
  '403':
    'Forbidden: this key or token may not do this (FORBIDDEN, ADMIN_ONLY, TENANT_ONLY, GM_ONLY or NOT_YOUR_COMBATANT; `field` names what).',
  '404':
    'Not found, or not this tenant’s: `code` names what (FIGHT_NOT_FOUND, SYSTEM_NOT_FOUND, TOKEN_NOT_FOUND, KEY_NOT_FOUND, …), `field` the parameter.',
};

function describeEmptyAnswers(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item as Record<string, Operation>))
      for (const [status, response] of Object.entries(op.responses ?? {}))
        if (!response.description && ANSWER_BY_STATUS[status])
          response.description = ANSWER_BY_STATUS[status];
}

/**
 * Every refusal is the error JSON (AllExceptionsFilter), whatever the route produces when it succeeds: a
 * stream's 404 or an NDJSON log's 404 is application/json, not text/event-stream or application/x-ndjson.
 */
function errorsAsJson(doc: OpenAPIObject): void {
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item as Record<string, Operation>))
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const content = response.content as Record<string, { schema?: { $ref?: string } }> | undefined;
        if (Number(status) < 400 || !content) continue;
        if (Object.values(content).some((m) => m.schema?.$ref === '#/components/schemas/ErrorModel'))
          response.content = { 'application/json': { schema: ref('ErrorModel') } };
      }
}

/**
 * The fight log of GET /fights/{id}/log (LOG_FORMAT, libs/audit/src/log.ts): as one JSON
 * document, or as NDJSON, whose first line is the header (the log without `entries`) and each next line an entry.
 */
function declareFightLog(doc: OpenAPIObject, schemas: Schemas): void {
  const header: Record<string, Schema> = {
    format: { type: 'string', enum: [LOG_FORMAT] },
    fightId: { type: 'string', format: 'uuid' },
    system: { type: 'string', description: 'The rule system id.' },
    dice: {
      type: 'object',
      additionalProperties: false,
      required: ['mode', 'commitment', 'clientSeed'],
      properties: {
        mode: { type: 'string', enum: ['fair', 'seeded', 'manual'] },
        commitment: { type: 'string', description: 'sha256 of the seed, published when the fight started' },
        clientSeed: { type: 'string' },
        seed: { type: 'string', description: 'The seed, once the fight has ended and revealed it' },
      },
    },
    events: { type: 'integer', minimum: 1, description: 'How many entries the log holds' },
    headHash: { type: 'string', description: 'The hash of the last entry' },
    viewVersion: {
      type: 'integer',
      minimum: 1,
      description:
        'The view version of the rule system that made view. POST /audit/verify compares the view only with one of the same version: under another, or none (a log exported before views were versioned), its view check is skipped and viewMatches is not proven; the events the view derives from are still verified.',
    },
    view: {
      type: 'object',
      additionalProperties: true,
      description: 'The fight view folded at the head (the fight view of its system, with seq and headHash)',
    },
  };
  // Logs exported before views were versioned have no viewVersion, and still read.
  const required = Object.keys(header).filter((k) => k !== 'viewVersion');
  schemas.FightLogHeader = {
    type: 'object',
    description: 'A fight log without its entries: the first line of its NDJSON form.',
    additionalProperties: false,
    required,
    properties: header,
  };
  schemas.FightLogEntry = {
    type: 'object',
    description:
      'One event of the log with what the auditor needs to decide it again: the dice draws used after it and, on the first event of each command, the command as decided.',
    additionalProperties: false,
    required: ['fightId', 'seq', 'type', 'v', 'at', 'actor', 'commandId', 'data', 'hash', 'drawsUsed'],
    properties: {
      ...ENVELOPE_FIELDS,
      type: { type: 'string', description: 'The event type (the event schemas of the system give its data)' },
      data: { type: 'object', additionalProperties: true },
      drawsUsed: {
        type: 'integer',
        minimum: 0,
        description: 'Dice draws the fight had used after this event',
      },
      command: {
        type: 'object',
        additionalProperties: true,
        description: 'On the first event of each command only: the command as decided',
      },
    },
  };
  schemas.FightLog = {
    type: 'object',
    description: 'A whole fight for offline verification (POST /audit/verify takes it back).',
    additionalProperties: false,
    required: [...required, 'entries'],
    properties: { ...header, entries: { type: 'array', items: ref('FightLogEntry') } },
  };
  const ok = (doc.paths['/fights/{id}/log'] as Record<string, Operation> | undefined)?.get?.responses['200'];
  if (ok)
    ok.content = {
      'application/json': { schema: ref('FightLog') },
      'application/x-ndjson': {
        schema: {
          description: 'Each line: the first is the FightLogHeader, every next one a FightLogEntry.',
          anyOf: [ref('FightLogHeader'), ref('FightLogEntry')],
        },
      },
    };
}

/** What each tag groups, for the document's tag list (every tag an operation uses is declared here). */
const TAGS: Record<string, string> = {
  fights:
    'Create fights, send commands, read views, events and logs; stream a fight; issue player and spectator tokens.',
  systems: 'The rule systems: their data, rulings and the JSON Schema of every command, event and sheet.',
  audit: 'Verify a fight log offline: the hash chain, the seed, every die and decision re-run.',
  webhooks: 'Endpoints that receive a tenant’s fight events, signed; their delivery logs and redelivery.',
  admin: 'The operator’s routes: tenants and their API keys.',
  lab: 'The Combat Lab: many seeded fights between strategies, in the background.',
  operations: 'Liveness, readiness, metrics and the read side’s lag.',
};

/**
 * Every operation has a short summary (what a list of operations shows) and a description (the whole
 * sentence, where the summary was one); every tag an operation uses is declared with what it groups.
 */
function describeOperations(doc: OpenAPIObject): void {
  const used = new Set<string>();
  for (const item of Object.values(doc.paths))
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const op = item[method];
      if (!op) continue;
      for (const tag of op.tags ?? []) used.add(tag);
      if (op.description || !op.summary) continue;
      op.description = op.summary;
      op.summary = op.summary.split(/: |; | \(/)[0];
    }
  // A tag TAGS does not describe (a controller an embedding app adds, as the benchmark's) is declared bare; the
  // published document's tags are all described (test/contract-documents.e2e.spec.ts).
  doc.tags = [...used].sort().map((name) => (TAGS[name] ? { name, description: TAGS[name] } : { name }));
}

/** The list operations: cursor paging (common/pagination.ts), the next page in Link and X-Next-Cursor. */
const PAGED = new Set([
  'listFights',
  'listFightEvents',
  'listWebhookDeliveries',
  'listTenants',
  'listApiKeys',
  'listFightTokens',
  'listWebhookEndpoints',
]);
/** Answers that are a fight's state: the ETag is that state's (the same as GET /fights/{id} gives for it). */
const FIGHT_STATE = new Set(['getFight', 'createFight', 'sendCommand']);
/** Answers read once the read side holds every write committed before the request, or said to be stale. */
const READ_YOUR_WRITES = new Set(['listFights']);

const HEADERS: Record<string, { description: string; schema: Schema }> = {
  XRequestId: {
    description:
      'The request id: the one sent in X-Request-Id (when it is a safe token), else a new one; in every log line of the request.',
    schema: { type: 'string', maxLength: 128 },
  },
  Location: {
    description: 'Where what was created (201) or accepted (202) can be read.',
    schema: { type: 'string', format: 'uri-reference' },
  },
  ETag: {
    description:
      'The entity tag of this representation: If-None-Match with it answers 304 Not Modified while it is current.',
    schema: { type: 'string' },
  },
  FightETag: {
    description:
      'The fight state’s entity tag, W/"<seq>-<headHash>": the same for the answer of a command or a creation as GET /fights/{id} gives for that state, so If-None-Match with it answers 304 until the fight moves on.',
    schema: { type: 'string', pattern: '^W/"[0-9]+-[0-9a-f]{64}"$' },
  },
  Link: {
    description:
      'The next page, when there is one: `<url>; rel="next"` (RFC 8288). The url keeps the filters and limit and carries the cursor.',
    schema: { type: 'string' },
  },
  XNextCursor: {
    description: 'The next page’s cursor, when there is one: pass it back as ?cursor=. Opaque.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
  },
  XReadModelStale: {
    description:
      'Sent only when the read side had not folded every write committed before the request within 2 s: the answer is the read model as it stood, and may miss such a write. Ask again.',
    schema: { type: 'string', enum: ['true'] },
  },
  RateLimit: {
    description:
      'IETF RateLimit (draft-ietf-httpapi-ratelimit-headers): `"key";r=<remaining>;t=<seconds to reset>`.',
    schema: { type: 'string' },
  },
  RateLimitPolicy: {
    description: 'IETF RateLimit-Policy: `"key";q=<requests>;w=<window seconds>`.',
    schema: { type: 'string' },
  },
  RetryAfter: {
    description: 'Seconds to wait before trying again (RFC 9110).',
    schema: { type: 'integer', minimum: 0 },
  },
  WWWAuthenticate: {
    description:
      'The scheme to authenticate with (RFC 6750): `Bearer`, or `Bearer error="invalid_token"` for a key or token that is not (or no longer) valid.',
    schema: { type: 'string' },
  },
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * Every response header a client may read, declared on the responses that carry it: X-Request-Id on
 * every answer, Location on 201/202, ETag on representations, Link and X-Next-Cursor on lists (and
 * X-Read-Model-Stale on the fight list), the
 * rate-limit headers and Retry-After on 429 (and Retry-After on 503), WWW-Authenticate on 401.
 */
function declareHeaders(doc: OpenAPIObject): void {
  (doc.components ??= {}).headers = { ...HEADERS };
  for (const item of Object.values(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      for (const [status, response] of Object.entries(op.responses)) {
        const headers: Record<string, unknown> = { 'X-Request-Id': header('XRequestId') };
        const ok = /^2/.test(status);
        if (status === '201' || status === '202') headers.Location = header('Location');
        if (ok && status !== '204' && FIGHT_STATE.has(op.operationId ?? ''))
          headers.ETag = header('FightETag');
        else if (ok && status !== '204' && status !== '202' && (method === 'get' || method === 'patch'))
          headers.ETag = header('ETag');
        if (ok && PAGED.has(op.operationId ?? ''))
          Object.assign(headers, { Link: header('Link'), 'X-Next-Cursor': header('XNextCursor') });
        if (ok && READ_YOUR_WRITES.has(op.operationId ?? ''))
          headers['X-Read-Model-Stale'] = header('XReadModelStale');
        if (status === '429')
          Object.assign(headers, {
            RateLimit: header('RateLimit'),
            'RateLimit-Policy': header('RateLimitPolicy'),
            'Retry-After': header('RetryAfter'),
          });
        if (status === '503') headers['Retry-After'] = header('RetryAfter');
        if (status === '401') headers['WWW-Authenticate'] = header('WWWAuthenticate');
        response.headers = { ...(response.headers ?? {}), ...headers };
      }
    }
  }
}

/** The command examples, each one played in a recorded fight (command-examples.ts), named by system and type. */
function commandExamples(): Record<string, { summary: string; value: unknown }> {
  const out: Record<string, { summary: string; value: unknown }> = {};
  for (const [system, byType] of Object.entries(COMMAND_EXAMPLES)) {
    for (const [type, { fixture, command }] of Object.entries(byType))
      out[`${system}-${type}`] = {
        summary: `${system}: ${type} (played in the ${fixture} fixture)`,
        value: command,
      };
  }
  return out;
}
