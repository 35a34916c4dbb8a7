// @vitest-environment jsdom
import { renderPlugin, sessionReply, cleanup } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import fr from '../locales/fr.json';

afterEach(() => cleanup());

const loggedIn = sessionReply({ user: { username: 'alice', first_name: 'Alice' } });

type App = Awaited<ReturnType<typeof renderPlugin>>;

async function fillAndSubmit(app: App, login: string, password: string) {
  await app.findByRole('button', 'Log in'); // the page is a lazy chunk
  await app.type(app.getByLabelText('Username or email'), login);
  await app.type(app.getByLabelText('Password'), password);
  await app.click(app.getByRole('button', 'Log in'));
}

describe('login page', () => {
  it('posts { login, password } and completes the login on success', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/login',
      catalogues: { en },
      http: {
        'POST /api/user/auth/login': { status: 200, body: { success: true } },
        'GET /api/user/session': loggedIn,
      },
    });
    await fillAndSubmit(app, '  alice@example.com ', 'correct horse battery');

    // completeLogin(): the session is fetched, then the after-login route (spec §2 rule 4)
    await app.waitFor(() => expect(app.location().pathname).toBe('/auth/after-login'));
    const login = app.httpCalls.find((call) => call.method === 'POST');
    expect(login?.path).toBe('/api/user/auth/login');
    expect(login?.body).toEqual({ login: 'alice@example.com', password: 'correct horse battery' });
    expect(app.httpCalls.some((call) => call.method === 'GET' && call.path === '/api/user/session')).toBe(true);
  });

  it("shows the server's error, translated by its code, and stays on the page", async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/login',
      catalogues: { en },
      http: {
        'POST /api/user/auth/login': {
          status: 401,
          body: { error: { code: 'INVALID_CREDENTIALS', message: 'Invalid username/email or password.' } },
        },
      },
    });
    await fillAndSubmit(app, 'alice', 'wrong password');

    const alert = await app.findByRole('alert');
    expect(alert.textContent).toContain('Invalid username/email or password.');
    expect(app.location().pathname).toBe('/auth/login');
    expect(app.httpCalls.some((call) => call.path === '/api/user/session')).toBe(false);
  });

  it('translates a known error code into the interface language', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/login',
      locale: 'fr',
      catalogues: { en, fr },
      http: {
        'POST /api/user/auth/login': {
          status: 401,
          body: { error: { code: 'INVALID_CREDENTIALS', message: 'Invalid username/email or password.' } },
        },
      },
    });
    await app.findByRole('button', 'Se connecter');
    await app.type(app.getByLabelText('Nom d’utilisateur ou e-mail'), 'alice');
    await app.type(app.getByLabelText('Mot de passe'), 'wrong password');
    await app.click(app.getByRole('button', 'Se connecter'));
    expect((await app.findByRole('alert')).textContent).toContain(fr.errors.INVALID_CREDENTIALS);
  });

  it("shows the server's own message for a code it has no translation for", async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/login',
      catalogues: { en },
      http: {
        'POST /api/user/auth/login': { status: 403, body: { error: { code: 'USER_BANNED', message: 'This account has been banned: spam' } } },
      },
    });
    await fillAndSubmit(app, 'spammer', 'password123');
    expect((await app.findByRole('alert')).textContent).toContain('This account has been banned: spam');
  });

  it('links to registration only while registration is enabled, and always to the legal pages', async () => {
    const open = await renderPlugin(plugin, { manifest, route: '/auth/login', catalogues: { en } });
    await open.findByRole('button', 'Log in');
    expect(open.getByRole('link', 'Create an account').getAttribute('href')).toBe('/auth/register');
    expect(open.getByRole('link', 'Privacy policy').getAttribute('href')).toBe('/privacy-policy');
    expect(open.getByRole('link', 'Terms of service').getAttribute('href')).toBe('/terms-of-service');
    open.unmount();

    const closed = await renderPlugin(plugin, { manifest, route: '/auth/login', catalogues: { en }, settings: { registration_enabled: false } });
    await closed.findByRole('button', 'Log in');
    expect(closed.queryByRole('link', 'Create an account')).toBeNull();
    expect(closed.getByRole('link', 'Privacy policy')).toBeTruthy();
  });

  it('focuses the first field and uses the autocomplete hints password managers expect', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/auth/login', catalogues: { en } });
    await app.findByRole('button', 'Log in');
    const login = app.getByLabelText('Username or email');
    expect(document.activeElement).toBe(login);
    expect(login.getAttribute('autocomplete')).toBe('username');
    expect(app.getByLabelText('Password').getAttribute('autocomplete')).toBe('current-password');
  });
});

describe('logout page', () => {
  it('revokes the session on the server and goes to the login page', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/logout',
      catalogues: { en },
      session: { user: { username: 'alice' } },
      http: { 'POST /api/user/auth/logout': { status: 200, body: { success: true } } },
    });
    await app.waitFor(() => expect(app.location().pathname).toBe('/auth/login'));
    // a POST: the server refuses a GET (any site could sign the user out with one)
    expect(app.httpCalls.filter((call) => call.path === '/api/user/auth/logout').map((call) => call.method)).toEqual(['POST']);
  });
});
