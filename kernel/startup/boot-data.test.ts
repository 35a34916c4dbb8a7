// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settingsStore } from '../../sdk/client/stores/settings';
import { BOOT_ELEMENT_ID, readBootData } from './boot-data';
import { refreshPublicSettings } from './public-settings';

function page(json: string | null) {
  document.head.innerHTML = json === null ? '' : `<script type="application/json" id="${BOOT_ELEMENT_ID}">${json}</script>`;
}

afterEach(() => {
  document.head.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('the start-up data in index.html', () => {
  it('reads the served manifests and the public settings, dropping entries that are not manifests', () => {
    page('{"plugins":[{"id":"auth","sdk":"^2.0.0","name":"\\u003c/script>"},{"nope":1}],"settings":{"app_name":"Panel"}}');
    expect(readBootData(document)).toEqual({ plugins: [{ id: 'auth', sdk: '^2.0.0', name: '</script>' }], settings: { app_name: 'Panel' }, custom: null });
  });

  it('reads the revisions of custom.css and custom.js (null: empty), ignoring unreadable ones', () => {
    page('{"plugins":[],"settings":{},"custom":{"css":null,"js":"Ab_-12"}}');
    expect(readBootData(document)?.custom).toEqual({ css: null, js: 'Ab_-12' });
    page('{"plugins":[],"settings":{},"custom":{"css":"a b","js":null}}');
    expect(readBootData(document)?.custom).toBeNull();
  });

  it('is absent on a page served without it (the kernel then fetches, silently)', () => {
    const log = { warn: vi.fn() };
    page(null);
    expect(readBootData(document, log)).toBeNull();
    expect(log.warn).not.toHaveBeenCalled();
  });

  it.each([
    ['broken JSON', '{"plugins":['],
    ['a list instead of an object', '[]'],
    ['plugins that are not a list', '{"plugins":{},"settings":{}}'],
    ['settings that are not an object', '{"plugins":[],"settings":[]}'],
  ])('falls back to fetching, with a warning, on %s', (_what, json) => {
    const log = { warn: vi.fn() };
    page(json);
    expect(readBootData(document, log)).toBeNull();
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining(`#${BOOT_ELEMENT_ID} is unreadable`), expect.any(Error));
  });

  it('reads the cached copy first, then refreshes it with the inline settings (spec §3)', async () => {
    localStorage.setItem('settings', JSON.stringify({ app_name: 'Cached', store_enabled: true }));
    const seen: unknown[] = [];
    const stop = settingsStore.subscribe((state) => seen.push(state.settings));
    await refreshPublicSettings(console, { app_name: 'Inline' });
    stop();
    expect(seen[0]).toEqual({ app_name: 'Cached', store_enabled: true });
    expect(settingsStore.getState().settings).toEqual({ app_name: 'Inline' });
    expect(JSON.parse(localStorage.getItem('settings') as string)).toEqual({ app_name: 'Inline' });
    localStorage.clear();
  });

  it('keeps the cached copy when the refresh fails, and replaces a corrupt one once the server answers', async () => {
    localStorage.setItem('settings', JSON.stringify({ app_name: 'Cached' }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('down', { status: 503 })),
    );
    const log = { warn: vi.fn() };
    await refreshPublicSettings(log);
    expect(settingsStore.getState().settings).toEqual({ app_name: 'Cached' });
    expect(log.warn).toHaveBeenCalled();

    localStorage.setItem('settings', 'not json');
    settingsStore.setState({ settings: {} });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ app_name: 'Served' }), { status: 200, headers: { 'content-type': 'application/json' } })),
    );
    await refreshPublicSettings(log);
    expect(error).toHaveBeenCalledWith('Failed to parse settings', expect.any(SyntaxError));
    expect(settingsStore.getState().settings).toEqual({ app_name: 'Served' });
    expect(JSON.parse(localStorage.getItem('settings') as string)).toEqual({ app_name: 'Served' });
    error.mockRestore();
    localStorage.clear();
  });

  it('applies inline settings without a request', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    await refreshPublicSettings(console, { app_name: 'Inline' });
    expect(fetch).not.toHaveBeenCalled();
    expect(settingsStore.getState().settings).toEqual({ app_name: 'Inline' });
    expect(settingsStore.getState().loaded).toBe(true);
  });
});
