// @vitest-environment jsdom
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const posts = (app: Awaited<ReturnType<typeof renderPlugin>>, path: string) => app.httpCalls.filter((c) => c.method === 'POST' && c.path === path);

describe('forgot password page', () => {
  it('is linked from the login page', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/auth/login', catalogues: { en } });
    await app.findByRole('button', 'Log in');
    expect(app.getByRole('link', 'Forgot password?').getAttribute('href')).toBe('/auth/forgot-password');
  });

  it('checks the address, posts { email } and always shows the same message', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/forgot-password',
      catalogues: { en },
      http: { 'POST /api/user/auth/forgot': { body: { success: true, message: 'If an account uses this address, a link to reset its password is on its way.' } } },
    });
    await app.type(app.getByLabelText('Email'), 'not an address');
    await app.click(app.getByRole('button', 'Send the link'));
    await app.findByText(en.validation.email);
    expect(posts(app, '/api/user/auth/forgot')).toHaveLength(0);

    await app.type(app.getByLabelText('Email'), '  someone@example.com ');
    await app.click(app.getByRole('button', 'Send the link'));
    await app.findByText(en.forgot.sent);
    expect(posts(app, '/api/user/auth/forgot')[0].body).toEqual({ email: 'someone@example.com' });
  });

  it('says so when the panel cannot send mail', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/forgot-password',
      catalogues: { en },
      http: { 'POST /api/user/auth/forgot': { status: 409, body: { error: { code: 'MAIL_DISABLED', message: 'No mail.' } } } },
    });
    await app.type(app.getByLabelText('Email'), 'someone@example.com');
    await app.click(app.getByRole('button', 'Send the link'));
    expect((await app.findByRole('alert')).textContent).toContain(en.errors.MAIL_DISABLED);
  });
});

describe('reset password page', () => {
  const TOKEN = 'tok_abc-123';

  it('checks the token, then posts { token, password } and links to login', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: `/auth/reset-password?token=${TOKEN}`,
      catalogues: { en },
      http: {
        'GET /api/user/auth/reset': { body: { success: true } },
        'POST /api/user/auth/reset': { body: { success: true } },
      },
    });
    await app.findByRole('button', 'Set the new password');
    expect(app.httpCalls[0].url).toBe(`/api/user/auth/reset?token=${TOKEN}`);

    await app.type(app.getByLabelText('New password'), 'new password 1');
    await app.type(app.getByLabelText('Confirm new password'), 'other password');
    await app.click(app.getByRole('button', 'Set the new password'));
    await app.findByText(en.validation.passwordMismatch);
    expect(posts(app, '/api/user/auth/reset')).toHaveLength(0);

    await app.type(app.getByLabelText('Confirm new password'), 'new password 1');
    await app.click(app.getByRole('button', 'Set the new password'));
    await app.findByText(en.reset.done);
    expect(posts(app, '/api/user/auth/reset')[0].body).toEqual({ token: TOKEN, password: 'new password 1' });
    expect(app.getByRole('link', 'Go to login').getAttribute('href')).toBe('/auth/login');
  });

  it('shows an invalid or expired link with a way to ask for a new one', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/reset-password?token=used',
      catalogues: { en },
      http: { 'GET /api/user/auth/reset': { status: 400, body: { error: { code: 'RESET_TOKEN_INVALID', message: 'x', field: 'token' } } } },
    });
    await app.findByText(en.reset.invalid);
    expect(app.getByRole('link', 'Request a new link').getAttribute('href')).toBe('/auth/forgot-password');
    expect(app.queryByRole('button', 'Set the new password')).toBeNull();
  });

  it('does not ask the server without a token', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/auth/reset-password', catalogues: { en } });
    await app.findByText(en.reset.invalid);
    expect(app.httpCalls).toHaveLength(0);
  });
});
