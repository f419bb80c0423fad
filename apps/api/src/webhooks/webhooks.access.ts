import { AccessService, Principal } from '@app/fights';
import { requireTenant } from '../auth/roles';

/** Webhooks belong to a tenant (the GM); a fight filter must name one of its fights. Players and spectators get 403. */
export function webhookTenant(access: AccessService, p: Principal, fightId?: string | null): string {
  requireTenant(p);
  if (fightId) access.assertGm(p, fightId);
  return p.tenantId;
}

export const DEFAULT_OVERLAP_SECONDS = 86_400;
