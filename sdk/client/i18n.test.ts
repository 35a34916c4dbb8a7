// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGES } from '../types';
import { kernelEvents } from './events';
import { addPluginCatalogue, changeLanguage, currentLanguage, i18n, LANGUAGE_NAMES, normalizeLanguage } from './i18n';
import { provideKernelServices } from './kernel-services';
import { loadSdkTexts, SDK_TEXTS_EN } from './sdk-texts';

afterEach(async () => {
  await i18n.changeLanguage('en');
  localStorage.clear();
});

describe('i18n', () => {
  it('falls back to English and knows the six languages (spec §1, §9)', () => {
    expect(i18n.options.fallbackLng).toEqual(['en']);
    expect(LANGUAGES).toEqual(['en', 'ro', 'fr', 'de', 'es', 'md']);
    expect(LANGUAGE_NAMES).toEqual({ en: 'English', ro: 'Română', fr: 'Français', de: 'Deutsch', es: 'Español', md: 'Moldovenească' });
  });

  it('has every sdk text in every language', async () => {
    const keys = Object.keys(SDK_TEXTS_EN).sort();
    for (const language of LANGUAGES) {
      const texts = await loadSdkTexts(language);
      expect(Object.keys(texts).sort(), language).toEqual(keys);
      for (const key of keys) expect(texts[key as keyof typeof texts], `${language}.${key}`).toMatch(/\S/);
      // interpolations survive translation
      expect(texts.pluginFailed, language).toContain('{{plugin}}');
    }
  });

  it('loads the sdk texts of a language when the panel switches to it', async () => {
    await changeLanguage('es');
    expect(i18n.t('retry', { ns: 'sdk' })).toBe('Reintentar');
  });

  it('normalises locale codes', () => {
    expect(normalizeLanguage('en_US')).toBe('en');
    expect(normalizeLanguage('ro-RO')).toBe('ro');
    expect(normalizeLanguage('FR')).toBe('fr');
    expect(normalizeLanguage('it')).toBeNull();
    expect(normalizeLanguage(null)).toBeNull();
  });

  it('plugins translate in their own namespace, falling back to English', async () => {
    addPluginCatalogue('hello', 'en', { title: 'Hello', only: 'English only' });
    addPluginCatalogue('hello', 'fr', { title: 'Bonjour' });
    await i18n.changeLanguage('fr');
    expect(i18n.t('title', { ns: 'hello' })).toBe('Bonjour');
    expect(i18n.t('only', { ns: 'hello' })).toBe('English only');
  });

  it('a second catalogue of a namespace extends the first, later keys winning, nested groups merged', async () => {
    addPluginCatalogue('merged', 'en', { title: 'First', group: { a: 'A', b: 'B' } });
    addPluginCatalogue('merged', 'en', { title: 'Second', group: { b: 'B2' }, extra: 'Extra' });
    await i18n.changeLanguage('en');
    expect(i18n.t('title', { ns: 'merged' })).toBe('Second');
    expect(i18n.t('group.a', { ns: 'merged' })).toBe('A');
    expect(i18n.t('group.b', { ns: 'merged' })).toBe('B2');
    expect(i18n.t('extra', { ns: 'merged' })).toBe('Extra');
  });

  it('changeLanguage loads the catalogues through the kernel, stores `locale` and emits locale:changed', async () => {
    const loaded: string[] = [];
    const stop = provideKernelServices({
      refreshSession: async () => {},
      clearSession: () => {},
      navigate: () => {},
      loadLanguage: async (language) => void loaded.push(language),
    });
    const seen = vi.fn();
    kernelEvents.on('locale:changed', seen);
    await changeLanguage('ro');
    kernelEvents.off('locale:changed', seen);
    stop();
    expect(loaded).toEqual(['ro']);
    expect(currentLanguage()).toBe('ro');
    expect(localStorage.getItem('locale')).toBe('ro');
    expect(document.documentElement.lang).toBe('ro');
    expect(seen).toHaveBeenCalledWith({ locale: 'ro', previous: 'en' });
  });

  it('a catalogue that fails still switches (English shows instead)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const stop = provideKernelServices({
      refreshSession: async () => {},
      clearSession: () => {},
      navigate: () => {},
      loadLanguage: () => Promise.reject(new Error('404')),
    });
    await changeLanguage('de');
    stop();
    expect(currentLanguage()).toBe('de');
    expect(error).toHaveBeenCalledWith('Failed to load locale messages for de', expect.any(Error));
  });

  it('refuses a language the panel does not have', async () => {
    await expect(changeLanguage('it' as 'en')).rejects.toThrow(/not one of the panel's languages/);
  });
});

describe('Moldovan formatting', () => {
  it('formats md numbers as ro-MD, not as the default locale', async () => {
    const { i18n: instance, intlLocale } = await import('./i18n');
    expect(intlLocale('md')).toBe('ro-MD');
    expect(intlLocale('fr')).toBe('fr');
    const formatted = instance.services.formatter?.format(1234567.5, 'number', 'md', {});
    expect(formatted).toBe(new Intl.NumberFormat('ro-MD').format(1234567.5));
    expect(formatted).not.toBe(new Intl.NumberFormat('en-US').format(1234567.5));
  });
});
