import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { kernelEvents } from '../../sdk/client/events';
import { createMemoryCleanup, freeUnusedCatalogues, MEMORY_CLEANUP_INTERVAL_MS } from './memory-cleanup';

afterEach(() => {
  vi.useRealTimers();
  kernelEvents.all.clear();
});

async function catalogues() {
  const i18n = i18next.createInstance();
  await i18n.init({ lng: 'en', fallbackLng: 'en', resources: {} });
  for (const lang of ['en', 'ro', 'fr', 'de']) {
    i18n.addResourceBundle(lang, 'kernel', { hello: lang });
    i18n.addResourceBundle(lang, 'tickets', { title: lang });
    i18n.addResourceBundle(lang, 'sdk', { ok: lang });
  }
  return i18n;
}

describe('memory cleanup (spec §9: every 30 seconds)', () => {
  it('runs every 30 000 ms while memoryOptimization is on, and not at all once it is off', () => {
    vi.useFakeTimers();
    expect(MEMORY_CLEANUP_INTERVAL_MS).toBe(30_000);
    const free = vi.fn();
    const heard: number[] = [];
    kernelEvents.on('memory:cleanup', ({ at }) => heard.push(at));
    const cleanup = createMemoryCleanup({ free, now: () => Date.now(), setInterval: (fn, ms) => setInterval(fn, ms), clearInterval: (h) => clearInterval(h as number) });
    cleanup.sync(true);
    cleanup.sync(true); // a second "on" does not start a second timer
    vi.advanceTimersByTime(29_999);
    expect(free).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(free).toHaveBeenCalledTimes(1);
    expect(heard).toHaveLength(1);
    vi.advanceTimersByTime(30_000);
    expect(free).toHaveBeenCalledTimes(2);
    cleanup.sync(false);
    vi.advanceTimersByTime(120_000);
    expect(free).toHaveBeenCalledTimes(2);
    expect(heard).toHaveLength(2);
  });

  it('a failing free is logged and the event still goes out', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const heard = vi.fn();
    kernelEvents.on('memory:cleanup', heard);
    const cleanup = createMemoryCleanup({
      free: () => {
        throw new Error('boom');
      },
      now: () => 5,
      setInterval: () => 0,
      clearInterval: () => {},
    });
    cleanup.run();
    expect(error).toHaveBeenCalledWith('Memory cleanup failed', expect.any(Error));
    expect(heard).toHaveBeenCalledWith({ at: 5 });
    error.mockRestore();
  });

  it('frees the catalogues of languages left behind, keeping the current one, English and the sdk texts', async () => {
    const i18n = await catalogues();
    const now = 1_000_000;
    const lastAdded = new Map([
      ['ro', now - 60_000],
      ['fr', now - 60_000],
      // de is still loading for a switch: its first catalogue came 2 s ago
      ['de', now - 2_000],
    ]);
    const freed = freeUnusedCatalogues(i18n, ['fr', 'en'], lastAdded, now);
    expect(freed).toEqual(['ro']);
    expect(i18n.hasResourceBundle('ro', 'kernel')).toBe(false);
    expect(i18n.hasResourceBundle('ro', 'tickets')).toBe(false);
    expect(i18n.hasResourceBundle('ro', 'sdk')).toBe(true);
    for (const lang of ['en', 'fr', 'de']) expect(i18n.hasResourceBundle(lang, 'kernel'), lang).toBe(true);
    // nothing left to free the next time
    expect(freeUnusedCatalogues(i18n, ['fr', 'en'], lastAdded, now + 60_000)).toEqual(['de']);
    expect(freeUnusedCatalogues(i18n, ['fr', 'en'], lastAdded, now + 90_000)).toEqual([]);
  });
});
