// @vitest-environment jsdom
import { cleanup, renderPlugin, sessionReply } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

type App = Awaited<ReturnType<typeof renderPlugin>>;

const LABELS = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  username: 'Username',
  password: 'Password',
  password_confirm: 'Confirm password',
  ref: 'Referral code (optional)',
} as const;

async function openRegister(options: { route?: string; http?: Parameters<typeof renderPlugin>[1]['http']; settings?: Record<string, boolean> } = {}) {
  const app = await renderPlugin(plugin, {
    manifest,
    route: options.route ?? '/auth/register',
    catalogues: { en },
    http: options.http,
    settings: options.settings,
  });
  return app;
}

async function fill(app: App, values: Partial<Record<keyof typeof LABELS, string>>) {
  await app.findByRole('button', 'Create account');
  for (const [field, value] of Object.entries(values)) await app.type(app.getByLabelText(LABELS[field as keyof typeof LABELS]), value);
}

/** The error text shown under a field (its aria-describedby points at it). */
function fieldError(app: App, field: keyof typeof LABELS): string | null {
  const input = app.getByLabelText(LABELS[field]);
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

const valid = {
  first_name: 'Ana',
  last_name: 'Popescu',
  email: 'ana@example.com',
  username: 'ana.p',
  password: 'long enough',
  password_confirm: 'long enough',
};

describe('register page', () => {
  it('shows every client-side problem at once and sends nothing', async () => {
    const app = await openRegister();
    await fill(app, { username: 'a b', email: 'not-an-email', password: 'short', password_confirm: 'other' });
    await app.click(app.getByRole('button', 'Create account'));

    await app.waitFor(() => expect(fieldError(app, 'first_name')).toBe(en.validation.required));
    expect(fieldError(app, 'last_name')).toBe(en.validation.required);
    expect(fieldError(app, 'email')).toBe(en.validation.email);
    expect(fieldError(app, 'username')).toBe(en.validation.usernameCharacters);
    expect(fieldError(app, 'password')).toBe(en.validation.passwordLength);
    expect(fieldError(app, 'password_confirm')).toBe(en.validation.passwordMismatch);
    expect(fieldError(app, 'ref')).toBeNull();
    expect(app.httpCalls).toHaveLength(0);
    // the first field with a problem gets the focus
    expect(document.activeElement).toBe(app.getByLabelText(LABELS.first_name));
  });

  it('clears a problem as soon as it is fixed', async () => {
    const app = await openRegister();
    await fill(app, { ...valid, username: 'ab' });
    await app.click(app.getByRole('button', 'Create account'));
    await app.waitFor(() => expect(fieldError(app, 'username')).toBe(en.validation.usernameLength));
    await app.type(app.getByLabelText(LABELS.username), 'abc');
    expect(fieldError(app, 'username')).toBeNull();
  });

  it('prefills the referral code from ?ref= and sends it with the trimmed fields, then completes the login', async () => {
    const app = await openRegister({
      route: '/auth/register?ref=FRIEND42',
      http: {
        'POST /api/user/auth/register': { status: 201, body: { success: true, user: { uuid: 'u-1', username: 'ana.p' } } },
        'GET /api/user/session': sessionReply({ user: { username: 'ana.p', first_name: 'Ana' } }),
      },
    });
    await app.findByRole('button', 'Create account');
    expect((app.getByLabelText(LABELS.ref) as HTMLInputElement).value).toBe('FRIEND42');

    await fill(app, { ...valid, first_name: '  Ana ' });
    await app.click(app.getByRole('button', 'Create account'));

    await app.waitFor(() => expect(app.location().pathname).toBe('/auth/after-login'));
    const register = app.httpCalls.find((call) => call.method === 'POST');
    expect(register?.path).toBe('/api/user/auth/register');
    expect(register?.body).toEqual({
      first_name: 'Ana',
      last_name: 'Popescu',
      email: 'ana@example.com',
      username: 'ana.p',
      password: 'long enough',
      ref: 'FRIEND42',
    });
  });

  it('leaves ref out when no referral code was given', async () => {
    const app = await openRegister({
      http: {
        'POST /api/user/auth/register': { status: 201, body: { success: true, user: { uuid: 'u-1', username: 'ana.p' } } },
        'GET /api/user/session': sessionReply(),
      },
    });
    await fill(app, valid);
    await app.click(app.getByRole('button', 'Create account'));
    await app.waitFor(() => expect(app.httpCalls.some((call) => call.method === 'POST')).toBe(true));
    expect(app.httpCalls.find((call) => call.method === 'POST')?.body).not.toHaveProperty('ref');
  });

  it("puts the server's field error on the matching input", async () => {
    const app = await openRegister({
      http: {
        'POST /api/user/auth/register': {
          status: 409,
          body: { error: { code: 'USERNAME_TAKEN', message: 'This username is already taken.', field: 'username' } },
        },
      },
    });
    await fill(app, valid);
    await app.click(app.getByRole('button', 'Create account'));

    await app.waitFor(() => expect(fieldError(app, 'username')).toBe(en.errors.USERNAME_TAKEN));
    expect(fieldError(app, 'email')).toBeNull();
    expect(app.queryByRole('alert')).toBeNull();
    expect(app.location().pathname).toBe('/auth/register');
  });

  it('maps EMAIL_TAKEN to the email input', async () => {
    const app = await openRegister({
      http: {
        'POST /api/user/auth/register': {
          status: 409,
          body: { error: { code: 'EMAIL_TAKEN', message: 'An account with this email address already exists.', field: 'email' } },
        },
      },
    });
    await fill(app, valid);
    await app.click(app.getByRole('button', 'Create account'));
    await app.waitFor(() => expect(fieldError(app, 'email')).toBe(en.errors.EMAIL_TAKEN));
  });

  it('says registration is closed, with no form, when the host turned it off', async () => {
    const app = await openRegister({ settings: { registration_enabled: false } });
    await app.findByText(en.register.closedText);
    expect(app.queryByRole('button', 'Create account')).toBeNull();
    expect(app.getByRole('link', 'Log in').getAttribute('href')).toBe('/auth/login');
  });

  it('uses the autocomplete hints browsers and password managers expect', async () => {
    const app = await openRegister();
    await app.findByRole('button', 'Create account');
    const hint = (field: keyof typeof LABELS) => app.getByLabelText(LABELS[field]).getAttribute('autocomplete');
    expect(hint('first_name')).toBe('given-name');
    expect(hint('last_name')).toBe('family-name');
    expect(hint('email')).toBe('email');
    expect(hint('username')).toBe('username');
    expect(hint('password')).toBe('new-password');
    expect(hint('password_confirm')).toBe('new-password');
  });
});
