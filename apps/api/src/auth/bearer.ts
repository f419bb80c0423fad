import { AppError } from '@app/fights';
import { ValidationFailed } from '../common/validation';

/** What of an HTTP request (Express's, or the one a GraphQL context carries) credentials are read from. */
export interface CredentialRequest {
  method?: string;
  headers: Record<string, unknown>;
  query?: Record<string, unknown>;
}

/** A refused `token` query parameter, in the shape of every refused parameter (400 VALIDATION_FAILED with `issues`). */
const badToken = (message: string) =>
  new ValidationFailed([{ field: 'token', code: 'INVALID_FIELD', message }]);

/**
 * `Authorization: Bearer <secret>`; a `token` query parameter only for GET (EventSource and OBS cannot set headers).
 * Both at once is refused: which credential is meant would be a guess, and the other would go unchecked. A
 * header without the Bearer scheme (a bare key) is 401 UNAUTHENTICATED naming `authorization`, answered with
 * `WWW-Authenticate: Bearer` (RFC 6750 section 3.1: no error code for a request in an unsupported scheme).
 */
export function bearerFrom(req: CredentialRequest): string | undefined {
  const header = req.headers.authorization;
  const query = req.query?.token;
  if (header !== undefined && query !== undefined)
    throw badToken('token may not be sent with an Authorization header: send one credential');
  if (typeof header === 'string') {
    const value = header.trim();
    if (value === '') return undefined;
    const m = /^Bearer\s+(\S+)$/i.exec(value);
    if (m) return m[1];
    // `Bearer` with no token, or with more than one: a bearer credential that is not valid, refused as such.
    if (/^Bearer(\s|$)/i.test(value)) return value;
    // A bare key, or another scheme (Basic, Token…): RFC 6750 knows no credential without its scheme.
    throw new AppError(
      401,
      'UNAUTHENTICATED',
      'the Authorization header must be "Bearer <key or token>": its scheme is missing or not Bearer',
      'authorization',
    );
  }
  if (req.method !== 'GET') return undefined;
  if (typeof query === 'string') return query;
  // `?token=a&token=b` is read as a list: which one is meant would be a guess.
  if (Array.isArray(query)) throw badToken('token may be given only once');
  return undefined;
}

/** bearerFrom, where a refusal is no answer (a rate-limit bucket, a WebSocket's connect): none instead. */
export function bearerOrNone(req: CredentialRequest): string | undefined {
  try {
    return bearerFrom(req);
  } catch {
    return undefined;
  }
}
