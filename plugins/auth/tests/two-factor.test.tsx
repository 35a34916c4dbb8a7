// @vitest-environment jsdom
import { cleanup, renderPlugin, sessionReply } from '@orepanel/sdk/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import { goToServerPath } from '../client/server-navigation';
import { encodeQr, qrPath } from '../client/qr-code';
import { groupSecret, normaliseTwoFactorCode } from '../client/two-factor-code';

// jsdom cannot load another page: record where the browser would go
vi.mock('../client/server-navigation', () => ({ goToServerPath: vi.fn() }));

beforeEach(() => vi.mocked(goToServerPath).mockClear());
afterEach(() => cleanup());

const posts = (app: Awaited<ReturnType<typeof renderPlugin>>, path: string) => app.httpCalls.filter((c) => c.method === 'POST' && c.path === path);

describe('two-factor codes', () => {
  it('accepts 6 digits or a recovery code, trimmed, and nothing else', () => {
    expect(normaliseTwoFactorCode(' 123456 ')).toBe('123456');
    expect(normaliseTwoFactorCode('ABCDE-23456')).toBe('ABCDE-23456');
    expect(normaliseTwoFactorCode('12345')).toBeNull();
    expect(normaliseTwoFactorCode('12 34')).toBeNull();
    expect(normaliseTwoFactorCode('<script>')).toBeNull();
  });

  it('groups a secret by four for typing', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
  });
});

describe('2FA verify page (open without login)', () => {
  it('posts the code and completes the login', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/2fa/verify',
      catalogues: { en },
      http: { 'POST /api/user/auth/2fa/verify': { body: { success: true } }, 'GET /api/user/session': sessionReply() },
    });
    await app.type(app.getByLabelText('Code'), ' 123 456 ');
    await app.click(app.getByRole('button', 'Verify'));
    await app.waitFor(() => expect(app.location().pathname).toBe('/auth/after-login'));
    expect(posts(app, '/api/user/auth/2fa/verify')[0].body).toEqual({ code: '123 456' });
  });

  it('shows a wrong code on the field and stays', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/2fa/verify',
      catalogues: { en },
      http: { 'POST /api/user/auth/2fa/verify': { status: 400, body: { error: { code: 'TWO_FA_INVALID_CODE', message: 'bad', field: 'code' } } } },
    });
    await app.type(app.getByLabelText('Code'), '000000');
    await app.click(app.getByRole('button', 'Verify'));
    await app.waitFor(() => expect(app.getByLabelText('Code').getAttribute('aria-invalid')).toBe('true'));
    expect(document.body.textContent).toContain(en.errors.TWO_FA_INVALID_CODE);
    expect(app.location().pathname).toBe('/auth/2fa/verify');
  });

  it('with ?next=disband re-verifies and sends the browser back to the kill route', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/2fa/verify?next=disband',
      catalogues: { en },
      session: {},
      http: { 'POST /api/user/auth/2fa/reverify': { body: { success: true, valid_until: '2030-01-01T00:00:00.000Z' } } },
    });
    await app.type(app.getByLabelText('Code'), 'ABCDE-23456');
    await app.click(app.getByRole('button', 'Confirm and turn off'));
    await app.waitFor(() => expect(goToServerPath).toHaveBeenCalledWith('/api/auth/2fa/setup/kill'));
    expect(posts(app, '/api/user/auth/2fa/reverify')[0].body).toEqual({ code: 'ABCDE-23456' });
    expect(posts(app, '/api/user/auth/2fa/verify')).toHaveLength(0);
  });
});

describe('2FA setup page', () => {
  const secret = {
    secret: 'JBSWY3DPEHPK3PXP',
    otpauth_url: 'otpauth://totp/Orepanel:alice?secret=JBSWY3DPEHPK3PXP&issuer=Orepanel',
    issuer: 'Orepanel',
    account_name: 'alice',
    digits: 6,
    period: 30,
  };

  it('shows the secret and the otpauth link, confirms with a code and shows the recovery codes once', async () => {
    const codes = ['AAAAA-BBBBB', 'CCCCC-DDDDD'];
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/2fa/setup',
      catalogues: { en },
      session: { user: { username: 'alice' } },
      http: {
        'GET /api/user/auth/2fa/setup': { body: secret },
        'POST /api/user/auth/2fa/setup': { body: { success: true, recovery_codes: codes } },
        'GET /api/user/session': sessionReply({ user: { username: 'alice', two_fa_enabled: true } }),
      },
    });
    await app.findByText('JBSW Y3DP EHPK 3PXP');
    expect(app.getByRole('link', 'Open in authenticator app').getAttribute('href')).toBe(secret.otpauth_url);
    // the QR code encodes the otpauth:// address (the encoder is checked in qr-code.test.ts)
    const qr = app.getByRole('img', en.twoFactor.qrLabel);
    expect(qr.querySelector('path')?.getAttribute('d')).toBe(qrPath(encodeQr(secret.otpauth_url)));

    await app.type(app.getByLabelText('Code from the app'), 'ABCDE-12345');
    await app.click(app.getByRole('button', 'Turn on two-factor authentication'));
    await app.findByText(en.twoFactor.invalidSetupCode);
    expect(posts(app, '/api/user/auth/2fa/setup')).toHaveLength(0);

    await app.type(app.getByLabelText('Code from the app'), '654321');
    await app.click(app.getByRole('button', 'Turn on two-factor authentication'));
    await app.findByText('AAAAA-BBBBB');
    expect(app.getByText('CCCCC-DDDDD')).toBeTruthy();
    expect(posts(app, '/api/user/auth/2fa/setup')[0].body).toEqual({ code: '654321' });
    expect(app.getByRole('button', 'Copy codes')).toBeTruthy();
    expect(app.getByRole('link', 'I have saved my codes').getAttribute('href')).toBe('/account?two_fa=enabled');
  });

  it('copies the recovery codes to the clipboard', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/2fa/setup',
      catalogues: { en },
      session: { user: { username: 'alice' } },
      http: { 'GET /api/user/auth/2fa/setup': { body: secret }, 'POST /api/user/auth/2fa/setup': { body: { success: true, recovery_codes: ['AAAAA-BBBBB', 'CCCCC-DDDDD'] } } },
    });
    await app.findByText('JBSW Y3DP EHPK 3PXP');
    await app.type(app.getByLabelText('Code from the app'), '654321');
    await app.click(app.getByRole('button', 'Turn on two-factor authentication'));
    await app.click(await app.findByRole('button', 'Copy codes'));
    await app.findByRole('button', 'Copied');
    expect(writeText).toHaveBeenCalledWith('AAAAA-BBBBB\nCCCCC-DDDDD');
  });

  it('does not start a setup when 2FA is already on', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/auth/2fa/setup', catalogues: { en }, session: { user: { two_fa_enabled: true } } });
    await app.findByText(en.twoFactor.alreadyOn);
    expect(app.httpCalls).toHaveLength(0);
  });
});

describe('2FA disband page', () => {
  it('sends the browser to the server path /api/auth/2fa/setup/kill (spec §2)', async () => {
    await renderPlugin(plugin, { manifest, route: '/auth/2fa/setup/disband', catalogues: { en }, session: { user: { two_fa_enabled: true } } });
    expect(goToServerPath).toHaveBeenCalledTimes(1);
    expect(goToServerPath).toHaveBeenCalledWith('/api/auth/2fa/setup/kill');
  });

  it('waits while the session has not answered: the kill route revokes the token that request carries', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/auth/2fa/setup/disband', catalogues: { en } });
    await app.findByText(en.twoFactor.disbandTitle);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(goToServerPath).not.toHaveBeenCalled();
  });
});
