import { describe, expect, it, vi } from 'vitest';
import type { NavigationTarget } from '../../sdk/client/plugin';
import type { ManifestRoute } from '../../sdk/types';
import { createKernelHooks } from '../lifecycle';
import { DASHBOARD_PATH, FORBIDDEN_PATH, LOGIN_PATH, tapKernelGuards, type GuardState } from './guards';
import { decideNavigation, REDIRECT_TARGET_KEY, takeRedirectTarget } from './navigation';

const dashboard: ManifestRoute = { path: '/dashboard', component: 'DashboardPage', auth: true };
const login: ManifestRoute = { path: '/auth/login', component: 'LoginPage', auth: false, authPage: true, layout: 'bare' };
const adminUsers: ManifestRoute = { path: '/mc-admin/users', component: 'UsersPage', auth: true, admin: true, permission: 'admin.users.list' };
const adminHome: ManifestRoute = { path: '/mc-admin', component: 'AdminHome', auth: true, admin: true };
const privacy: ManifestRoute = { path: '/privacy-policy', component: 'PrivacyPage', auth: false, layout: 'bare' };
const redeem: ManifestRoute = { path: '/earn/redeem', component: 'RedeemPage', auth: true, flag: 'code_redemption_enabled' };
const vipOnly: ManifestRoute = { path: '/vip', component: 'VipPage', auth: true, permission: 'user.permission.vip' };

function target(route: ManifestRoute, search = '', pathname = route.path): NavigationTarget {
  return { pathname, search, hash: '', from: null, route, pluginId: 'test' };
}

function harness(state: Partial<GuardState> = {}) {
  const hooks = createKernelHooks();
  const full: GuardState = {
    hasSessionCookie: false,
    storedRole: null,
    permissions: [],
    flagEnabled: () => true,
    ...state,
  };
  tapKernelGuards(hooks, () => full);
  const saved: string[] = [];
  const dialogs: string[] = [];
  const effects = {
    saveRedirectTarget: (path: string) => saved.push(path),
    showAccessDenied: async () => {
      dialogs.push('access-denied');
    },
    log: { error: vi.fn(), warn: vi.fn() },
  };
  const decide = (to: NavigationTarget) => decideNavigation(hooks, to, effects);
  return { hooks, decide, saved, dialogs, effects };
}

describe('rule 1: a route needing login without a user_token cookie', () => {
  it('saves the target (path and query) and goes to Login', async () => {
    const h = harness({ hasSessionCookie: false });
    expect(await h.decide(target(dashboard, '?tab=coins'))).toEqual({ kind: 'redirect', to: LOGIN_PATH });
    expect(h.saved).toEqual(['/dashboard?tab=coins']);
  });

  it('lets a logged-in user through', async () => {
    const h = harness({ hasSessionCookie: true });
    expect(await h.decide(target(dashboard))).toEqual({ kind: 'proceed' });
    expect(h.saved).toEqual([]);
  });

  it('applies to admin routes before the role check', async () => {
    const h = harness({ hasSessionCookie: false, storedRole: '8' });
    expect(await h.decide(target(adminHome))).toEqual({ kind: 'redirect', to: LOGIN_PATH });
    expect(h.saved).toEqual(['/mc-admin']);
  });

  it('never applies to public pages', async () => {
    const h = harness({ hasSessionCookie: false });
    expect(await h.decide(target(privacy))).toEqual({ kind: 'proceed' });
  });
});

describe('rule 2: admin routes need a stored role from 2 to 8', () => {
  it.each(['2', '5', '8'])('role %s passes', async (role) => {
    const h = harness({ hasSessionCookie: true, storedRole: role });
    expect(await h.decide(target(adminHome))).toEqual({ kind: 'proceed' });
  });

  it.each([['1'], ['9'], ['0'], ['admin'], [null]])('role %s goes to the Dashboard', async (role) => {
    const h = harness({ hasSessionCookie: true, storedRole: role, permissions: ['admin.root'] });
    expect(await h.decide(target(adminHome))).toEqual({ kind: 'redirect', to: DASHBOARD_PATH });
    expect(h.dialogs).toEqual([]);
  });
});

describe('rule 3: auth pages for a logged-in user', () => {
  it('go to the Dashboard with the cookie', async () => {
    const h = harness({ hasSessionCookie: true });
    expect(await h.decide(target(login))).toEqual({ kind: 'redirect', to: DASHBOARD_PATH });
  });

  it('show without the cookie', async () => {
    const h = harness({ hasSessionCookie: false });
    expect(await h.decide(target(login))).toEqual({ kind: 'proceed' });
  });
});

describe('spec §6: permissions', () => {
  it('without the permission: the Access Denied dialog, then /errors/403', async () => {
    const h = harness({ hasSessionCookie: true, storedRole: '4', permissions: ['admin.tickets.list'] });
    let dialogClosed = false;
    h.effects.showAccessDenied = async () => {
      h.dialogs.push('access-denied');
      await Promise.resolve();
      dialogClosed = true;
    };
    const result = await h.decide(target(adminUsers));
    expect(h.dialogs).toEqual(['access-denied']);
    expect(dialogClosed).toBe(true);
    expect(result).toEqual({ kind: 'redirect', to: FORBIDDEN_PATH });
  });

  it('with the permission: through', async () => {
    const h = harness({ hasSessionCookie: true, storedRole: '4', permissions: ['admin.users.list'] });
    expect(await h.decide(target(adminUsers))).toEqual({ kind: 'proceed' });
  });

  it('admin.root passes every check', async () => {
    const h = harness({ hasSessionCookie: true, storedRole: '7', permissions: ['admin.root'] });
    expect(await h.decide(target(adminUsers))).toEqual({ kind: 'proceed' });
    expect(await h.decide(target(vipOnly))).toEqual({ kind: 'proceed' });
  });

  it('user-level permissions are checked on non-admin routes too', async () => {
    const h = harness({ hasSessionCookie: true, storedRole: '1', permissions: [] });
    expect(await h.decide(target(vipOnly))).toEqual({ kind: 'redirect', to: FORBIDDEN_PATH });
    expect(h.dialogs).toEqual(['access-denied']);
  });
});

describe('route flags', () => {
  it('a route whose flag is off shows that its feature is switched off, naming the flag', async () => {
    const h = harness({ hasSessionCookie: true, flagEnabled: (flag) => flag !== 'code_redemption_enabled' });
    expect(await h.decide(target(redeem))).toEqual({ kind: 'switched-off', flag: 'code_redemption_enabled' });
  });

  it('is checked before the login rule (a switched-off page is not worth a login)', async () => {
    const h = harness({ hasSessionCookie: false, flagEnabled: () => false });
    expect(await h.decide(target(redeem))).toEqual({ kind: 'switched-off', flag: 'code_redemption_enabled' });
    expect(h.saved).toEqual([]);
  });

  it('a route whose flag is on exists', async () => {
    const h = harness({ hasSessionCookie: true, flagEnabled: () => true });
    expect(await h.decide(target(redeem))).toEqual({ kind: 'proceed' });
  });
});

describe('plugin taps', () => {
  it('run after the kernel guards and may redirect or keep the user where they are', async () => {
    const h = harness({ hasSessionCookie: true });
    h.hooks.beforeNavigate.tap('plugin:a', (to) => (to.pathname === '/dashboard' ? '/welcome' : undefined));
    expect(await h.decide(target(dashboard))).toEqual({ kind: 'redirect', to: '/welcome' });
    h.hooks.beforeNavigate.tap('plugin:b', () => false);
    expect(await h.decide(target(privacy))).toEqual({ kind: 'stay' });
  });

  it('do not run when a kernel guard already decided', async () => {
    const h = harness({ hasSessionCookie: false });
    const tap = vi.fn(() => undefined);
    h.hooks.beforeNavigate.tap('plugin:a', tap);
    await h.decide(target(dashboard));
    expect(tap).not.toHaveBeenCalled();
  });

  it('cannot redirect to another origin', async () => {
    const h = harness({ hasSessionCookie: true });
    h.hooks.beforeNavigate.tap('plugin:a', () => '//evil.example/steal');
    expect(await h.decide(target(dashboard))).toEqual({ kind: 'proceed' });
  });
});

describe('rule 4: the after-login route', () => {
  const storage = () => {
    const data = new Map<string, string>();
    return {
      data,
      getItem: (k: string) => data.get(k) ?? null,
      removeItem: (k: string) => void data.delete(k),
    };
  };

  it('goes to the saved target once and clears it', () => {
    const s = storage();
    s.data.set(REDIRECT_TARGET_KEY, '/earn/redeem?code=X');
    expect(takeRedirectTarget(s)).toBe('/earn/redeem?code=X');
    expect(s.data.has(REDIRECT_TARGET_KEY)).toBe(false);
    expect(takeRedirectTarget(s)).toBe(DASHBOARD_PATH);
  });

  it('goes to the Dashboard when nothing is saved', () => {
    expect(takeRedirectTarget(storage())).toBe(DASHBOARD_PATH);
  });

  it('ignores a target on another origin', () => {
    const s = storage();
    s.data.set(REDIRECT_TARGET_KEY, '//evil.example');
    expect(takeRedirectTarget(s)).toBe(DASHBOARD_PATH);
  });
});
