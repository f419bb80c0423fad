import { AccessService, AppError, Principal } from '@app/fights';
import { knownPrincipal } from '../auth/auth.guard';
import { connectionSecret, type ConnectionParams } from '../auth/connection-params';

/** RFC 6455 section 5.5: a close frame's reason holds at most 123 bytes (`ws` throws past them). */
const MAX_CLOSE_REASON_BYTES = 123;

/**
 * The principal of a graphql-ws connection_init, or its refusal with the code HTTP gives the same
 * credentials: none (UNAUTHENTICATED), or a key or token unknown, revoked or expired (INVALID_CREDENTIALS).
 * A key or token another instance has just issued is looked for in the store before it is refused.
 */
export async function authenticateConnection(
  access: AccessService,
  params: ConnectionParams,
): Promise<Principal> {
  const secret = connectionSecret(params);
  if (!secret)
    throw new AppError(
      401,
      'UNAUTHENTICATED',
      `send a key or token in connection_init's payload: {"authorization":"Bearer <key>"}`,
      'authorization',
    );
  return knownPrincipal(await access.authenticate(secret));
}

/**
 * Closes a connection whose connection_init is refused, the reason `CODE: message` in the error shape's
 * terms. Credentials refused close with 4403 Forbidden, as graphql-ws's PROTOCOL.md has a server reject
 * connection_init (its 4401 means an operation sent before the ack); its client retries a 4403, whose
 * connectionParams may bring a fresh token. A payload that cannot be read as sent closes with 4400 Bad
 * Request, as any message graphql-ws cannot read, which its client does not retry: it would fail again.
 */
export function refuseConnection(socket: { close(code: number, reason: string): void }, e: AppError): void {
  const reason = `${e.code}: ${e.message}`;
  socket.close(
    e.status === 401 || e.status === 403 ? 4403 : 4400,
    Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES ? reason : e.code,
  );
}
