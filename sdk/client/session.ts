// The session as components see it, and the two session actions plugins trigger (spec §2 rule 4).
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { hasPermission } from '../manifest';
import { http } from './http';
import { kernelServices } from './kernel-services';
import { sessionStore, type SessionBilling, type SessionStats, type SessionStatus, type SessionUser } from './stores/session';

/** spec §2 rule 4: where the panel goes after a successful login or registration. */
export const AFTER_LOGIN_PATH = '/auth/after-login';
export const LOGIN_PATH = '/auth/login';
const LOGOUT_API = '/api/user/auth/logout';

export interface UseSessionResult {
  /** true once the session was loaded and is valid */
  loggedIn: boolean;
  /** 'idle' before the first fetch, 'loading' during it, 'ready' with a session, 'error' after a session error */
  status: SessionStatus;
  user: SessionUser | null;
  billing: SessionBilling | null;
  stats: SessionStats | null;
  permissions: readonly string[];
  /** the role number (1 Default … 8 Administrator), null when unknown */
  role: number | null;
  /** spec §6: true when the user holds `permission` (admin.root passes every check; no permission → true) */
  hasPermission(permission: string | null | undefined): boolean;
  /** Fetches the session again now (e.g. after spending coins, to show the new balance). */
  refresh(): Promise<void>;
}

/** The signed-in user, their billing, stats and permissions; re-renders when they change. */
export function useSession(): UseSessionResult {
  const s = sessionStore(
    useShallow((st) => ({
      loggedIn: st.loggedIn,
      status: st.status,
      user: st.user,
      billing: st.billing,
      stats: st.stats,
      permissions: st.permissions,
      role: st.role,
    })),
  );
  return useMemo(
    () => ({
      ...s,
      hasPermission: (permission: string | null | undefined) => hasPermission(s.permissions, permission),
      refresh: () => kernelServices().refreshSession(),
    }),
    [s],
  );
}

/**
 * Call after a successful login or registration request: loads the new session, then goes to the
 * after-login route, which sends the user to the page they first asked for, or to the dashboard
 * (spec §2 rule 4).
 */
export async function completeLogin(): Promise<void> {
  const kernel = kernelServices();
  await kernel.refreshSession();
  // a session that ended at once (TW0_FA_BLOCKED after a login with 2FA on) was already sent on
  // (/auth/2fa/verify); the after-login route would bounce it to /auth/login
  if (sessionStore.getState().status === 'error') return;
  kernel.navigate(AFTER_LOGIN_PATH, { replace: true });
}

/**
 * Signs out: the server revokes the session (POST /api/user/auth/logout: only a same-origin POST
 * ends it, so another site cannot sign the user out), the kernel clears the local session, and the
 * user goes to the login page. The local session is cleared even when the server cannot be
 * reached, so a user is never stuck signed in on a shared computer.
 */
export async function logout(): Promise<void> {
  const kernel = kernelServices();
  try {
    await http.post(LOGOUT_API);
  } catch (error) {
    console.warn('Logout request failed; clearing the local session anyway', error);
  }
  await kernel.clearSession();
  sessionStore.getState().clear();
  kernel.navigate(LOGIN_PATH, { replace: true });
}
