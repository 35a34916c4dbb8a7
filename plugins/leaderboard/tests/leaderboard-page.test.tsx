// @vitest-environment jsdom
import { definePlugin } from '@orepanel/sdk';
import { cleanup, renderPlugin, type HttpHandlers, type TestSession } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import type { LeaderboardAnswer } from '../shared/boards';

afterEach(() => cleanup());

const ME = '00000000-0000-4000-8000-000000000004';
const session: TestSession = { user: { uuid: ME, username: 'dora' } };

const row = (rank: number, username: string, value: number, role = { name: 'Default', color: '#808080' }, early_supporter = false) => ({
  rank,
  uuid: `00000000-0000-4000-8000-00000000000${rank}`,
  username,
  avatar: null,
  role,
  value,
  early_supporter,
});

const coins: LeaderboardAnswer = {
  type: 'coins',
  limit: 3,
  data: [row(1, 'alice', 12_500, { name: 'VIP', color: '#ffaa00' }), row(2, 'bob', 300), row(3, 'carol', 300)],
  me: { rank: 4, value: 10 },
};

/** A stand-in for the profiles plugin: only its route matters (the leaderboard links to it). */
const profilesStub = {
  plugin: definePlugin({ id: 'profiles', setup: (ctx) => ctx.routes.provide('ProfilePage', async () => ({ default: () => null })) }),
  manifest: {
    id: 'profiles',
    name: 'Profiles',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: '/profile/:uuid', component: 'ProfilePage', auth: true, flag: 'allow_public_profiles' }],
  },
};

function open(http: HttpHandlers, options: { route?: string; profiles?: boolean; settings?: Record<string, boolean> } = {}) {
  return renderPlugin(plugin, {
    manifest,
    route: options.route ?? '/leaderboard',
    catalogues: { en },
    session,
    settings: { allow_public_profiles: true, ...options.settings },
    alongside: options.profiles === false ? [] : [profilesStub],
    http,
  });
}

const boardCalls = (app: Awaited<ReturnType<typeof open>>) => app.httpCalls.filter((c) => c.path.startsWith('/api/user/leaderboard/')).map((c) => c.path);

describe('leaderboard page', () => {
  it('shows the coins board first: ranks, names linking to profiles, roles and values — and only asks for that board', async () => {
    const app = await open({ 'GET /api/user/leaderboard/coins': { body: coins } });
    await app.findByText('alice');
    expect(boardCalls(app)).toEqual(['/api/user/leaderboard/coins']);
    expect(app.getByRole('tab', 'Coins').getAttribute('aria-selected')).toBe('true');
    const table = app.container.querySelector('table')!;
    expect(table.getAttribute('aria-label')).toBe('Users with the most coins');
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim()));
    // no avatar: the initials stand in (AL, BO, CA) before the name
    expect(rows).toEqual([
      ['#1', 'ALalice', 'VIP', '12,500'],
      ['#2', 'BObob', 'Default', '300'],
      ['#3', 'CAcarol', 'Default', '300'],
    ]);
    expect(app.getByRole('link', 'alice').getAttribute('href')).toBe(`/profile/${coins.data[0].uuid}`);
    expect(app.getByText('Top 3')).toBeTruthy();
  });

  it('marks early supporters with their badge (spec §3 early_supporters_enabled)', async () => {
    const answer: LeaderboardAnswer = { ...coins, data: [row(1, 'alice', 12_500, undefined, true), row(2, 'bob', 300)] };
    const app = await open({ 'GET /api/user/leaderboard/coins': { body: answer } });
    await app.findByText('alice');
    const badges = [...app.container.querySelectorAll('[data-early-supporter]')];
    expect(badges).toHaveLength(1);
    expect(badges[0].closest('tr')?.textContent).toContain('alice');
    expect(badges[0].textContent).toBe('Early Supporter');
    expect(badges[0].getAttribute('title')).toBe('One of the panel’s first accounts');
  });

  it("shows the user's own rank even outside the top N", async () => {
    const app = await open({ 'GET /api/user/leaderboard/coins': { body: coins } });
    await app.findByText('#4');
    expect(app.getByText(en.me.outsideTop.replace('{{limit}}', '3'))).toBeTruthy();
    expect(app.getByText('Your coins').parentElement?.textContent).toContain('10');
  });

  it('marks the own row and says "not ranked yet" at zero', async () => {
    const answer: LeaderboardAnswer = { type: 'coins', limit: 15, data: [{ ...row(1, 'dora', 50), uuid: ME }], me: { rank: 1, value: 50 } };
    const app = await open({ 'GET /api/user/leaderboard/coins': { body: answer } });
    await app.findByText('dora');
    expect(app.getByRole('link', 'dora').parentElement?.textContent).toContain('You');
    app.unmount();
    const zero = await open({ 'GET /api/user/leaderboard/coins': { body: { ...coins, me: { rank: null, value: 0 } } } });
    await zero.findByText(en.me.unranked);
  });

  it('switches boards by tab, keeping the board in the address', async () => {
    const referrals: LeaderboardAnswer = { type: 'referrals', limit: 15, data: [row(1, 'erin', 7)], me: { rank: null, value: 0 } };
    const app = await open({ 'GET /api/user/leaderboard/coins': { body: coins }, 'GET /api/user/leaderboard/referrals': { body: referrals } });
    await app.findByText('alice');
    await app.click(app.getByRole('tab', 'Referrals'));
    await app.findByText('erin');
    expect(app.location().search).toBe('?type=referrals');
    expect(boardCalls(app)).toEqual(['/api/user/leaderboard/coins', '/api/user/leaderboard/referrals']);
  });

  it('opens the board named in the address, and says honestly when servers are not counted yet', async () => {
    const app = await open(
      { 'GET /api/user/leaderboard/servers': { body: { type: 'servers', limit: 15, data: [], me: { rank: null, value: 0 } } } },
      { route: '/leaderboard?type=servers' },
    );
    await app.findByText(en.boards.servers.empty);
    expect(app.getByText(en.empty.title)).toBeTruthy();
    expect(boardCalls(app)).toEqual(['/api/user/leaderboard/servers']);
  });

  it('shows names without links when profiles are off or not installed', async () => {
    const off = await open({ 'GET /api/user/leaderboard/coins': { body: coins } }, { settings: { allow_public_profiles: false } });
    await off.findByText('alice');
    expect(off.queryByRole('link', 'alice')).toBeNull();
    off.unmount();
    const missing = await open({ 'GET /api/user/leaderboard/coins': { body: coins } }, { profiles: false });
    await missing.findByText('alice');
    expect(missing.queryByRole('link', 'alice')).toBeNull();
  });

  it('says when the board could not be loaded, and retries', async () => {
    let calls = 0;
    const app = await open({
      'GET /api/user/leaderboard/coins': () => (++calls === 1 ? { status: 500, body: { error: { code: 'SERVER_ERROR', message: 'Internal error' } } } : { body: coins }),
    });
    const retry = await app.findByRole('button', 'Try again');
    await app.click(retry);
    await app.findByText('alice');
  });
});
