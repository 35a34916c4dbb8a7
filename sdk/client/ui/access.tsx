// Showing only what the signed-in user may use. The server checks every permission again; this only
// keeps the interface from offering what would be refused.
import type { ReactNode } from 'react';
import { useSession } from '../session';

export interface PermissionGateProps {
  /** the permission needed; several: every one of them (admin.root passes every check) */
  permission: string | readonly string[];
  children?: ReactNode;
  /** shown instead when the permission is missing (default: nothing) */
  fallback?: ReactNode;
}

/** Renders `children` only when the user holds `permission`. */
export function PermissionGate({ permission, children, fallback = null }: PermissionGateProps) {
  const allowed = useHasPermission(permission);
  return <>{allowed ? children : fallback}</>;
}

/** True when the signed-in user holds `permission` (every one, for a list). */
export function useHasPermission(permission: string | readonly string[]): boolean {
  const { hasPermission } = useSession();
  const wanted = typeof permission === 'string' ? [permission] : permission;
  return wanted.every((p) => hasPermission(p));
}
