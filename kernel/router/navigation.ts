// Runs the `beforeNavigate` bail hook for one navigation and carries out what the winning tap decided:
// remember the post-login target (spec §2 rule 1), show 'Access Denied' (spec §6), redirect, or show
// the not-found page or the switched-off page of a route whose feature is off. Also the after-login route (spec §2 rule 4).
import type { NavigationTarget } from '../../sdk/client/plugin';
import type { KernelHooks } from '../lifecycle';
import { DASHBOARD_PATH } from './guards';

/** spec §3: the local storage key of the post-login redirect target. */
export const REDIRECT_TARGET_KEY = 'redirect_after_login';
export const AFTER_LOGIN_PATH = '/auth/after-login';

export type NavigationResult =
  | { kind: 'proceed' }
  | { kind: 'redirect'; to: string }
  | { kind: 'not-found' }
  /** the route's feature is switched off (its flag) */
  | { kind: 'switched-off'; flag: string }
  /** a plugin's tap answered false: stay where the user is */
  | { kind: 'stay' };

export interface NavigationEffects {
  saveRedirectTarget(path: string): void;
  /** spec §6: the 'Access Denied' dialog; resolves when it closes */
  showAccessDenied(): Promise<void>;
  log?: Pick<Console, 'error' | 'warn'>;
}

/** A path inside this panel (never another origin: `//evil.example` is refused). */
export function isInternalPath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}

export async function decideNavigation(hooks: Pick<KernelHooks, 'beforeNavigate'>, to: NavigationTarget, effects: NavigationEffects): Promise<NavigationResult> {
  const log = effects.log ?? console;
  let outcome: ReturnType<KernelHooks['beforeNavigate']['call']>;
  try {
    outcome = hooks.beforeNavigate.call(to);
  } catch (error) {
    // plugin taps are wrapped by the sdk and never throw; a kernel guard that throws is a bug
    log.error(`A beforeNavigate guard threw for ${to.pathname}; the navigation goes on`, error);
    return { kind: 'proceed' };
  }
  if (outcome === undefined || outcome === null) return { kind: 'proceed' };
  if (outcome === false) return { kind: 'stay' };
  if (typeof outcome === 'string') {
    if (isInternalPath(outcome)) return { kind: 'redirect', to: outcome };
    log.warn(`A beforeNavigate tap redirected to "${outcome}", which is not a path of this panel; ignored`);
    return { kind: 'proceed' };
  }
  if (outcome.kind === 'not-found') return { kind: 'not-found' };
  if (outcome.kind === 'switched-off') return { kind: 'switched-off', flag: outcome.flag };
  if (outcome.saveTarget) effects.saveRedirectTarget(outcome.saveTarget);
  if (outcome.dialog === 'access-denied') {
    try {
      await effects.showAccessDenied();
    } catch (error) {
      log.error('The Access Denied dialog could not be shown', error);
    }
  }
  return { kind: 'redirect', to: outcome.to };
}

/**
 * spec §2 rule 4: the saved target (cleared once read), or the dashboard when none is saved. A target
 * that is not a path of this panel, or that would loop back here, counts as none.
 */
export function takeRedirectTarget(storage: Pick<Storage, 'getItem' | 'removeItem'>): string {
  let saved: string | null = null;
  try {
    saved = storage.getItem(REDIRECT_TARGET_KEY);
    storage.removeItem(REDIRECT_TARGET_KEY);
  } catch {
    saved = null;
  }
  if (!saved || !isInternalPath(saved) || saved.startsWith(AFTER_LOGIN_PATH)) return DASHBOARD_PATH;
  return saved;
}
