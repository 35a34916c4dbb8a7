// @vitest-environment jsdom
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import es from '../locales/es.json';

afterEach(() => cleanup());

describe('error pages', () => {
  it.each([
    ['/errors/403', '403', en.forbidden.title],
    ['/errors/500', '500', en.serverError.title],
    ['/no/such/page', '404', en.notFound.title],
  ])('%s shows its code %s and title', async (route, code, title) => {
    const app = await renderPlugin(plugin, { manifest, route, catalogues: { en } });
    await app.findByRole('heading', title);
    expect(app.getByText(code)).toBeTruthy();
  });

  it('offers the login page to a visitor and the dashboard to a logged-in user', async () => {
    const visitor = await renderPlugin(plugin, { manifest, route: '/errors/403', catalogues: { en } });
    expect((await visitor.findByRole('link', en.actions.login)).getAttribute('href')).toBe('/auth/login');
    expect(visitor.queryByRole('link', en.actions.dashboard)).toBeNull();
    visitor.unmount();

    const member = await renderPlugin(plugin, { manifest, route: '/no/such/page', catalogues: { en }, session: { user: { username: 'ana' } } });
    expect((await member.findByRole('link', en.actions.dashboard)).getAttribute('href')).toBe('/dashboard');
    expect(member.queryByRole('link', en.actions.login)).toBeNull();
  });

  it('goes back to the previous page when there is one', async () => {
    window.history.pushState({}, '', '/somewhere');
    const app = await renderPlugin(plugin, { manifest, route: '/no/such/page', catalogues: { en } });
    await app.navigate('/other/missing/page');
    await app.click(await app.findByRole('button', en.actions.back));
    await app.waitFor(() => expect(app.location().pathname).toBe('/no/such/page'));
  });

  it('speaks the interface language', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/errors/500', locale: 'es', catalogues: { en, es } });
    await app.findByRole('heading', es.serverError.title);
    expect(app.getByText(es.serverError.text)).toBeTruthy();
  });
});
