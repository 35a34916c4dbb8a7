// issue 15: a plugin's public page rendered on the server, so the first HTML response already shows it
// (plugin.json `routes[].prerender`). The very components the kernel mounts — the global styles, the
// bare layout with its language picker, the page transition's frame and the plugin's page inside its
// boundary — in the language and with the public settings the browser will use, so that what the
// kernel mounts later looks the same (kernel/startup/prerendered-page.tsx swaps it in).
//
// Built into dist/server/prerender.js (kernel/build/prerender-config.mjs) together with the client
// entries of the panel's plugins that declare such routes; the server loads it on the first request
// of a pre-rendered page (server/http/prerender.ts). Renders share the sdk's global stores (i18n,
// settings), so they run one after the other.
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import type { ResourceKey } from 'i18next';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { Route, Routes, StaticRouter } from 'react-router-dom';
import { PluginComponentHost } from '../../sdk/client/boundary';
import { clearPrimedApiAnswers, primeApiAnswers } from '../../sdk/client/http';
import { addPluginCatalogue, ensureSdkTexts, i18n } from '../../sdk/client/i18n';
import { installPlugin, type KernelHookTargets } from '../../sdk/client/install';
import { KERNEL_HOOK_NAMES, type ComponentLoader, type OrepanelPlugin } from '../../sdk/client/plugin';
import { pluginComponentLoader, registryStore } from '../../sdk/client/stores/registry';
import { settingsStore } from '../../sdk/client/stores/settings';
import { uiStore } from '../../sdk/client/stores/ui';
import { GlobalStyles } from '../../sdk/client/ui/GlobalStyles';
import { PrerenderedFormContext, type PrerenderedFormState } from '../../sdk/client/ui/form-context';
import { prerenderRouteAt, type PrerenderRoute } from '../../sdk/manifest';
import type { Language, PublicSettings, ServedPluginManifest } from '../../sdk/types';
import { BareLayout } from '../router/create-router';
import { PageTransition } from '../router/transitions';

/** What one render needs: the page, the language and everything the browser would have at mount. */
export interface PrerenderInput {
  /** the URL path asked for (a route's exact `path`) */
  path: string;
  language: Language;
  /** the enabled plugins' served manifests (what index.html's boot block carries) */
  manifests: readonly ServedPluginManifest[];
  /** the public settings (the boot block's) */
  settings: Readonly<Record<string, unknown>>;
  /** the kernel's catalogue file of `language` and of English (the fallback): namespace -> texts */
  catalogues: Readonly<Partial<Record<Language, Readonly<Record<string, ResourceKey>>>>>;
  /** after a form sent without JavaScript came back refused: its error and the fields to fill in again */
  form?: PrerenderedFormState | null;
  /** the answers of the route's `prerender.data` (URL -> body), for the page's useApi */
  data?: Readonly<Record<string, unknown>>;
}

const modules = new Map<string, OrepanelPlugin>();
const installed = new Set<string>();

/** Hands the renderer a plugin's client entry (the build's generated entry calls this for each). */
export function providePrerenderPlugin(plugin: OrepanelPlugin): void {
  modules.set(plugin.id, plugin);
}

/** The plugins whose pages this renderer can draw. */
export function prerenderPluginIds(): string[] {
  return [...modules.keys()];
}

// the pages render once, on the server: no hook of the kernel's runs here, so taps go nowhere
const noHooks = Object.fromEntries(KERNEL_HOOK_NAMES.map((name) => [name, { tap() {} }])) as unknown as KernelHookTargets;

function install(manifest: ServedPluginManifest): boolean {
  if (installed.has(manifest.id)) return true;
  const plugin = modules.get(manifest.id);
  if (!plugin) return false;
  const result = installPlugin(plugin, manifest, { hooks: noHooks, report: () => undefined });
  if (!result.ok) return false;
  installed.add(manifest.id);
  return true;
}

/**
 * A render on the server reads a zustand store through its *initial* state (useSyncExternalStore's
 * server snapshot), not the current one: make the initial state object hold the current values. Only
 * this renderer's process uses these stores this way.
 */
function renderFromCurrentState<T extends object>(store: { getState(): T; getInitialState(): T }): void {
  Object.assign(store.getInitialState(), store.getState());
}

let loadedCatalogues = new WeakSet<object>();

function addCatalogues(input: PrerenderInput): void {
  for (const [language, catalogue] of Object.entries(input.catalogues) as [Language, Readonly<Record<string, ResourceKey>>][]) {
    // the server hands the same parsed file until it changes (a rebuild)
    if (loadedCatalogues.has(catalogue)) continue;
    for (const [namespace, texts] of Object.entries(catalogue)) addPluginCatalogue(namespace, language, texts);
    loadedCatalogues.add(catalogue);
  }
}

/** For tests: forget the catalogues handed before (a test may hand new texts in the same object). */
export function forgetPrerenderCatalogues(): void {
  loadedCatalogues = new WeakSet<object>();
}

/** Renders once, waiting for every lazy part (the output is dropped: a static render may outline them). */
async function settleLazyParts(element: ReactElement): Promise<void> {
  const { prelude } = await prerenderToNodeStream(element);
  prelude.resume();
}

async function render(input: PrerenderInput): Promise<string | null> {
  const found = prerenderRouteAt(input.manifests, input.path);
  if (!found) return null;
  const manifest = input.manifests.find((m) => m.id === found.pluginId);
  if (!manifest || !install(manifest) || registryStore.getState().failed[manifest.id]) return null;
  addCatalogues(input);
  await ensureSdkTexts(input.language);
  await i18n.changeLanguage(input.language);
  const settings: PublicSettings = {};
  for (const [key, value] of Object.entries(input.settings)) {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') settings[key] = value;
  }
  settingsStore.setState({ settings, loaded: true });
  // the first page of a load does not animate in: the frame is drawn at rest
  uiStore.setState({ systemReducedMotion: true });
  renderFromCurrentState(settingsStore);
  renderFromCurrentState(uiStore);
  const loader = pluginComponentLoader('route', found.pluginId, found.route.component);
  await loader();
  // A lazy component suspends the first time it renders, even when its module is there, and the
  // synchronous render then writes the fallback (left for the browser's script to fill in). A static
  // render waits for every lazy part, after which they all resolve at once: render again.
  primeApiAnswers(input.data ?? {});
  try {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const html = renderToString(pageTree(input, found, loader));
      if (!html.includes(CLIENT_RENDERED_BOUNDARY)) return html;
      await settleLazyParts(pageTree(input, found, loader));
    }
    return null;
  } finally {
    clearPrimedApiAnswers();
  }
}

/** What a synchronous render writes for a boundary that suspended. */
const CLIENT_RENDERED_BOUNDARY = '<!--$!-->';
/** A page whose lazy parts nest deeper than this is not pre-rendered. */
const MAX_ATTEMPTS = 4;

function pageTree(input: PrerenderInput, found: PrerenderRoute, loader: ComponentLoader) {
  const cache = createCache({ key: 'css' });
  return (
    <CacheProvider value={cache}>
      <PrerenderedFormContext.Provider value={input.form ?? null}>
        <GlobalStyles />
        <StaticRouter location={input.path}>
          <Routes>
            <Route element={<BareLayout />}>
              <Route
                path={found.route.path}
                element={
                  <PageTransition>
                    <PluginComponentHost pluginId={found.pluginId} component={found.route.component} loader={loader} variant="page" />
                  </PageTransition>
                }
              />
            </Route>
          </Routes>
        </StaticRouter>
      </PrerenderedFormContext.Provider>
    </CacheProvider>
  );
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * The HTML of the page at `input.path` (what goes inside #app), or null when no enabled plugin
 * declares that path pre-renderable or its code is not in this renderer.
 */
export function renderPage(input: PrerenderInput): Promise<string | null> {
  const next = queue.then(() => render(input));
  queue = next.catch(() => undefined);
  return next;
}
