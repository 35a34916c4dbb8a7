// @vitest-environment jsdom
import { cleanup, renderPlugin, sessionReply, type HttpHandlers, type TestSession } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import ro from '../locales/ro.json';

afterEach(() => cleanup());

const user: TestSession = { user: { username: 'alice' }, billing: { coins: 10 } };
const joined = {
  guild_id: '112233445566778899',
  name: 'Orepanel Community',
  invite_url: 'https://discord.gg/orepanel',
  icon_url: 'https://cdn.discordapp.com/icons/112233445566778899/abc.png',
  coins: 50,
  claimed: true,
  claimed_coins: 40,
  claimed_at: '2026-11-01T10:00:00.000Z',
};
const open = {
  guild_id: '998877665544332211',
  name: 'Builders',
  invite_url: 'https://discord.gg/builders',
  icon_url: null,
  coins: 25,
  claimed: false,
  claimed_coins: null,
  claimed_at: null,
};
const status = { discord_available: true, discord_account: { id: '80351110224678912', username: 'alice_disco' }, guilds_total: 2, guilds_claimed: 1, coins_earned: 40 };

function handlers(extra: HttpHandlers = {}): HttpHandlers {
  return {
    'GET /api/user/j4r/status': { body: status },
    'GET /api/user/j4r/list': { body: { data: [joined, open] } },
    'GET /api/user/session': sessionReply(user),
    ...extra,
  };
}

async function render(extra: HttpHandlers = {}, options: { route?: string; locale?: 'en' | 'ro' } = {}) {
  return renderPlugin(plugin, {
    manifest,
    route: options.route ?? '/earn/j4r',
    locale: options.locale,
    catalogues: { en, ro },
    session: user,
    settings: { j4r_enabled: true },
    http: handlers(extra),
  });
}

describe('/earn/j4r', () => {
  it('lists each server with its icon, name and reward, which ones paid, and an invite that opens in a new tab', async () => {
    const app = await render();
    const list = await app.findByRole('list', 'Discord servers to join');
    const tiles = list.querySelectorAll('li');
    expect(tiles).toHaveLength(2);

    const paid = app.getByRole('listitem', 'Orepanel Community');
    expect(paid.querySelector('img')?.getAttribute('src')).toBe(joined.icon_url);
    expect(paid.textContent).toContain('50 coins for joining');
    // what it paid back then, not today's reward
    expect(paid.textContent).toContain('Paid 40 coins');

    const notYet = app.getByRole('listitem', 'Builders');
    expect(notYet.textContent).toContain('25 coins for joining');
    expect(notYet.textContent).toContain('Not paid yet');
    // no icon: the initials stand in
    expect(notYet.querySelector('img')).toBeNull();
    expect(notYet.textContent).toContain('BU');

    const invite = app.getByRole('link', 'Join Builders on Discord (opens in a new tab)');
    expect(invite.getAttribute('href')).toBe('https://discord.gg/builders');
    expect(invite.getAttribute('target')).toBe('_blank');
    expect(invite.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows what was earned and the linked Discord account; "Check my servers" is a full page load of the server check', async () => {
    const app = await render();
    await app.findByText('40 coins');
    expect(app.getByText('1 of 2')).toBeTruthy();
    expect(app.getByText('Checks run as alice_disco on Discord')).toBeTruthy();
    const check = app.getByRole('link', 'Check my servers');
    expect(check.getAttribute('href')).toBe('/api/user/j4r/check');
    expect(check.getAttribute('aria-disabled')).toBeNull();
  });

  it('cannot check while Discord is not set up, and says so', async () => {
    const app = await render({ 'GET /api/user/j4r/status': { body: { ...status, discord_available: false, discord_account: null } } });
    await app.findByText('Discord is not set up on this panel yet, so servers cannot be checked.');
    expect(app.getByRole('link', 'Check my servers').getAttribute('aria-disabled')).toBe('true');
  });

  it('says when there is nothing to join, and offers no check', async () => {
    const app = await render({
      'GET /api/user/j4r/status': { body: { ...status, guilds_total: 0, guilds_claimed: 0 } },
      'GET /api/user/j4r/list': { body: { data: [] } },
    });
    await app.findByText('No servers to join right now');
    expect(app.getByRole('link', 'Check my servers').getAttribute('aria-disabled')).toBe('true');
  });

  it('after a check that paid: says how much, refreshes the balance, and the notice closes away', async () => {
    const app = await render({}, { route: '/earn/j4r?j4r_paid=2&j4r_coins=75' });
    const notice = await app.findByRole('status');
    expect(notice.textContent).toContain('Coins earned');
    expect(notice.textContent).toContain('New servers paid: 2. Coins earned: 75.');
    // once: the balance in the shell follows
    await app.waitFor(() => expect(app.httpCalls.filter((c) => c.path === '/api/user/session')).toHaveLength(1));
    await app.click(app.getByRole('button', 'Close'));
    await app.waitFor(() => expect(app.queryByRole('status')).toBeNull());
    expect(app.location().search).toBe('');
    expect(app.httpCalls.filter((c) => c.path === '/api/user/session')).toHaveLength(1);
  });

  it('after a check that found nothing new, or failed: says so in the user’s words', async () => {
    const nothing = await render({}, { route: '/earn/j4r?j4r_paid=0&j4r_coins=0' });
    expect((await nothing.findByRole('status')).textContent).toContain('None of the servers you are in is new. Join one below, then check again.');
    expect(nothing.httpCalls.filter((c) => c.path === '/api/user/session')).toHaveLength(0);
    cleanup();

    const taken = await render({}, { route: '/earn/j4r?j4r_error=OAUTH_ACCOUNT_TAKEN' });
    const alert = await taken.findByRole('alert');
    expect(alert.textContent).toContain('The check did not work');
    expect(alert.textContent).toContain(en.errors.OAUTH_ACCOUNT_TAKEN);
    cleanup();

    const unknown = await render({}, { route: '/earn/j4r?j4r_error=SOMETHING_ELSE' });
    expect((await unknown.findByRole('alert')).textContent).toContain(en.errors.generic);
  });

  it('speaks Romanian', async () => {
    const app = await render({}, { locale: 'ro' });
    await app.findByRole('list', ro.listLabel);
    expect(app.getByRole('link', ro.check.button)).toBeTruthy();
  });
});
