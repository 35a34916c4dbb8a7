// @vitest-environment jsdom
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import es from '../locales/es.json';

afterEach(() => cleanup());

const bothOn = { discord_enabled: true, discord_client_id: '1234', github_enabled: true, github_client_id: 'Iv1.abc' };

describe('login page: Discord and GitHub', () => {
  it('offers each provider that is on and has a client id, as a full page load of the server start path', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/auth/login', catalogues: { en }, settings: bothOn });
    await app.findByRole('button', 'Log in');
    const discord = app.getByRole('link', 'Log in with Discord');
    expect(discord.getAttribute('href')).toBe('/api/user/auth/callback/discord/login');
    expect(app.getByRole('link', 'Log in with GitHub').getAttribute('href')).toBe('/api/user/auth/callback/github/login');
    expect(app.getByText(en.oauth.or)).toBeTruthy();
  });

  it('shows no provider that is off or has no client id', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/login',
      catalogues: { en },
      settings: { discord_enabled: false, discord_client_id: '1234', github_enabled: true, github_client_id: '' },
    });
    await app.findByRole('button', 'Log in');
    expect(app.queryByRole('link', 'Log in with Discord')).toBeNull();
    expect(app.queryByRole('link', 'Log in with GitHub')).toBeNull();
    expect(app.queryByText(en.oauth.or)).toBeNull();
  });

  it('explains a failed provider login it was sent back with, translated, and can be dismissed', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/auth/login?oauth_error=OAUTH_ACCOUNT_NOT_LINKED&provider=github',
      locale: 'es',
      catalogues: { en, es },
      settings: bothOn,
    });
    const alert = await app.findByRole('alert');
    expect(alert.textContent).toContain(es.oauth.errors.OAUTH_ACCOUNT_NOT_LINKED.replace('{{provider}}', 'GitHub'));
    await app.click(alert.querySelector('button')!);
    await app.waitFor(() => expect(app.queryByRole('alert')).toBeNull());
    expect(app.location().search).toBe('');
  });

  it('gives an unknown error code a readable sentence', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/auth/login?oauth_error=SOMETHING_NEW&provider=discord', catalogues: { en } });
    expect((await app.findByRole('alert')).textContent).toContain('Logging in with Discord did not work. Please try again.');
  });
});
