import { eventSchemasOf, jsonSchemaOf, SYSTEMS } from '@app/rules';
import { pascal } from './openapi-contract';

type Schema = Record<string, unknown>;

const ENVELOPE: Schema = {
  fightId: { type: 'string', format: 'uuid' },
  seq: { type: 'integer', minimum: 1, description: '1-based position in the fight’s log' },
  v: { type: 'integer', description: 'Event version' },
  at: { type: 'string', format: 'date-time' },
  actor: { type: 'string' },
  commandId: { type: 'string' },
  hash: {
    type: 'string',
    description: 'sha256(previous hash + RFC 8785 canonical JSON of this event without its hash)',
  },
};

function dataSchema(schema: Parameters<typeof jsonSchemaOf>[0]): Schema {
  const { $schema: _drop, ...rest } = jsonSchemaOf(schema, 'draft-7');
  return rest;
}

/** Each system's event types as schemas (`NarateerFightStarted`…), the refs to them and every type's name. */
function eventSchemas(): { schemas: Record<string, Schema>; eventRefs: Schema[]; seen: Set<string> } {
  const schemas: Record<string, Schema> = {};
  const eventRefs: Schema[] = [];
  const seen = new Set<string>();
  for (const system of Object.values(SYSTEMS)) {
    const prefix = pascal(system.id);
    for (const [type, data] of Object.entries(eventSchemasOf(system.contract))) {
      const name = `${prefix}${type}`;
      schemas[name] = {
        type: 'object',
        additionalProperties: false,
        required: ['fightId', 'seq', 'type', 'v', 'at', 'actor', 'commandId', 'data', 'hash'],
        properties: { ...ENVELOPE, type: { const: type }, data: dataSchema(data) },
        description: `${type} in a ${system.name} fight.`,
      };
      eventRefs.push({ $ref: `#/components/schemas/${name}` });
      seen.add(type);
    }
  }
  return { schemas, eventRefs, seen };
}

/** A fight event as a webhook delivers it: the Standard Webhooks headers, the event in its envelope. */
function webhookFightEvent(seen: Set<string>): Schema {
  return {
    name: 'WebhookFightEvent',
    title: 'A fight event delivered by webhook',
    summary: 'Signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature headers).',
    contentType: 'application/json',
    headers: {
      type: 'object',
      required: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
      properties: {
        'webhook-id': { type: 'string' },
        'webhook-timestamp': { type: 'string' },
        'webhook-signature': { type: 'string' },
      },
    },
    payload: {
      type: 'object',
      required: ['type', 'timestamp', 'data'],
      properties: {
        type: { type: 'string', enum: [...seen].sort(), description: 'The event type.' },
        timestamp: { type: 'string', format: 'date-time' },
        data: {
          type: 'object',
          required: ['fightId', 'seq', 'event'],
          properties: {
            fightId: { type: 'string' },
            seq: { type: 'integer' },
            event: { $ref: '#/components/schemas/FightEvent' },
            overlay: {
              type: ['object', 'null'],
              description: 'What an overlay draws, the same for every system.',
            },
            view: { type: ['object', 'null'], description: 'The fight view after the event.' },
          },
        },
      },
    },
  };
}

/** Every message the service pushes, by name: fight events (SSE, graphql-ws, webhooks), the stream's end, pings, views. */
function pushedMessages(seen: Set<string>): Record<string, Schema> {
  const messages: Record<string, Schema> = {};
  messages.FightEvent = {
    name: 'FightEvent',
    title: 'A fight event',
    summary:
      'One event of the fight’s log, in seq order. SSE: `id` is the seq, `event` the event type; graphql-ws: the `fightEvents` subscription.',
    contentType: 'application/json',
    payload: { $ref: '#/components/schemas/FightEvent' },
  };
  messages.WebhookFightEvent = webhookFightEvent(seen);
  const errorShape = {
    type: 'object',
    required: ['statusCode', 'code', 'message'],
    properties: {
      statusCode: { type: 'integer' },
      code: { type: 'string' },
      message: { type: 'string' },
      field: { type: 'string' },
    },
  };
  messages.StreamEnded = {
    name: 'StreamEnded',
    title: 'The stream ends',
    summary:
      'SSE `event: error` (TOKEN_EXPIRED, CREDENTIALS_REVOKED, STREAM_FAILED) or `event: shutdown` (SERVER_SHUTTING_DOWN: reconnect after `retry:` with Last-Event-ID), in the one error shape, then the stream closes.',
    contentType: 'application/json',
    payload: errorShape,
  };
  messages.WebhookPing = {
    name: 'WebhookPing',
    contentType: 'application/json',
    payload: {
      type: 'object',
      required: ['type', 'timestamp', 'data'],
      properties: {
        type: { const: 'webhook.ping' },
        timestamp: { type: 'string', format: 'date-time' },
        data: { type: 'object', properties: { endpointId: { type: 'string' } } },
      },
    },
  };
  messages.FightView = {
    name: 'FightView',
    summary: 'The fight view now, then after each change (graphql-ws `fightView`).',
    contentType: 'application/json',
    payload: {
      type: 'object',
      required: ['fightId', 'seq', 'view'],
      properties: { fightId: { type: 'string' }, seq: { type: 'integer' }, view: { type: 'object' } },
    },
  };
  return messages;
}

/** Where the messages go: the SSE stream of a fight, the graphql-ws endpoint, each webhook endpoint. */
function channels(): Schema {
  return {
    fightStream: {
      address: '/fights/{fightId}/stream',
      title: 'Server-Sent Events of one fight',
      description:
        'GET with a key or token; resume with Last-Event-ID or ?after=<seq>. Each message: `id: <seq>`, `event: <type>`, `data: <FightEvent JSON>`; with `?messages=unnamed` no `event:` line, so EventSource.onmessage receives every event.',
      parameters: { fightId: { description: 'The fight id' } },
      messages: {
        fightEvent: { $ref: '#/components/messages/FightEvent' },
        streamEnded: { $ref: '#/components/messages/StreamEnded' },
      },
    },
    fightEventsSubscription: {
      address: '/graphql',
      title: 'GraphQL subscriptions over graphql-ws',
      description:
        '`subscription { fightEvents(fightId, after) { … } }` and `fightView(fightId)`; authenticate with connectionParams.authorization.',
      messages: {
        fightEvent: { $ref: '#/components/messages/FightEvent' },
        fightView: { $ref: '#/components/messages/FightView' },
      },
    },
    webhook: {
      address: '{endpointUrl}',
      title: 'Webhook deliveries',
      description:
        'POSTed to each registered endpoint whose eventTypes filter admits the event, at least once, in seq order per fight.',
      parameters: { endpointUrl: { description: 'The URL registered with POST /webhooks/endpoints' } },
      messages: {
        fightEvent: { $ref: '#/components/messages/WebhookFightEvent' },
        ping: { $ref: '#/components/messages/WebhookPing' },
      },
    },
  };
}

/** Who sends and who receives on each channel. */
function operations(): Schema {
  return {
    receiveFightStream: {
      action: 'receive',
      channel: { $ref: '#/channels/fightStream' },
      summary: 'A client reads a fight’s events over SSE.',
      description:
        'GET /fights/{fightId}/stream: every event after Last-Event-ID (or ?after=), then each as it is appended, until FightEnded, after which the response ends (resumed at FightEnded, the answer is 204 No Content: nothing follows it); it ends with streamEnded when its key or token stops working, the stream fails or the service shuts down.',
      messages: [
        { $ref: '#/channels/fightStream/messages/fightEvent' },
        { $ref: '#/channels/fightStream/messages/streamEnded' },
      ],
    },
    receiveFightSubscription: {
      action: 'receive',
      channel: { $ref: '#/channels/fightEventsSubscription' },
      summary: 'A client receives subscription results over graphql-ws.',
      description:
        'The fightEvents subscription delivers each event as it is appended; fightView delivers the fight view after each change. Both are completed once the fight has ended (after FightEnded, after the ended view), or end with an error whose code says why (TOKEN_EXPIRED, CREDENTIALS_REVOKED, …).',
      messages: [
        { $ref: '#/channels/fightEventsSubscription/messages/fightEvent' },
        { $ref: '#/channels/fightEventsSubscription/messages/fightView' },
      ],
    },
    sendWebhook: {
      action: 'send',
      channel: { $ref: '#/channels/webhook' },
      summary: 'The service delivers events to webhook endpoints.',
      description:
        'A POST per event to each enabled endpoint whose filter takes it, signed (webhook-id, webhook-timestamp, webhook-signature), retried with backoff until a 2xx; a ping when asked.',
      messages: [
        { $ref: '#/channels/webhook/messages/fightEvent' },
        { $ref: '#/channels/webhook/messages/ping' },
      ],
    },
  };
}

/**
 * The AsyncAPI 3 document of everything the service pushes: the events of a fight over SSE, graphql-ws
 * and webhooks, every event type with its payload schema, generated from the same declarations as the
 * commands (libs/rules contracts). Written to schema/asyncapi.json and served at /asyncapi.json.
 */
export function asyncApiDocument(): Record<string, unknown> {
  const { schemas, eventRefs, seen } = eventSchemas();
  schemas.FightEvent = {
    description: 'An event of a fight of any system, as the log holds it (`type` names its schema).',
    anyOf: eventRefs,
  };
  const messages = pushedMessages(seen);
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Combat rules service: what it pushes',
      version: '0.1.0',
      license: { name: 'UNLICENSED' },
      tags: [
        { name: 'fights', description: 'The events of a fight, live.' },
        { name: 'webhooks', description: 'Deliveries to a tenant’s endpoints.' },
      ],
      description:
        'Every event of a fight, live: over Server-Sent Events, GraphQL subscriptions (graphql-ws) and webhooks. Event payloads are generated from the rule systems’ declarations; GET /systems/:id serves the same schemas.',
    },
    defaultContentType: 'application/json',
    servers: {
      local: {
        host: 'localhost:3000',
        protocol: 'http',
        description: 'A local service (npm start): SSE at /fights/{fightId}/stream, graphql-ws at /graphql.',
      },
    },
    channels: channels(),
    operations: operations(),
    components: { schemas, messages },
  };
}
