// @vitest-environment jsdom
import { cleanup, renderPlugin, sessionReply, type HttpHandlers, type TestSession } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import ro from '../locales/ro.json';

afterEach(() => cleanup());

const user: TestSession = { user: { username: 'alice', first_name: 'Alice', last_name: 'Liddell', email: 'alice@example.com', verified: true } };
const ACCOUNTS = 'GET /api/user/auth/oauth/accounts';
const both = [
  { id: 'discord', name: 'Discord', available: true },
  { id: 'github', name: 'GitHub', available: true },
];
const discordLink = { provider: 'discord', provider_user_id: '80351110224678912', provider_username: 'alice#disco', linked_at: '2026-01-02T10:00:00.000Z' };

function handlers(extra: HttpHandlers = {}): HttpHandlers {
  return {
    'GET /api/user/session/sessions': { body: { data: [] } },
    'GET /api/user/session/pin': { body: { pin: '012345' } },
    'GET /api/user/session/activities': { body: { data: [], meta: { page: 1, per_page: 10, total: 0, total_pages: 0 } } },
    'GET /api/user/session': sessionReply(user),
    'GET /api/user/mail-preferences': { body: { preferences: [] } },
    ...extra,
  };
}

async function open(extra: HttpHandlers, options: { route?: string; locale?: 'en' | 'ro' } = {}) {
  const app = await renderPlugin(plugin, { manifest, route: options.route ?? '/account', locale: options.locale, catalogues: { en, ro }, session: user, http: handlers(extra) });
  await app.findByRole('button', options.locale === 'ro' ? ro.profile.submit : 'Save profile');
  return app;
}

describe('account page: linked accounts', () => {
  it('shows each provider that is on: linked with its name and an unlink button, or a link to start linking', async () => {
    const app = await open({ [ACCOUNTS]: { body: { data: [discordLink], providers: both } } });
    const list = await app.findByRole('list', 'Linked accounts');
    expect(list.textContent).toContain('Discord');
    expect(list.textContent).toContain('Linked as alice#disco');
    expect(list.textContent).toContain('GitHub');
    expect(list.textContent).toContain('Not linked');
    expect(app.getByRole('button', 'Unlink Discord')).toBeTruthy();
    // a full page load of the server's start path (it redirects to GitHub)
    expect(app.getByRole('link', 'Link GitHub').getAttribute('href')).toBe('/api/user/auth/callback/github/link');
    expect(app.queryByRole('link', 'Link Discord')).toBeNull();
  });

  it('keeps a link to a provider that was turned off removable, and offers nothing else', async () => {
    const app = await open({ [ACCOUNTS]: { body: { data: [discordLink], providers: both.map((p) => ({ ...p, available: false })) } } });
    await app.findByRole('button', 'Unlink Discord');
    expect(app.queryByText('GitHub')).toBeNull();
  });

  it('is hidden when no provider is on and nothing is linked', async () => {
    const app = await open({ [ACCOUNTS]: { body: { data: [], providers: both.map((p) => ({ ...p, available: false })) } } });
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.path === '/api/user/auth/oauth/accounts')).toBe(true));
    expect(app.queryByText('Linked accounts')).toBeNull();
  });

  it('unlinks after confirming and shows the new state', async () => {
    let linked = true;
    const app = await open({
      [ACCOUNTS]: () => ({ body: { data: linked ? [discordLink] : [], providers: both } }),
      'POST /api/user/auth/callback/discord/unlink': () => {
        linked = false;
        return { body: { success: true } };
      },
    });
    await app.click(await app.findByRole('button', 'Unlink Discord'));
    await app.answerDialog('Unlink your Discord account?', 'confirm');
    await app.waitFor(() => expect(app.getByRole('link', 'Link Discord')).toBeTruthy());
    expect(app.httpCalls.filter((c) => c.method === 'POST' && c.path === '/api/user/auth/callback/discord/unlink')).toHaveLength(1);
  });

  it('shows where the provider sent the browser back from: linked, or why not (translated)', async () => {
    const ok = await open({ [ACCOUNTS]: { body: { data: [discordLink], providers: both } } }, { route: '/account?oauth_linked=discord' });
    // (a toast of an earlier test may still be showing: find the notice by its text)
    expect((await ok.findByText('Your Discord account is linked. You can now log in with it.')).closest('[role="status"]')).toBeTruthy();
    ok.unmount();

    const text = ro.linked.errors.OAUTH_ACCOUNT_TAKEN.replace('{{provider}}', 'GitHub');
    const taken = await open({ [ACCOUNTS]: { body: { data: [], providers: both } } }, { route: '/account?oauth_error=OAUTH_ACCOUNT_TAKEN&provider=github', locale: 'ro' });
    const alert = (await taken.findByText(text)).closest('[role="alert"]')!;
    await taken.click(alert.querySelector('button')!);
    await taken.waitFor(() => expect(taken.queryByText(text)).toBeNull());
    expect(taken.location().search).toBe('');
  });

  it('shows a load error with a retry', async () => {
    const app = await open({ [ACCOUNTS]: { status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'boom' } } } });
    await app.findByText('Linked accounts');
    expect(app.getByRole('button', /try again/i)).toBeTruthy();
  });
});
