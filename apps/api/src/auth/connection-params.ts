import { AppError } from '@app/fights';
import { bearerFrom } from './bearer';

/** A graphql-ws connection_init's payload as graphql-ws hands it on: an object, or none. */
export type ConnectionParams = Readonly<Record<string, unknown>> | undefined;

/** Each payload read once: the rate limiter reads it again for every operation of its connection. */
const secrets = new WeakMap<object, string | undefined>();

/**
 * The key or token of a graphql-ws connection: connection_init's `authorization`, its name in any case
 * (as an HTTP header's), its value read by the rules of the Authorization header ("Bearer <secret>").
 * Refused, never guessed at: the name in two cases (400 BAD_REQUEST, as a header sent twice), a value
 * that is no string (422 INVALID_FIELD), a value without the Bearer scheme (401 UNAUTHENTICATED).
 */
export function connectionSecret(params: ConnectionParams): string | undefined {
  if (!params) return undefined;
  if (secrets.has(params)) return secrets.get(params);
  const authorization = authorizationOf(params);
  let secret: string | undefined;
  try {
    secret = bearerFrom({ headers: { authorization } });
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== 'UNAUTHENTICATED') throw e;
    throw new AppError(
      401,
      'UNAUTHENTICATED',
      'authorization must be "Bearer <key or token>": its scheme is missing or not Bearer',
      'authorization',
    );
  }
  secrets.set(params, secret);
  return secret;
}

const NAME = 'authorization';

function authorizationOf(params: Readonly<Record<string, unknown>>): string | undefined {
  let name: string | undefined;
  for (const key of Object.keys(params)) {
    if (key.length !== NAME.length || key.toLowerCase() !== NAME) continue;
    if (name !== undefined)
      throw new AppError(
        400,
        'BAD_REQUEST',
        `authorization is sent more than once (${name}, ${key}): send it once`,
        'authorization',
      );
    name = key;
  }
  if (name === undefined) return undefined;
  const value = params[name];
  if (typeof value === 'string') return value;
  throw new AppError(
    422,
    'INVALID_FIELD',
    `authorization must be a string ("Bearer <key or token>"), not ${jsonType(value)}`,
    'authorization',
  );
}

const jsonType = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : `a${typeof value === 'object' ? 'n' : ''} ${typeof value}`;
