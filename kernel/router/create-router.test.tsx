// The router built from manifests: guards run in the route's loader, BEFORE the plugin's page chunk is
// requested; only when they let the navigation through does the page start loading.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter } from 'react-router-dom';
import { registryStore } from '../../sdk/client/stores/registry';
import type { ServedPluginManifest } from '../../sdk/types';
import { createKernelHooks } from '../lifecycle';
import { createKernelRoutes } from './create-router';
import { tapKernelGuards, type GuardState } from './guards';
import { REDIRECT_TARGET_KEY } from './navigation';
import { buildRouteTable } from './route-table';

const manifests: ServedPluginManifest[] = [
  {
    id: 'dashboard',
    name: 'Dashboard',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: '/dashboard', component: 'DashboardPage', auth: true }],
  },
  {
    id: 'auth',
    name: 'Auth',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: '/auth/login', component: 'LoginPage', authPage: true, layout: 'bare' }],
  },
  {
    id: 'admin-users',
    name: 'Users',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: '/mc-admin/users', component: 'UsersPage', auth: true, admin: true, permission: 'admin.users.list' }],
  },
  {
    id: 'store',
    name: 'Store',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: '/store', component: 'StorePage', auth: true, flag: 'store_enabled' }],
  },
];

function setup(state: Partial<GuardState>, initialPath: string, storage = new Map<string, string>(), installed = true) {
  const pages = {
    DashboardPage: vi.fn(async () => ({ default: () => null })),
    LoginPage: vi.fn(async () => ({ default: () => null })),
    UsersPage: vi.fn(async () => ({ default: () => null })),
    StorePage: vi.fn(async () => ({ default: () => null })),
  };
  if (installed) {
    registryStore.getState().commitPlugin('dashboard', { routes: { DashboardPage: pages.DashboardPage }, slots: {} });
    registryStore.getState().commitPlugin('auth', { routes: { LoginPage: pages.LoginPage }, slots: {} });
    registryStore.getState().commitPlugin('admin-users', { routes: { UsersPage: pages.UsersPage }, slots: {} });
    registryStore.getState().commitPlugin('store', { routes: { StorePage: pages.StorePage }, slots: {} });
  }
  const hooks = createKernelHooks();
  tapKernelGuards(hooks, () => ({ hasSessionCookie: false, storedRole: null, permissions: [], flagEnabled: () => true, ...state }));
  const dialogs: string[] = [];
  const routes = createKernelRoutes({
    table: buildRouteTable(manifests, new Set(['dashboard', 'auth', 'admin-users', 'store'])),
    hooks,
    storage: { getItem: (k) => storage.get(k) ?? null, removeItem: (k) => void storage.delete(k) },
    effects: {
      saveRedirectTarget: (path) => void storage.set(REDIRECT_TARGET_KEY, path),
      showAccessDenied: async () => {
        dialogs.push('access-denied');
      },
    },
  });
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const settled = () =>
    new Promise<void>((resolve) => {
      if (router.state.navigation.state === 'idle' && router.state.initialized) return resolve();
      const stop = router.subscribe((s) => {
        if (s.navigation.state === 'idle' && s.initialized) {
          stop();
          resolve();
        }
      });
    });
  return { router, pages, dialogs, storage, settled };
}

afterEach(() => registryStore.getState().reset());

describe('the kernel router', () => {
  it('/ redirects to /dashboard', async () => {
    const t = setup({ hasSessionCookie: true }, '/');
    await t.settled();
    expect(t.router.state.location.pathname).toBe('/dashboard');
    t.router.dispose();
  });

  it('a protected page without the cookie: its chunk is never requested; the target is saved; Login shows', async () => {
    const t = setup({ hasSessionCookie: false }, '/dashboard?tab=2');
    await t.settled();
    expect(t.router.state.location.pathname).toBe('/auth/login');
    expect(t.storage.get(REDIRECT_TARGET_KEY)).toBe('/dashboard?tab=2');
    expect(t.pages.DashboardPage).not.toHaveBeenCalled();
    expect(t.pages.LoginPage).toHaveBeenCalled();
    t.router.dispose();
  });

  it('a page the guards let through starts loading its chunk', async () => {
    const t = setup({ hasSessionCookie: true }, '/dashboard');
    await t.settled();
    expect(t.router.state.location.pathname).toBe('/dashboard');
    expect(t.pages.DashboardPage).toHaveBeenCalledTimes(1);
    t.router.dispose();
  });

  it('a route whose feature is switched off stays at its address and is marked switched off, without its chunk', async () => {
    const t = setup({ hasSessionCookie: true, flagEnabled: (flag) => flag !== 'store_enabled' }, '/store');
    await t.settled();
    expect(t.router.state.location.pathname).toBe('/store');
    const leaf = t.router.state.matches.at(-1);
    expect(leaf && t.router.state.loaderData[leaf.route.id]).toEqual({ switchedOff: 'store_enabled' });
    expect(t.pages.StorePage).not.toHaveBeenCalled();
    t.router.dispose();
  });

  it('a permission denial shows the dialog and goes to /errors/403 without touching the admin chunk', async () => {
    const t = setup({ hasSessionCookie: true, storedRole: '4', permissions: [] }, '/mc-admin/users');
    await t.settled();
    expect(t.dialogs).toEqual(['access-denied']);
    expect(t.router.state.location.pathname).toBe('/errors/403');
    expect(t.pages.UsersPage).not.toHaveBeenCalled();
    t.router.dispose();
  });

  it("installs a route's plugin only once the guards let the navigation through, once for every later need", async () => {
    registryStore.getState().reset();
    const installs: string[] = [];
    const page = vi.fn(async () => ({ default: () => null }));
    registryStore.getState().setManifests(manifests);
    registryStore.getState().offerPlugins(['dashboard', 'auth', 'admin-users'], async (id) => {
      installs.push(id);
      registryStore.getState().commitPlugin(id, { routes: { DashboardPage: page, LoginPage: page, UsersPage: page }, slots: {} });
      return true;
    });
    const t = setup({ hasSessionCookie: true, storedRole: '4', permissions: [] }, '/mc-admin/users', new Map(), false);
    await t.settled();
    // denied: the admin-users plugin's entry was never asked for
    expect(t.router.state.location.pathname).toBe('/errors/403');
    expect(installs).toEqual([]);
    await t.router.navigate('/dashboard');
    await t.settled();
    await t.router.navigate('/errors/403');
    await t.settled();
    await t.router.navigate('/dashboard');
    await t.settled();
    expect(installs).toEqual(['dashboard']);
    expect(page).toHaveBeenCalled();
    t.router.dispose();
  });

  it('the first page of a load: the router is ready only once its page module is here (issue 15)', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const t = setup({ hasSessionCookie: false }, '/auth/login', new Map(), false);
    const LoginPage = vi.fn(async () => {
      await gate;
      return { default: () => null };
    });
    registryStore.getState().commitPlugin('auth', { routes: { LoginPage }, slots: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(LoginPage).toHaveBeenCalledTimes(1);
    expect(t.router.state.initialized).toBe(false);
    release();
    await t.settled();
    expect(t.router.state.location.pathname).toBe('/auth/login');
    t.router.dispose();
  });

  it('the after-login route goes to the saved target once, then to the dashboard', async () => {
    const storage = new Map([[REDIRECT_TARGET_KEY, '/mc-admin/users']]);
    const t = setup({ hasSessionCookie: true, storedRole: '8', permissions: ['admin.root'] }, '/auth/after-login', storage);
    await t.settled();
    expect(t.router.state.location.pathname).toBe('/mc-admin/users');
    expect(storage.has(REDIRECT_TARGET_KEY)).toBe(false);
    await t.router.navigate('/auth/after-login');
    await t.settled();
    expect(t.router.state.location.pathname).toBe('/dashboard');
    t.router.dispose();
  });
});
