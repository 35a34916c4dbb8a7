// @vitest-environment jsdom
// The captcha on the auth forms: nothing (not even Cloudflare's script) while captcha_enabled is off;
// when on, Cloudflare's real script is requested, the widget is rendered with the site key and the
// form's action, its token is sent with the form, the server's CAPTCHA_* error shows under it, and a
// spent token is replaced by resetting the widget. The browser's Turnstile object is played by the
// test (jsdom does not run remote scripts).
import { renderPlugin, cleanup } from '@orepanel/sdk/testing';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import { TURNSTILE_SCRIPT_URL, type TurnstileApi } from '../client/CaptchaField';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

type RenderOptions = Parameters<TurnstileApi['render']>[1];

/** Stands in for window.turnstile: records what the component asks of it. */
function fakeTurnstile() {
  const rendered: RenderOptions[] = [];
  const resets: string[] = [];
  const removed: string[] = [];
  const api: TurnstileApi = {
    render(_container, options) {
      rendered.push(options);
      return `widget-${rendered.length}`;
    },
    reset: (id) => void resets.push(id),
    remove: (id) => void removed.push(id),
  };
  return { api, rendered, resets, removed };
}

const turnstileScripts = () => [...document.querySelectorAll('script')].filter((s) => s.src === TURNSTILE_SCRIPT_URL);
const captchaOn = { captcha_enabled: true, turnstile_site_key: '0x4AAAAAAA-site-key' };
type App = Awaited<ReturnType<typeof renderPlugin>>;

async function fillLogin(app: App) {
  await app.findByRole('button', 'Log in');
  await app.type(app.getByLabelText('Username or email'), 'alice');
  await app.type(app.getByLabelText('Password'), 'correct horse battery');
}

describe('captcha on the auth forms', () => {
  it('is absent while captcha_enabled is off: no widget, no script, no token in the body', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/login',
      catalogues: { en },
      settings: { captcha_enabled: false, turnstile_site_key: 'unused' },
      http: { 'POST /api/user/auth/login': { status: 401, body: { error: { code: 'INVALID_CREDENTIALS', message: 'Invalid username/email or password.' } } } },
    });
    await fillLogin(app);
    expect(app.queryByRole('group', 'Security check')).toBeNull();
    expect(turnstileScripts()).toHaveLength(0);
    await app.click(app.getByRole('button', 'Log in'));
    await app.findByRole('alert');
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({ login: 'alice', password: 'correct horse battery' });
  });

  it('says so when Cloudflare cannot be reached', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/auth/login', catalogues: { en }, settings: captchaOn });
    await app.findByRole('group', 'Security check');
    const [script] = turnstileScripts();
    expect(script).toBeDefined();
    await act(async () => {
      script.dispatchEvent(new Event('error'));
    });
    expect((await app.findByText(en.captcha.loadFailed)).textContent).toBe(en.captcha.loadFailed);
    // the failed script is removed, so the next widget may try again
    expect(turnstileScripts()).toHaveLength(0);
  });

  it("loads Cloudflare's script, sends the widget's token and shows the server's refusal under the widget, then resets it", async () => {
    const turnstile = fakeTurnstile();
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/login',
      catalogues: { en },
      settings: captchaOn,
      http: {
        'POST /api/user/auth/login': {
          status: 400,
          body: { error: { code: 'CAPTCHA_FAILED', message: 'The captcha check failed or has expired. Please solve it again.', field: 'captcha_token' } },
        },
      },
    });
    await fillLogin(app);
    const scripts = turnstileScripts();
    expect(scripts).toHaveLength(1);
    expect(scripts[0].src).toBe('https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit');
    await act(async () => {
      window.turnstile = turnstile.api;
      scripts[0].dispatchEvent(new Event('load'));
    });
    await app.waitFor(() => expect(turnstile.rendered).toHaveLength(1));
    expect(turnstile.rendered[0]).toMatchObject({ sitekey: '0x4AAAAAAA-site-key', action: 'login', theme: 'dark', language: 'en', 'response-field': false });

    await act(async () => turnstile.rendered[0].callback('token-from-cloudflare'));
    await app.click(app.getByRole('button', 'Log in'));
    const alert = await app.findByRole('alert');
    expect(alert.textContent).toBe(en.errors.CAPTCHA_FAILED);
    expect(app.getByRole('group', 'Security check').contains(alert)).toBe(true);
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({ login: 'alice', password: 'correct horse battery', captcha_token: 'token-from-cloudflare' });
    expect(app.location().pathname).toBe('/auth/login');
    // the token was used up by that check: the widget is asked for a new one
    await app.waitFor(() => expect(turnstile.resets).toEqual(['widget-1']));

    app.unmount();
    expect(turnstile.removed).toEqual(['widget-1']);
  });

  it('sends the token with a registration, solved for the register action', async () => {
    const turnstile = fakeTurnstile();
    window.turnstile = turnstile.api;
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/register',
      catalogues: { en },
      settings: captchaOn,
      http: { 'POST /api/user/auth/register': { status: 400, body: { error: { code: 'CAPTCHA_REQUIRED', message: 'Please complete the captcha.', field: 'captcha_token' } } } },
    });
    await app.findByRole('button', 'Create account');
    await app.waitFor(() => expect(turnstile.rendered).toHaveLength(1));
    expect(turnstile.rendered[0].action).toBe('register');
    await app.type(app.getByLabelText('First name'), 'Ada');
    await app.type(app.getByLabelText('Last name'), 'Lovelace');
    await app.type(app.getByLabelText('Email'), 'ada@example.com');
    await app.type(app.getByLabelText('Username'), 'ada');
    await app.type(app.getByLabelText('Password'), 'correct horse battery');
    await app.type(app.getByLabelText('Confirm password'), 'correct horse battery');
    await act(async () => turnstile.rendered[0].callback('register-token'));
    await app.click(app.getByRole('button', 'Create account'));
    expect((await app.findByRole('alert')).textContent).toBe(en.errors.CAPTCHA_REQUIRED);
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toMatchObject({ username: 'ada', captcha_token: 'register-token' });
  });

  it('explains a captcha switched on without a site key instead of showing an empty box', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/auth/forgot-password', catalogues: { en }, settings: { captcha_enabled: true, turnstile_site_key: '' } });
    expect((await app.findByText(en.captcha.notConfigured)).textContent).toBe(en.captcha.notConfigured);
  });
});
