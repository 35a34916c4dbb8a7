// The navigation rules of spec §2 (rules 1–3) and §6, as the kernel's taps on the `beforeNavigate` bail
// hook. They read only the route's manifest entry and what the browser stores (the user_token cookie,
// the stored role, the cached permissions, the settings) — no plugin code runs, and nothing of the
// route's plugin is fetched before they let the navigation through.
import type { NavigationTarget } from '../../sdk/client/plugin';
import { hasPermission, isAdminRole } from '../../sdk/manifest';
import type { ManifestRoute } from '../../sdk/types';
import type { GuardDecision, KernelHooks } from '../lifecycle';

export const LOGIN_PATH = '/auth/login';
export const DASHBOARD_PATH = '/dashboard';
export const FORBIDDEN_PATH = '/errors/403';

/** What the guards know about the visitor. */
export interface GuardState {
  /** spec §4: a session is valid when a user_token cookie exists */
  hasSessionCookie: boolean;
  /** spec §3: the stored `role` (a number as text), as stored */
  storedRole: string | null;
  /** spec §4: the cached permissions (user_permissions) */
  permissions: readonly string[];
  /** is an application setting (a route's `flag`) switched on? */
  flagEnabled(flag: string): boolean;
}

/** Where the user asked to go, as a path to come back to. */
export function targetPath(to: Pick<NavigationTarget, 'pathname' | 'search' | 'hash'>): string {
  return `${to.pathname}${to.search}${to.hash}`;
}

/** spec §6: dashboard pages and 2FA setup need a login; admin and permission routes do too. */
export function needsLogin(route: ManifestRoute): boolean {
  return route.auth === true || route.admin === true || Boolean(route.permission);
}

type Guard = (to: NavigationTarget, state: GuardState) => GuardDecision | undefined;

/** A route whose `flag` setting is off shows that its feature is switched off (not "Page not found"). */
export const routeSwitchedOff: Guard = (to, state) => (to.route?.flag && !state.flagEnabled(to.route.flag) ? { kind: 'switched-off', flag: to.route.flag } : undefined);

/** spec §2 rule 1: no user_token cookie → remember the target, go to Login. */
export const loginRequired: Guard = (to, state) =>
  to.route && needsLogin(to.route) && !state.hasSessionCookie ? { kind: 'redirect', to: LOGIN_PATH, saveTarget: targetPath(to) } : undefined;

/** spec §2 rule 2: an admin route with a stored role that is not a number from 2 to 8 → Dashboard. */
export const adminRoleRequired: Guard = (to, state) => (to.route?.admin && !isAdminRole(state.storedRole) ? { kind: 'redirect', to: DASHBOARD_PATH } : undefined);

/** spec §2 rule 3: auth pages send a logged-in user to the Dashboard. */
export const authPageForGuests: Guard = (to, state) => (to.route?.authPage && state.hasSessionCookie ? { kind: 'redirect', to: DASHBOARD_PATH } : undefined);

/** spec §6: without the route's permission (admin.root passes every check) → 'Access Denied', then /errors/403. */
export const permissionRequired: Guard = (to, state) =>
  to.route?.permission && !hasPermission(state.permissions, to.route.permission) ? { kind: 'redirect', to: FORBIDDEN_PATH, dialog: 'access-denied' } : undefined;

/** The kernel's guards, in the order they run (before any plugin's beforeNavigate tap). */
export const KERNEL_GUARDS: readonly (readonly [string, Guard])[] = [
  ['kernel:route-flag', routeSwitchedOff],
  ['kernel:login-required', loginRequired],
  ['kernel:admin-role', adminRoleRequired],
  ['kernel:auth-page', authPageForGuests],
  ['kernel:permission', permissionRequired],
];

/** Taps the kernel's guards on `beforeNavigate`; `readState` is read at every navigation. */
export function tapKernelGuards(hooks: Pick<KernelHooks, 'beforeNavigate'>, readState: () => GuardState): void {
  for (const [name, guard] of KERNEL_GUARDS) hooks.beforeNavigate.tap(name, (to) => guard(to, readState()));
}
