import type { EventEmitter } from 'node:events';
import { jsonTextOf } from '../common/body-checks';

/**
 * Where an operation's variables were written: the JSON text they were parsed from (read only when asked
 * for), their path in it, and the variables as parsed (which were sent: one not sent takes its default).
 */
export interface VariablesText {
  text(): string;
  at: readonly string[];
  variables: unknown;
}

/** Key of a graphql-ws operation's context: its subscribe message's text (POST /graphql's is its body's). */
export const VARIABLES_TEXT = Symbol('variables text');

export type TextContext = { req?: { body?: unknown }; [VARIABLES_TEXT]?: VariablesText };

/** The variables' text of the operation whose context this is, when the request's text is known. */
export function variablesTextOf(context: TextContext): VariablesText | undefined {
  if (context[VARIABLES_TEXT]) return context[VARIABLES_TEXT];
  const body = context.req?.body;
  const text = jsonTextOf(body);
  if (text === undefined) return undefined;
  return { text: () => text, at: ['variables'], variables: (body as { variables?: unknown }).variables };
}

/** The message a graphql-ws socket is handling, from its `message` event until graphql-ws reads it. */
const HANDLING = new WeakMap<object, unknown>();
/** Each subscribe payload's message, as it came in. */
const MESSAGES = new WeakMap<object, unknown>();

/**
 * graphql-ws parses each message and hands its payload to onSubscribe in the same turn, so the message
 * a socket emitted last (this listener runs before graphql-ws's) is the one that payload came from.
 * Kept by reference: nothing is decoded until a resolver asks. `socket`: graphql-ws's `extra.socket`, a
 * `ws` WebSocket.
 */
export function keepMessages(socket: object): void {
  const ws = socket as EventEmitter;
  ws.prependListener('message', (data: unknown) => HANDLING.set(socket, data));
}

/** An onSubscribe hook that first ties the payload to the message it came in (keepMessages). */
export function tyingMessages<C extends { extra?: unknown }, P extends object, R>(
  onSubscribe: (ctx: C, id: string, payload: P) => R,
): (ctx: C, id: string, payload: P) => R {
  return (ctx, id, payload) => {
    const socket = (ctx.extra as { socket?: object } | undefined)?.socket;
    if (socket && HANDLING.has(socket)) {
      MESSAGES.set(payload, HANDLING.get(socket));
      HANDLING.delete(socket);
    }
    return onSubscribe(ctx, id, payload);
  };
}

/** A graphql-ws operation's variables' text, from the payload graphql-ws passes its context. */
export function subscribeVariablesText(payload: unknown): VariablesText | undefined {
  if (typeof payload !== 'object' || payload === null || !MESSAGES.has(payload)) return undefined;
  const data = MESSAGES.get(payload);
  let text: string | undefined;
  // graphql-ws reads a message as String(data): the same text.
  return {
    text: () => (text ??= String(data)),
    at: ['payload', 'variables'],
    variables: (payload as { variables?: unknown }).variables,
  };
}
