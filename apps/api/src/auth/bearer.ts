import { AppError } from '@app/fights';

/** What of an HTTP request (Express's, or the one a GraphQL context carries) credentials are read from. */
export interface CredentialRequest {
  method?: string;
  headers: Record<string, unknown>;
  query?: Record<string, unknown>;
}

/** `Authorization: Bearer <secret>`; a `token` query parameter only for GET (EventSource and OBS cannot set headers). */
export function bearerFrom(req: CredentialRequest): string | undefined {
  const header = req.headers.authorization;
  if (typeof header === 'string') {
    const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
    return m ? m[1] : header.trim();
  }
  const query = req.query?.token;
  if (req.method !== 'GET') return undefined;
  if (typeof query === 'string') return query;
  // `?token=a&token=b` is read as a list: which one is meant would be a guess.
  if (Array.isArray(query))
    throw new AppError(400, 'VALIDATION_FAILED', 'token may be given only once', 'token');
  return undefined;
}
