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
    expect(readBootData(document)).toEqual({ plugins: [{ id: 'auth', sdk: '^2.0.0', name: '</script>' }], settings: { app_name: 'Panel' } });
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

  it('applies inline settings without a request', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    await refreshPublicSettings(console, { app_name: 'Inline' });
    expect(fetch).not.toHaveBeenCalled();
    expect(settingsStore.getState().settings).toEqual({ app_name: 'Inline' });
    expect(settingsStore.getState().loaded).toBe(true);
  });
});
