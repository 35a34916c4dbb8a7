import { describe, expect, it } from 'vitest';
import { isSettingEnabled } from '../../sdk/client/stores/settings';
import type { ServedPluginManifest } from '../../sdk/types';
import { buildNavGroups, type NavVisibility } from './nav-model';

const manifests: ServedPluginManifest[] = [
  {
    id: 'dashboard',
    name: 'Dashboard',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: '/dashboard', component: 'DashboardPage', auth: true }],
    nav: [{ route: '/dashboard', label: 'nav.dashboard', icon: 'home', section: 'main', order: 0 }],
  },
  {
    id: 'earn',
    name: 'Earn',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: '/earn/redeem', component: 'RedeemPage', auth: true, flag: 'code_redemption_enabled' }],
    nav: [{ route: '/earn/redeem', label: 'nav.redeem', icon: 'gift', section: 'earn' }],
  },
  {
    id: 'admin-users',
    name: 'Users',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: '/mc-admin/users', component: 'Users', auth: true, admin: true, permission: 'admin.users.list' }],
    nav: [{ route: '/mc-admin/users', label: 'nav.users', icon: 'users', section: 'admin' }],
  },
  {
    id: 'auth',
    name: 'Auth',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: '/auth/logout', component: 'LogoutPage' }],
    nav: [{ route: '/auth/logout', label: 'nav.logout', icon: 'logout', section: 'account', order: 1000 }],
  },
];

const all = new Set(manifests.map((m) => m.id));
const visibility = (v: Partial<NavVisibility>): NavVisibility => ({ permissions: [], role: 1, settings: {}, isFlagEnabled: isSettingEnabled, ...v });

describe('sidebar items from manifests', () => {
  it('groups items by section in the fixed section order', () => {
    const groups = buildNavGroups(manifests, all, visibility({ settings: { code_redemption_enabled: true }, role: 8, permissions: ['admin.root'] }));
    expect(groups.map((g) => g.section)).toEqual(['main', 'earn', 'admin', 'account']);
  });

  it('places the sections plugins declare by their order, titled in their namespace; an undeclared one falls back to main', () => {
    const extra: ServedPluginManifest[] = [
      {
        id: 'tickets',
        name: 'Tickets',
        version: '1.0.0',
        sdk: '^2.0.0',
        navSections: [
          { id: 'helpdesk', label: 'nav.sections.helpdesk', order: 450 },
          // a kernel section cannot be taken over
          { id: 'admin', label: 'nav.mine' },
        ],
        routes: [
          { path: '/tickets', component: 'TicketsPage', auth: true },
          { path: '/wiki', component: 'WikiPage', auth: true },
        ],
        nav: [
          { route: '/tickets', label: 'nav.tickets', section: 'helpdesk' },
          { route: '/wiki', label: 'nav.wiki', section: 'nowhere' },
        ],
      },
      {
        id: 'late',
        name: 'Late',
        version: '1.0.0',
        sdk: '^2.0.0',
        navSections: [
          { id: 'helpdesk', label: 'nav.other', order: 50 },
          { id: 'extras', label: 'nav.extras' },
        ],
        routes: [{ path: '/extras', component: 'ExtrasPage', auth: true }],
        nav: [{ route: '/extras', label: 'nav.extras', section: 'extras' }],
      },
    ];
    const list = [...manifests, ...extra];
    const groups = buildNavGroups(list, new Set(list.map((m) => m.id)), visibility({ settings: { code_redemption_enabled: true }, role: 8, permissions: ['admin.root'] }));
    expect(groups.map((g) => [g.section, g.title ?? null, g.items.map((i) => i.route)])).toEqual([
      ['main', null, ['/dashboard', '/wiki']],
      ['earn', null, ['/earn/redeem']],
      ['helpdesk', { namespace: 'tickets', key: 'nav.sections.helpdesk' }, ['/tickets']],
      ['extras', { namespace: 'late', key: 'nav.extras' }, ['/extras']],
      ['admin', null, ['/mc-admin/users']],
      ['account', null, ['/auth/logout']],
    ]);
    // a section of a plugin that is not installed does not exist
    expect(buildNavGroups(list, new Set(['dashboard', 'late']), visibility({})).map((g) => g.section)).toEqual(['main', 'extras']);
  });

  it('hides items whose route is switched off by its flag', () => {
    const groups = buildNavGroups(manifests, all, visibility({ settings: { code_redemption_enabled: false } }));
    expect(groups.flatMap((g) => g.items.map((i) => i.route))).not.toContain('/earn/redeem');
  });

  it('hides admin items from non-admin roles and from users without the permission', () => {
    const routes = (v: Partial<NavVisibility>) => buildNavGroups(manifests, all, visibility(v)).flatMap((g) => g.items.map((i) => i.route));
    expect(routes({ role: 1, permissions: ['admin.root'] })).not.toContain('/mc-admin/users');
    expect(routes({ role: 4, permissions: [] })).not.toContain('/mc-admin/users');
    expect(routes({ role: 4, permissions: ['admin.users.list'] })).toContain('/mc-admin/users');
    expect(routes({ role: '7', permissions: ['admin.root'] })).toContain('/mc-admin/users');
  });

  it('shows only installed plugins', () => {
    const groups = buildNavGroups(manifests, new Set(['dashboard']), visibility({}));
    expect(groups).toEqual([{ section: 'main', items: [expect.objectContaining({ route: '/dashboard', pluginId: 'dashboard', icon: 'home' })] }]);
  });
});
