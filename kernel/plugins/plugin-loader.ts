// spec §4.3: installing the plugins. GET /api/system/plugins (or its copy inside index.html) gives
// the enabled plugins' manifests; each one's sdk range is checked, they are ordered so that
// `requires` come first, every entry bundle is loaded through a SystemJS registry with its SRI
// integrity, its catalogues (fallback + current language) are added to its namespace, and its
// setup() runs through the sdk's checked context.
// A plugin that fails at any step is skipped and reported (console naming the plugin and the reason,
// registryStore.failed, 'plugin:failed') — the host and the other plugins keep running.
import type { InstallResult } from '../../sdk/client/install';
import type { PluginFailure } from '../../sdk/client/events';
import { orderByRequires, sdkRangeProblem } from '../../sdk/manifest';
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

export interface PluginInstallSummary {
  /** every manifest served, in `requires` order (refused ones last) */
  manifests: ServedPluginManifest[];
  /** ids of the plugins now running (a plugin without a browser part counts once its manifest is accepted) */
  installed: string[];
  /** ids of the plugins skipped */
  failed: string[];
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

/** Starts fetching a plugin's entry bundle (with its integrity) and its catalogues. */
function startLoading(deps: PluginLoaderDeps, manifest: ServedPluginManifest) {
  // a catalogue already bundled with the kernel's (plugins built with the panel) is not fetched again
  const languages = (manifest.locales?.length ?? 0) === 0 ? [] : cataloguesToLoad(deps.language()).filter((lang) => !deps.hasCatalogue(manifest.id, lang));
  const catalogues = loadCatalogues(
    { fetch: deps.fetch, add: deps.addCatalogue, log: deps.log },
    { namespace: manifest.id },
    manifest.localeFiles ?? {},
    languages,
    `plugin "${manifest.id}"`,
  );
  let bundle: Promise<{ ok: true; module: Record<string, unknown> } | { ok: false; reason: string; error?: unknown }>;
  if (manifest.client === false) {
    bundle = Promise.resolve({ ok: true, module: {} });
  } else if (!manifest.entry) {
    bundle = Promise.resolve({ ok: false, reason: `plugin "${manifest.id}" was skipped: its manifest has no entry bundle (was it built?)` });
  } else if (!manifest.integrity || !/^sha(256|384|512)-/.test(manifest.integrity)) {
    bundle = Promise.resolve({ ok: false, reason: `plugin "${manifest.id}" was skipped: its manifest has no integrity for ${manifest.entry}` });
  } else {
    const url = absoluteUrl(manifest.entry);
    registerIntegrity(deps.registry, url, manifest.integrity);
    bundle = deps.registry.import(url).then(
      (module) => ({ ok: true as const, module: module as Record<string, unknown> }),
      (error: unknown) => ({ ok: false as const, reason: loadFailureReason(manifest, error), error }),
    );
  }
  return { bundle, catalogues };
}

/**
 * Installs every served plugin. Rejects only when the manifests cannot be fetched (the caller logs
 * 'Failed to initialize Vue plugins'); any single plugin's failure is reported and skipped.
 */
export async function installPlugins(deps: PluginLoaderDeps): Promise<PluginInstallSummary> {
  const served = deps.manifests ?? (await fetchPluginManifests(deps.fetch));
  const failed = new Set<string>();
  const refuse = (manifest: ServedPluginManifest, phase: PluginFailure['phase'], reason: string, error?: unknown) => {
    failed.add(manifest.id);
    deps.report({ pluginId: manifest.id, phase, reason }, error);
  };

  // 1. the plugin API version: an incompatible plugin is not even downloaded
  const compatible: ServedPluginManifest[] = [];
  for (const manifest of served) {
    const problem = sdkRangeProblem(manifest.sdk);
    if (problem) refuse(manifest, 'sdk', `plugin "${manifest.id}" was refused: ${problem}`);
    else compatible.push(manifest);
  }

  // 2. `requires` first; a missing or cyclic requirement refuses the plugin (and its dependents)
  const { ordered, refused } = orderByRequires(compatible);
  for (const { item, reason } of refused) refuse(item, 'load', `plugin "${item.id}" was skipped: ${reason}`);

  // 3. download everything at once, then set up one by one in order
  const loading = new Map(ordered.map((manifest) => [manifest.id, startLoading(deps, manifest)]));
  const installed: string[] = [];
  for (const manifest of ordered) {
    const load = loading.get(manifest.id);
    if (!load) continue;
    const missing = (manifest.requires ?? []).find((dep) => failed.has(dep));
    if (missing) {
      refuse(manifest, 'load', `plugin "${manifest.id}" was skipped: it requires plugin "${missing}", which failed`);
      continue;
    }
    const bundle = await load.bundle;
    await load.catalogues;
    if (!bundle.ok) {
      refuse(manifest, 'load', bundle.reason, bundle.error);
      continue;
    }
    if (manifest.client === false) {
      installed.push(manifest.id);
      continue;
    }
    // installPlugin checks the branded object, the id, runs setup() and checks its registrations;
    // it reports its own failures
    const result = deps.install(bundle.module.default, manifest);
    if (result.ok) installed.push(manifest.id);
    else failed.add(manifest.id);
  }

  const order = new Map(ordered.map((m, i) => [m.id, i]));
  const manifests = [...served].sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity));
  return { manifests, installed, failed: [...failed] };
}
