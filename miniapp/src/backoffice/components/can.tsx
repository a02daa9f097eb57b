// Hiding what the operator may not do. The server refuses it anyway (and audits the refusal).
import type { ReactNode } from 'react';
import { usePermissions } from 'react-admin';
import { can, canAny, type Permission } from '../lib/permissions';

export function useCan(permission: Permission): boolean {
  const { permissions } = usePermissions<string[]>();
  return can(permissions, permission);
}

export function useCanAny(wanted: readonly Permission[]): boolean {
  const { permissions } = usePermissions<string[]>();
  return canAny(permissions, wanted);
}

/** Renders `children` only for an operator with `permission`. */
export function Can({ permission, children }: { permission: Permission; children: ReactNode }) {
  return useCan(permission) ? <>{children}</> : null;
}
