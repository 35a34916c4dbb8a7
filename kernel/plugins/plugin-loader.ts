// spec §4.3: installing the plugins. GET /api/system/plugins (or its copy inside index.html) gives
// the enabled plugins' manifests; at start-up each one's sdk range is checked and they are ordered so
// that `requires` come first — the router, the guards and the navigation are built from these
// manifests without running plugin code. A plugin's client (its entry bundle, loaded through a
// SystemJS registry with its SRI integrity, and its catalogues for the fallback and current language)
// is installed when it is first needed: one of its routes or slot components renders, or at start-up
// when it must hear kernel hooks or events from the beginning (plugin.json "startup", which defaults
// to true for a plugin declaring hooks or events: sdk/manifest.ts installsAtStartup).
// Loading a plugin loads what it `requires` first. More plugins then do not mean a slower first page.
// A plugin that fails at any step is skipped and reported (console naming the plugin and the reason,
// registryStore.failed, 'plugin:failed') — the host and the other plugins keep running.
import type { InstallResult } from '../../sdk/client/install';
import type { PluginFailure } from '../../sdk/client/events';
import { installsAtStartup, orderByRequires, sdkRangeProblem } from '../../sdk/manifest';
import type { Language, ServedPluginManifest } from '../../sdk/types';
import { cataloguesToLoad, loadCatalogues, type CatalogueDeps } from '../i18n/catalogues';
import { registerIntegrity, type SystemLoader } from '../modules/system-registry';
import { servedManifestsFrom } from '../startup/boot-data';

export const PLUGINS_URL = '/api/system/plugins';

export interface PluginLoaderDeps {
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** the registry plugins are loaded into (createPluginRegistry()) */
  registry: SystemLoader;
  /** adds a catalogue to the i18n instance */
  addCatalogue: CatalogueDeps['add'];
  /** is a namespace's catalogue for a language there already? */
  hasCatalogue(namespace: string, language: Language): boolean;
  /** the interface language now */
  language(): Language;
  /** the sdk's installPlugin, with the kernel's parts bound */
  install(candidate: unknown, manifest: ServedPluginManifest): InstallResult;
  /** the sdk's reportPluginFailure */
  report(failure: PluginFailure, error?: unknown): void;
  log?: Pick<Console, 'error'>;
  /** the manifests index.html carried (kernel/startup/boot-data.ts); absent: fetched from PLUGINS_URL */
  manifests?: ServedPluginManifest[];
}

/** GET /api/system/plugins; rejects when it cannot be read (the whole step fails, spec §8). */
export async function fetchPluginManifests(fetchFn: PluginLoaderDeps['fetch']): Promise<ServedPluginManifest[]> {
  const response = await fetchFn(PLUGINS_URL, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${PLUGINS_URL} answered ${response.status}`);
  }
  const manifests = servedManifestsFrom(await response.json());
  if (!manifests) throw new Error(`${PLUGINS_URL} did not answer a list of manifests`);
  return manifests;
}

/** A readable reason for a bundle that SystemJS could not load. */
function loadFailureReason(manifest: ServedPluginManifest, error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // SystemJS error #3: the <script> fired "error" — a network failure, a 404, or an integrity mismatch
  if (/errors\.md#3\b/.test(text)) {
    return `plugin "${manifest.id}" was skipped: its bundle ${manifest.entry} could not be loaded (network error, missing file, or its bytes do not match the integrity ${manifest.integrity})`;
  }
  if (/errors\.md#2\b/.test(text)) {
    return `plugin "${manifest.id}" was skipped: ${manifest.entry} is not a System.register bundle`;
  }
  return `plugin "${manifest.id}" was skipped: loading ${manifest.entry} failed: ${text}`;
}

function absoluteUrl(path: string): string {
  return typeof location === 'undefined' ? path : new URL(path, location.href).href;
}

type BundleLoad = { ok: true; module: Record<string, unknown> } | { ok: false; reason: string; error?: unknown; download: boolean };

/** Starts fetching a plugin's entry bundle, with its integrity. */
function startBundleLoad(deps: PluginLoaderDeps, manifest: ServedPluginManifest): Promise<BundleLoad> {
  if (manifest.client === false) return Promise.resolve({ ok: true, module: {} });
  if (!manifest.entry) {
    return Promise.resolve({ ok: false, download: false, reason: `plugin "${manifest.id}" was skipped: its manifest has no entry bundle (was it built?)` });
  }
  if (!manifest.integrity || !/^sha(256|384|512)-/.test(manifest.integrity)) {
    return Promise.resolve({ ok: false, download: false, reason: `plugin "${manifest.id}" was skipped: its manifest has no integrity for ${manifest.entry}` });
  }
  const url = absoluteUrl(manifest.entry);
  registerIntegrity(deps.registry, url, manifest.integrity);
  return deps.registry.import(url).then(
    (module) => ({ ok: true as const, module: module as Record<string, unknown> }),
    (error: unknown) => ({ ok: false as const, download: true, reason: loadFailureReason(manifest, error), error }),
  );
}

/** The served plugins, checked at start-up; their client code is installed when first needed. */
export interface PluginSet {
  /** every manifest served, in `requires` order (refused ones last) */
  manifests: ServedPluginManifest[];
  /**
   * ids of the plugins whose routes, nav items and slots the panel offers: a compatible sdk range and
   * every requirement served. Their client installs on first need ({@link PluginSet.install}).
   */
  offered: string[];
  /** ids of the plugins refused at start-up (sdk range, missing or cyclic requirement) */
  refused: string[];
  /**
   * Installs an offered plugin's client — its requirements first — once: the entry bundle (with its
   * integrity) and its catalogues are fetched, then setup() runs. Concurrent calls share one load.
   * Resolves true when the plugin runs, false when it (or a requirement) failed: that is reported.
   */
  install(id: string): Promise<boolean>;
  /**
   * Lets the next need fetch again a plugin whose entry could not be downloaded (a flaky network);
   * a plugin refused for what its code does (setup, contract) stays refused.
   */
  forgetFailedDownloads(): void;
  /** Loads `language`'s catalogue of every plugin whose texts are in use (before a language switch). */
  loadLanguage(language: Language): Promise<void>;
}

/** A plugin's texts the kernel shows before its code runs: its nav labels (the sidebar). */
function showsTextsBeforeInstall(manifest: ServedPluginManifest): boolean {
  return (manifest.nav?.length ?? 0) > 0;
}

/**
 * Reads the served manifests and checks them (sdk range, `requires`), loads the catalogues of the
 * plugins whose nav labels the shell shows, and installs the plugins that must run from the start
 * ({@link installsAtStartup}), with their requirements. Every other plugin's entry is fetched only
 * when one of its routes or slot components is first rendered, through {@link PluginSet.install}.
 * Rejects only when the manifests
 * cannot be fetched (the caller logs 'Failed to initialize Vue plugins'); any single plugin's failure
 * is reported and skipped.
 */
export async function preparePlugins(deps: PluginLoaderDeps): Promise<PluginSet> {
  const served = deps.manifests ?? (await fetchPluginManifests(deps.fetch));
  const refused = new Set<string>();
  const refuseAtStart = (manifest: ServedPluginManifest, phase: PluginFailure['phase'], reason: string) => {
    refused.add(manifest.id);
    deps.report({ pluginId: manifest.id, phase, reason });
  };

  // 1. the plugin API version: an incompatible plugin is never downloaded
  const compatible: ServedPluginManifest[] = [];
  for (const manifest of served) {
    const problem = sdkRangeProblem(manifest.sdk);
    if (problem) refuseAtStart(manifest, 'sdk', `plugin "${manifest.id}" was refused: ${problem}`);
    else compatible.push(manifest);
  }

  // 2. `requires` first; a missing or cyclic requirement refuses the plugin (and its dependents)
  const { ordered, refused: unordered } = orderByRequires(compatible);
  for (const { item, reason } of unordered) refuseAtStart(item, 'load', `plugin "${item.id}" was skipped: ${reason}`);
  const offered = new Map(ordered.map((manifest) => [manifest.id, manifest]));

  // plugins whose catalogues were asked for: a language switch loads theirs too
  const catalogued = new Set<string>();
  const catalogueDeps: CatalogueDeps = { fetch: deps.fetch, add: deps.addCatalogue, log: deps.log };
  const loadPluginCatalogues = (manifest: ServedPluginManifest, languages: Language[]) => {
    catalogued.add(manifest.id);
    // a catalogue already bundled with the kernel's (plugins built with the panel) is not fetched again
    const missing = (manifest.locales?.length ?? 0) === 0 ? [] : languages.filter((lang) => !deps.hasCatalogue(manifest.id, lang));
    return loadCatalogues(catalogueDeps, { namespace: manifest.id }, manifest.localeFiles ?? {}, missing, `plugin "${manifest.id}"`);
  };

  const loads = new Map<string, Promise<boolean>>();
  // ids whose entry could not be downloaded (may be fetched again after forgetFailedDownloads)
  const failedDownloads = new Set<string>();

  const install = (id: string): Promise<boolean> => {
    const running = loads.get(id);
    if (running) return running;
    const manifest = offered.get(id);
    if (!manifest) return Promise.resolve(false);
    const load = (async () => {
      const fail = (reason: string, error?: unknown, phase: PluginFailure['phase'] = 'load') => {
        deps.report({ pluginId: id, phase, reason }, error);
        return false;
      };
      // its own download starts at once; its requirements download alongside and set up first
      const bundle = startBundleLoad(deps, manifest);
      const catalogues = loadPluginCatalogues(manifest, cataloguesToLoad(deps.language()));
      const requirements = await Promise.all((manifest.requires ?? []).map(async (dep) => [dep, await install(dep)] as const));
      const missing = requirements.find(([, ok]) => !ok);
      if (missing) {
        // a requirement that may download on a later try takes this plugin along
        if (failedDownloads.has(missing[0])) failedDownloads.add(id);
        return fail(`plugin "${id}" was skipped: it requires plugin "${missing[0]}", which failed`);
      }
      const [loaded] = await Promise.all([bundle, catalogues]);
      if (!loaded.ok) {
        if (loaded.download) failedDownloads.add(id);
        return fail(loaded.reason, loaded.error);
      }
      if (manifest.client === false) return true;
      // installPlugin checks the branded object, the id, runs setup() and checks its registrations;
      // it reports its own failures
      return deps.install(loaded.module.default, manifest).ok;
    })();
    loads.set(id, load);
    return load;
  };

  // 3. what must be there before the first page: nav labels' catalogues, and the start-up plugins
  const startLanguages = cataloguesToLoad(deps.language());
  await Promise.all([
    ...ordered.filter(showsTextsBeforeInstall).map((manifest) => loadPluginCatalogues(manifest, startLanguages)),
    ...ordered.filter(installsAtStartup).map((manifest) => install(manifest.id)),
  ]);

  const order = new Map(ordered.map((m, i) => [m.id, i]));
  return {
    manifests: [...served].sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity)),
    offered: ordered.map((m) => m.id),
    refused: [...refused],
    install,
    forgetFailedDownloads() {
      for (const id of failedDownloads) loads.delete(id);
      failedDownloads.clear();
    },
    async loadLanguage(language) {
      await Promise.all([...catalogued].map((id) => offered.get(id)).flatMap((manifest) => (manifest?.localeFiles ? [loadPluginCatalogues(manifest, [language])] : [])));
    },
  };
}
