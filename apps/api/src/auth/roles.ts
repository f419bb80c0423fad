import { AppError, Principal } from '@app/fights';

export function requireAdmin(p: Principal): void {
  if (p.kind !== 'admin')
    throw new AppError(403, 'ADMIN_ONLY', 'this needs the operator’s admin key', 'authorization');
}

export function requireTenant(p: Principal): asserts p is Extract<Principal, { kind: 'tenant' }> {
  if (p.kind !== 'tenant')
    throw new AppError(403, 'TENANT_ONLY', 'this needs a tenant API key', 'authorization');
}
