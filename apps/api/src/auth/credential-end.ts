import { AccessRegistry, Principal, principalId } from '@app/fights';
import type { ApiError } from '../common/api-error';

/** The longest delay setTimeout takes (about 24.8 days); a later expiry is re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const TOKEN_EXPIRED: ApiError = {
  statusCode: 401,
  code: 'TOKEN_EXPIRED',
  message: 'this token has expired; reconnect with a valid one',
  field: 'authorization',
};
export const CREDENTIALS_REVOKED: ApiError = {
  statusCode: 401,
  code: 'CREDENTIALS_REVOKED',
  message: 'this key or token has been revoked',
  field: 'authorization',
};

/**
 * Calls `end` once, saying why, when the key or token behind an open stream stops being valid: on
 * revocation (as soon as this instance has folded it from the log) and at the token's `expiresAt`, judged
 * by the same check as every request. Returns the cancel, for a stream that ends for another reason.
 */
export function onCredentialEnd(
  registry: AccessRegistry,
  p: Principal,
  end: (why: ApiError) => void,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const cancel = () => {
    done = true;
    offRevoked();
    clearTimeout(timer);
  };
  const finish = (why: ApiError) => {
    if (done) return;
    cancel();
    end(why);
  };
  const offRevoked = registry.onRevoked(principalId(p), () => finish(CREDENTIALS_REVOKED));
  const expiresAt =
    p.kind === 'player' || p.kind === 'spectator' ? registry.tokens.get(p.tokenId)?.expiresAt : undefined;
  // A timer can fire a moment early, and a far expiry comes in steps: still valid then, look again later.
  const arm = (at: number, least = 0) => {
    timer = setTimeout(
      () => (registry.stillValid(p) ? arm(at, 25) : finish(TOKEN_EXPIRED)),
      Math.min(Math.max(at - Date.now(), least), MAX_TIMER_MS),
    );
    timer.unref();
  };
  if (expiresAt) arm(Date.parse(expiresAt));
  return cancel;
}
