// The panel's one i18next instance (spec §1, §9: six languages, the stored locale or English by
// default, English as fallback). Each plugin's texts live in the namespace named after its id; the
// kernel loads the catalogues (static JSON files) and adds them with addPluginCatalogue().
import i18next, { type i18n as I18n, type ResourceKey } from 'i18next';
import { useCallback } from 'react';
import { initReactI18next, useTranslation } from 'react-i18next';
import { LANGUAGE_COOKIE, LANGUAGES, type Language } from '../types';
import { kernelEvents } from './events';
import { hasKernelServices, kernelServices } from './kernel-services';
import { loadSdkTexts, SDK_NAMESPACE, SDK_TEXTS_EN, type SdkTextKey } from './sdk-texts';
import { readStored, STORAGE_KEYS, writeStored } from './storage';

export { Trans, useTranslation } from 'react-i18next';

/** spec §1: the fallback language. */
export const FALLBACK_LANGUAGE: Language = 'en';

/** The languages' own names, for the language picker. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = Object.freeze({
  en: 'English',
  ro: 'Română',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
  md: 'Moldovenească',
});

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Maps `en_US`, `ro-RO`, `FR` … to one of the six languages, or null. */
export function normalizeLanguage(value: string | null | undefined): Language | null {
  if (!value) return null;
  const code = value.trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(code) ? code : null;
}

/** spec §1: the stored locale, otherwise English. */
export function initialLanguage(): Language {
  return normalizeLanguage(readStored(STORAGE_KEYS.locale)) ?? FALLBACK_LANGUAGE;
}

/**
 * Keeps the cookie copy of the stored language (issue 15: the server pre-renders public pages in it)
 * equal to what initialLanguage() reads: set while a language is stored, removed when none is.
 */
export function mirrorLanguageCookie(doc: Pick<Document, 'cookie'> | null = typeof document === 'undefined' ? null : document): void {
  if (!doc) return;
  const stored = normalizeLanguage(readStored(STORAGE_KEYS.locale));
  const current = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`).exec(doc.cookie)?.[1] ?? null;
  if (stored === current) return;
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; secure' : '';
  doc.cookie = stored ? `${LANGUAGE_COOKIE}=${stored}; path=/; max-age=31536000; samesite=lax${secure}` : `${LANGUAGE_COOKIE}=; path=/; max-age=0; samesite=lax${secure}`;
}

/** The i18next instance every plugin shares (also what the `i18next` shared module resolves to). */
export const i18n: I18n = i18next;

if (!i18n.isInitialized) {
  i18n.use(initReactI18next);
  void i18n.init({
    lng: initialLanguage(),
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    load: 'languageOnly',
    ns: [SDK_NAMESPACE],
    defaultNS: SDK_NAMESPACE,
    resources: { [FALLBACK_LANGUAGE]: { [SDK_NAMESPACE]: SDK_TEXTS_EN } },
    // catalogues arrive later (the kernel fetches them), so never treat a missing one as an error
    partialBundledLanguages: true,
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false }, // React escapes
    // re-render translated components when a catalogue is added after they mounted
    react: { useSuspense: false, bindI18n: 'languageChanged loaded', bindI18nStore: 'added' },
  });
  // Intl knows no "md": Moldovan numbers and dates are formatted as Romanian in Moldova.
  const formatter = i18n.services.formatter;
  if (formatter) {
    formatter.add('number', (value, lng, options) => new Intl.NumberFormat(intlLocale(lng), options).format(value));
    formatter.add('datetime', (value, lng, options) => new Intl.DateTimeFormat(intlLocale(lng), options).format(value));
  }
}

/** The BCP 47 tag Intl should use for one of our interface languages. */
export function intlLocale(language: string | undefined): string {
  return language === 'md' ? 'ro-MD' : (language ?? FALLBACK_LANGUAGE);
}

const sdkTextsLoading = new Map<Language, Promise<void>>();

/**
 * Makes sure the sdk's own texts for `language` are loaded (English is built in; the others are small
 * chunks). The kernel awaits it at start-up for the stored locale; `changeLanguage` awaits it too.
 */
export function ensureSdkTexts(language: Language): Promise<void> {
  if (i18n.hasResourceBundle(language, SDK_NAMESPACE)) return Promise.resolve();
  let loading = sdkTextsLoading.get(language);
  if (!loading) {
    loading = loadSdkTexts(language).then(
      (texts) => {
        i18n.addResourceBundle(language, SDK_NAMESPACE, texts, true, false);
      },
      (error: unknown) => {
        sdkTextsLoading.delete(language); // a failed chunk may load on the next switch
        console.error(`Failed to load locale messages for ${language}`, error);
      },
    );
    sdkTextsLoading.set(language, loading);
  }
  return loading;
}

// Whoever switches the language (the sdk, the kernel, a test), the sdk's texts follow.
i18n.on('languageChanged', (language: string) => {
  const lang = normalizeLanguage(language);
  if (lang) void ensureSdkTexts(lang);
});
if (i18n.language) void ensureSdkTexts(currentLanguage());
mirrorLanguageCookie();

/** The current interface language. */
export function currentLanguage(): Language {
  return normalizeLanguage(i18n.resolvedLanguage ?? i18n.language) ?? FALLBACK_LANGUAGE;
}

/**
 * Adds (or extends) the texts of one namespace for one language: a plugin's catalogue under its id,
 * the kernel's under its own namespace. Later keys win over earlier ones. The object is taken over,
 * not copied (the callers pass JSON they just parsed): copying and deep-merging the start-up
 * catalogues cost several milliseconds of every page load (issue 15).
 */
export function addPluginCatalogue(namespace: string, language: Language, resources: ResourceKey): void {
  if (i18n.hasResourceBundle(language, namespace)) i18n.addResourceBundle(language, namespace, resources, true, true);
  else i18n.addResourceBundle(language, namespace, resources, false, true, { skipCopy: true });
}

/** True when texts for `namespace` in `language` were added. */
export function hasCatalogue(namespace: string, language: Language): boolean {
  return i18n.hasResourceBundle(language, namespace);
}

/**
 * Switches the interface language: the kernel loads the catalogues first (a catalogue that fails is
 * logged by the kernel and English shows instead, spec §8), then the choice is stored under `locale`
 * and `locale:changed` is emitted.
 */
export async function changeLanguage(language: Language): Promise<void> {
  if (!isLanguage(language)) throw new RangeError(`"${String(language)}" is not one of the panel's languages (${LANGUAGES.join(', ')})`);
  const previous = currentLanguage();
  const loadingKernelTexts = hasKernelServices()
    ? kernelServices()
        .loadLanguage(language)
        .catch((error: unknown) => console.error(`Failed to load locale messages for ${language}`, error))
    : Promise.resolve();
  await Promise.all([loadingKernelTexts, ensureSdkTexts(language)]);
  await i18n.changeLanguage(language);
  writeStored(STORAGE_KEYS.locale, language);
  mirrorLanguageCookie();
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  if (previous !== language) kernelEvents.emit('locale:changed', { locale: language, previous });
}

/** Translates one of the sdk's own texts (the UI kit's, dialogs' defaults). */
export function sdkText(key: SdkTextKey, values?: Record<string, string>): string {
  return i18n.t(key, { ns: SDK_NAMESPACE, ...values });
}

/** The sdk's own texts in the current language, re-rendering the component when the language changes. */
export function useSdkText(): (key: SdkTextKey, values?: Record<string, string | number>) => string {
  const { t } = useTranslation(SDK_NAMESPACE);
  return useCallback((key: SdkTextKey, values?: Record<string, string | number>) => t(key, values ?? {}), [t]);
}
