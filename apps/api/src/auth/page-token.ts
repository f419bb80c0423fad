import { AccessService, AppError, Principal } from '@app/fights';
import { bearerFrom } from './bearer';

/**
 * The reader of a page that embeds its `?token=` (the overlay, the replay page): public to the global guard,
 * the page checks the token itself and answers in HTML. A token another instance has just issued, or a fight
 * it has just made, is looked for in the store before it is refused, as the guard does.
 */
export async function pageReader(
  access: AccessService,
  token: string,
  fightId: string,
  /** The request's Authorization header: with `?token=` it is two credentials, refused as every GET refuses them. */
  authorization?: string,
): Promise<Principal> {
  bearerFrom({ method: 'GET', headers: { authorization }, query: { token } });
  const principal = await access.authenticate(token, fightId);
  if (!principal)
    throw new AppError(401, 'INVALID_CREDENTIALS', 'this token is unknown, revoked or expired', 'token');
  if (principal.kind === 'tenant') await access.knowFight(fightId);
  access.assertRead(principal, fightId);
  return principal;
}
