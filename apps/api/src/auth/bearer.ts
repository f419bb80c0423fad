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
 * Both at once is refused: which credential is meant would be a guess, and the other would go unchecked.
 */
export function bearerFrom(req: CredentialRequest): string | undefined {
  const header = req.headers.authorization;
  const query = req.query?.token;
  if (header !== undefined && query !== undefined)
    throw badToken('token may not be sent with an Authorization header: send one credential');
  if (typeof header === 'string') {
    const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
    return m ? m[1] : header.trim();
  }
  if (req.method !== 'GET') return undefined;
  if (typeof query === 'string') return query;
  // `?token=a&token=b` is read as a list: which one is meant would be a guess.
  if (Array.isArray(query)) throw badToken('token may be given only once');
  return undefined;
}
