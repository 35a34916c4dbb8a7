// The nav badge registry on its own: a plugin gives only the badges its manifest names, once; a
// provider slower than NAV_BADGE_TIMEOUT_MS is left out while the others answer; an item on a route
// another plugin declares follows that route's rules; a flag that cannot be read counts as off.
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '../../sdk/server';
import type { PluginManifest } from '../../sdk/types';
import { NAV_BADGE_TIMEOUT_MS, NavBadges, type NavBadgeSources } from './nav-badges';

const user: SessionUser = {
  id: 4,
  uuid: 'u-4',
  username: 'ada',
  email: 'ada@example.com',
  role: 1,
  roleName: 'Default',
  permissions: [],
  banned: false,
  twoFaEnabled: false,
  sessionId: 1,
};
const silent = { warn: vi.fn() } as unknown as FastifyBaseLogger;

const manifest = (id: string, extra: Partial<PluginManifest>): PluginManifest => ({ id, name: id, version: '1.0.0', sdk: '^2.0.0', ...extra });

function sources(manifests: PluginManifest[], flagOn: NavBadgeSources['flagOn'] = async () => true): NavBadgeSources {
  return { manifests: () => manifests, flagOn, log: silent };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('NavBadges', () => {
  it('lets a plugin give only the badges its manifest names, each once', () => {
    const badges = new NavBadges();
    const nav = badges.forPlugin(manifest('desk', { nav: [{ route: '/desk', label: 'x', badge: 'unread' }] }));
    expect(() => nav.badge('other', async () => 1)).toThrow(/gives nav badge "other" but no nav item of its plugin.json names it/);
    nav.badge('unread', async () => 1);
    expect(() => nav.badge('unread', async () => 2)).toThrow(/twice/);
  });

  it('leaves out a provider slower than the timeout, and answers the others', async () => {
    vi.useFakeTimers();
    const badges = new NavBadges();
    const desk = manifest('desk', {
      nav: [
        { route: '/desk', label: 'x', badge: 'slow' },
        { route: '/desk/fast', label: 'y', badge: 'fast' },
      ],
    });
    const nav = badges.forPlugin(desk);
    nav.badge('slow', () => new Promise<number>(() => undefined));
    nav.badge('fast', async () => 2);
    const answer = badges.countsFor(user, sources([desk]));
    await vi.advanceTimersByTimeAsync(NAV_BADGE_TIMEOUT_MS);
    expect(await answer).toEqual({ 'desk.fast': 2 });
  });

  it('follows the rules of a route another plugin declares, and takes a flag it cannot read as off', async () => {
    const badges = new NavBadges();
    const owner = manifest('admin-pages', { routes: [{ path: '/mc-admin/desk', component: 'Desk', admin: true, permission: 'admin.desk.view' }] });
    const desk = manifest('desk', {
      nav: [
        { route: '/mc-admin/desk', label: 'x', badge: 'staff' },
        { route: '/desk', label: 'y', flag: 'broken_flag', badge: 'flagged' },
      ],
    });
    const nav = badges.forPlugin(desk);
    nav.badge('staff', async () => 5);
    nav.badge('flagged', async () => 1);
    const flagOn = async (flag: string) => {
      if (flag === 'broken_flag') throw new Error('unreadable');
      return true;
    };
    expect(await badges.countsFor(user, sources([owner, desk], flagOn))).toEqual({});
    const staff = { ...user, role: 3, permissions: ['admin.desk.view'] };
    expect(await badges.countsFor(staff, sources([owner, desk], flagOn))).toEqual({ 'desk.staff': 5 });
  });
});
