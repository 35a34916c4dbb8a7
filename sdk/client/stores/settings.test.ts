// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { kernelEvents } from '../events';
import { followCachedSettings, isSettingEnabled, settingsStore } from './settings';

beforeEach(() => {
  localStorage.clear();
  settingsStore.setState({ settings: {}, debug: null, loaded: false });
});
afterEach(() => vi.restoreAllMocks());

describe('settingsStore', () => {
  it('reads the cached copy (spec §3)', () => {
    localStorage.setItem('settings', JSON.stringify({ app_name: 'Cubes', store_enabled: true, nested: { no: 1 } }));
    expect(settingsStore.getState().hydrateFromCache()).toBe(true);
    expect(settingsStore.getState().settings).toEqual({ app_name: 'Cubes', store_enabled: true });
    expect(settingsStore.getState().loaded).toBe(false);
  });

  it.each([
    ['broken JSON', '{{{', SyntaxError],
    ['a list', '[1,2]', TypeError],
    ['a bare value', '"yes"', TypeError],
  ])('an invalid cached copy (%s) → "Failed to parse settings" (spec §8), and it is removed', (_what, raw, kind) => {
    localStorage.setItem('settings', raw);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(settingsStore.getState().hydrateFromCache()).toBe(false);
    expect(error).toHaveBeenCalledWith('Failed to parse settings', expect.any(kind));
    expect(settingsStore.getState().settings).toEqual({});
    expect(localStorage.getItem('settings')).toBeNull();
    // the server's copy replaces it
    settingsStore.getState().setSettings({ app_name: 'Cubes' });
    expect(JSON.parse(localStorage.getItem('settings')!)).toEqual({ app_name: 'Cubes' });
  });

  it('follows the copy another tab refreshed (storage event), and stops when told', () => {
    const stop = followCachedSettings(window);
    localStorage.setItem('settings', JSON.stringify({ app_name: 'From the other tab' }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'settings', newValue: localStorage.getItem('settings') }));
    expect(settingsStore.getState().settings).toEqual({ app_name: 'From the other tab' });
    // another key, or a cleared storage, changes nothing
    window.dispatchEvent(new StorageEvent('storage', { key: 'locale', newValue: 'de' }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'settings', newValue: null }));
    expect(settingsStore.getState().settings).toEqual({ app_name: 'From the other tab' });
    stop();
    localStorage.setItem('settings', JSON.stringify({ app_name: 'Later' }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'settings', newValue: localStorage.getItem('settings') }));
    expect(settingsStore.getState().settings).toEqual({ app_name: 'From the other tab' });
  });

  it('setSettings caches the server copy and emits settings:changed', () => {
    const seen = vi.fn();
    kernelEvents.on('settings:changed', seen);
    settingsStore.getState().setSettings({ app_name: 'Cubes' });
    kernelEvents.off('settings:changed', seen);
    expect(JSON.parse(localStorage.getItem('settings')!)).toEqual({ app_name: 'Cubes' });
    expect(settingsStore.getState().loaded).toBe(true);
    expect(seen).toHaveBeenCalledWith({ settings: { app_name: 'Cubes' } });
  });
});

describe('the spec §3 debug object', () => {
  const debug = { useRedis: true, rateLimit: { enabled: true, limit: 100 } };

  it('is kept beside the flat values, cached, and read back from the cache', () => {
    settingsStore.getState().setSettings({ app_name: 'Cubes', debug });
    expect(settingsStore.getState().debug).toEqual(debug);
    expect(settingsStore.getState().settings).toEqual({ app_name: 'Cubes' });
    settingsStore.setState({ settings: {}, debug: null });
    settingsStore.getState().hydrateFromCache();
    expect(settingsStore.getState().debug).toEqual(debug);
  });

  it('is null when the answer has none or a malformed one', () => {
    settingsStore.getState().setSettings({ app_name: 'Cubes' });
    expect(settingsStore.getState().debug).toBeNull();
    settingsStore.getState().setSettings({ debug: { useRedis: 'yes', rateLimit: { enabled: true, limit: 1 } } });
    expect(settingsStore.getState().debug).toBeNull();
    settingsStore.getState().setSettings({ debug: { useRedis: false, rateLimit: { enabled: true, limit: 'many' } } });
    expect(settingsStore.getState().debug).toBeNull();
  });
});

describe('isSettingEnabled', () => {
  it('reads booleans, numbers and text flags', () => {
    for (const on of [true, 1, '1', 'true', 'TRUE', 'yes', 'on']) expect(isSettingEnabled(on)).toBe(true);
    for (const off of [false, 0, '0', 'false', '', 'no', null, undefined]) expect(isSettingEnabled(off)).toBe(false);
  });
});
