// @vitest-environment jsdom
import { cleanup, renderPlugin, sessionReply } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import de from '../locales/de.json';

afterEach(() => cleanup());

const posts = (app: Awaited<ReturnType<typeof renderPlugin>>) => app.httpCalls.filter((call) => call.method === 'POST' && call.path === '/api/user/auth/sso');

describe('/auth/sso page', () => {
  it('exchanges the token from the address once, then completes the login', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/sso?token=abc.123.sig',
      catalogues: { en },
      http: {
        'POST /api/user/auth/sso': { body: { success: true, two_fa_required: false } },
        'GET /api/user/session': sessionReply({ user: { username: 'alice' } }),
      },
    });
    // completeLogin(): the session is fetched, then the after-login route (spec §2 rule 4)
    await app.waitFor(() => expect(app.location().pathname).toBe('/auth/after-login'));
    expect(posts(app)).toHaveLength(1);
    expect(posts(app)[0].body).toEqual({ token: 'abc.123.sig' });
    expect(app.httpCalls.some((call) => call.method === 'GET' && call.path === '/api/user/session')).toBe(true);
  });

  it('shows that the link does not work (translated), with the way to the login page', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/sso?token=used-token',
      locale: 'de',
      catalogues: { en, de },
      http: { 'POST /api/user/auth/sso': { status: 401, body: { error: { code: 'SSO_TOKEN_INVALID', message: 'This sign-in link is invalid or has expired.' } } } },
    });
    const alert = await app.findByRole('alert');
    expect(alert.textContent).toContain(de.errors.SSO_TOKEN_INVALID);
    expect(app.getByText(de.sso.failedHeading)).toBeTruthy();
    expect(app.getByRole('link', de.sso.toLogin).getAttribute('href')).toBe('/auth/login');
    expect(app.location().pathname).toBe('/auth/sso');
    expect(posts(app)).toHaveLength(1);
    expect(app.httpCalls.some((call) => call.path === '/api/user/session')).toBe(false);
  });

  it('asks the server nothing when the address has no token', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/auth/sso', catalogues: { en } });
    expect((await app.findByRole('alert')).textContent).toContain(en.sso.missing);
    expect(app.httpCalls).toHaveLength(0);
  });
});
