// @vitest-environment jsdom
// /ws (spec §2: lost connection): it asks the panel again on request, by itself after a pause and when
// the browser comes back online, and goes back to the page it came from (of this panel only) as soon as
// the panel answers.
import { cleanup, renderPlugin, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

function panel() {
  const state = { up: false, asked: 0 };
  const http: HttpHandlers = {
    'GET /api/system/settings': () => {
      state.asked += 1;
      return state.up ? { body: {} } : { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'down' } } };
    },
  };
  return { state, http };
}

const open = (route: string, http: HttpHandlers) => renderPlugin(plugin, { manifest, route, catalogues: { en }, session: { user: { username: 'ana' } }, http });

describe('the lost-connection page (/ws)', () => {
  it('says the connection is lost, tries again on request, and goes back where it came from once the panel answers', async () => {
    const { state, http } = panel();
    const app = await open('/ws?from=/earn/afk', http);
    await app.findByRole('heading', en.lost.title);
    expect(app.getByText(en.lost.text)).toBeTruthy();
    await app.click(app.getByRole('button', en.lost.retry));
    await app.findByText(/Attempts so far: 1\./);
    expect(app.location().pathname).toBe('/ws');
    state.up = true;
    await app.click(app.getByRole('button', en.lost.retry));
    await app.waitFor(() => expect(app.location()).toMatchObject({ pathname: '/earn/afk', search: '' }));
  });

  it('comes back by itself when the panel answers again (the first automatic try is within about a second)', async () => {
    const { state, http } = panel();
    state.up = true;
    const app = await open('/ws?from=%2Fticket%2F5', http);
    await app.waitFor(() => expect(app.location().pathname).toBe('/ticket/5'), { timeout: 3_000 });
    expect(state.asked).toBe(1);
  });

  it('asks at once when the browser comes back online', async () => {
    const { state, http } = panel();
    const app = await open('/ws?from=/earn/afk', http);
    await app.findByRole('heading', en.lost.title);
    state.up = true;
    window.dispatchEvent(new Event('online'));
    await app.waitFor(() => expect(app.location().pathname).toBe('/earn/afk'));
  });

  it('only goes back to a path of this panel, else to the dashboard; "Go back" leads there too', async () => {
    const { http } = panel();
    const app = await open('/ws?from=//evil.example/x', http);
    expect((await app.findByRole('link', en.lost.back)).getAttribute('href')).toBe('/dashboard');
  });
});
