// spec §4.2, §7, §8: message catalogues are static JSON files, one per language. At start-up the
// fallback language (English) and the stored language are loaded, for the kernel and for every
// plugin (each plugin's texts in the namespace named after its id). A catalogue that fails is logged
// — 'Failed to load locale messages for {locale}', or a separate message for the fallback one — and
// the panel carries on (i18next falls back to English, then to the key).
import type { ResourceKey } from 'i18next';
import type { Language } from '../../sdk/types';

/** The kernel's own i18n namespace (its texts are locales/<lang>.json). */
export const KERNEL_NAMESPACE = 'kernel';

/**
 * How a catalogue file maps onto i18n namespaces: a plugin's own file is one namespace; the kernel's
 * published file is a bundle `{ "<namespace>": {…}, … }` holding the kernel's texts and those of every
 * plugin built with it (one request per language instead of one per plugin; spec §7: one static file
 * per language).
 */
export type CatalogueShape = { namespace: string } | { bundle: true };
export const FALLBACK_LANGUAGE: Language = 'en';

/** Where index.html tells the kernel its hashed catalogue URLs (written by the build). */
export const KERNEL_LOCALES_ELEMENT_ID = 'orepanel-kernel-locales';

export type CatalogueFiles = Partial<Record<Language, string>>;

export interface CatalogueDeps {
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** adds the texts to the i18n instance (the sdk's addPluginCatalogue) */
  add(namespace: string, language: Language, resources: ResourceKey): void;
  log?: Pick<Console, 'error'>;
}

/** The catalogue URLs the build wrote into index.html; {} when there are none (e.g. tests). */
export function readKernelCatalogueFiles(doc: Document = document): CatalogueFiles {
  const element = doc.getElementById(KERNEL_LOCALES_ELEMENT_ID);
  if (!element?.textContent) return {};
  try {
    const parsed: unknown = JSON.parse(element.textContent);
    if (typeof parsed !== 'object' || parsed === null) return {};
    const files: CatalogueFiles = {};
    for (const [lang, url] of Object.entries(parsed)) if (typeof url === 'string') files[lang as Language] = url;
    return files;
  } catch {
    return {};
  }
}

/** spec §1: the fallback language first, then the current one (once if they are the same). */
export function cataloguesToLoad(current: Language): Language[] {
  return current === FALLBACK_LANGUAGE ? [FALLBACK_LANGUAGE] : [FALLBACK_LANGUAGE, current];
}

/** Fetches one catalogue; rejects on a non-OK answer or a body that is not a JSON object. */
export async function fetchCatalogue(fetchFn: CatalogueDeps['fetch'], url: string): Promise<ResourceKey> {
  const response = await fetchFn(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!response.ok) {
    // an unread body keeps the request open
    await response.body?.cancel();
    throw new Error(`${url} answered ${response.status}`);
  }
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error(`${url} is not a catalogue (a JSON object)`);
  return body as ResourceKey;
}

/** The console text of a catalogue that failed (spec §8). */
export function catalogueFailureMessage(language: Language, owner?: string): string {
  const base = language === FALLBACK_LANGUAGE ? 'Failed to load fallback locale messages' : `Failed to load locale messages for ${language}`;
  return owner ? `${base} (${owner})` : base;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Loads the catalogues of `languages` in parallel. Never rejects: a failure is logged with the spec's
 * text and the others still load. Resolves with the languages that loaded.
 * @param owner who the catalogue belongs to, for the log (e.g. `plugin "auth"`); omitted for the kernel
 */
export async function loadCatalogues(deps: CatalogueDeps, shape: CatalogueShape, files: CatalogueFiles, languages: readonly Language[], owner?: string): Promise<Language[]> {
  const log = deps.log ?? console;
  const loaded = await Promise.all(
    languages.map(async (language) => {
      const url = files[language];
      if (!url) {
        log.error(catalogueFailureMessage(language, owner), new Error(`no ${language} catalogue is published${owner ? ` for ${owner}` : ''}`));
        return null;
      }
      try {
        const catalogue = await fetchCatalogue(deps.fetch, url);
        if ('namespace' in shape) deps.add(shape.namespace, language, catalogue);
        else for (const [namespace, texts] of Object.entries(catalogue)) if (isRecord(texts)) deps.add(namespace, language, texts as ResourceKey);
        return language;
      } catch (error) {
        log.error(catalogueFailureMessage(language, owner), error);
        return null;
      }
    }),
  );
  return loaded.filter((l): l is Language => l !== null);
}
