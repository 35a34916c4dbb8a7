/**
 * The kernel-facing side of the sdk: what the browser kernel (kernel/**) and `@orepanel/sdk/testing`
 * use to run plugins. Plugins do not import this (it is not part of `@orepanel/sdk`); it lives in the
 * sdk so that the kernel and the plugins share one implementation and one set of stores.
 *
 * What the kernel does with it, in start-up order (spec §4):
 * 1. `provideKernelServices({ refreshSession, clearSession, navigate, loadLanguage })` and
 *    `startUiSettingsSync()`; `settingsStore.getState().hydrateFromCache()`, then `setSettings(...)`
 *    with GET /api/system/settings.
 * 2. catalogues: `addPluginCatalogue(namespace, language, json)` for the kernel and each plugin, and
 *    `await ensureSdkTexts(language)` (the sdk's own texts; English is built in, the rest are chunks).
 *    `changeLanguage()` later calls `loadLanguage` of the kernel services and emits `locale:changed`
 *    (the kernel calls its localeChanged hook from that event).
 * 3. plugins: `registryStore.getState().setManifests(served)` (ordered by `requires`, sdk range checked
 *    with `sdkRangeProblem`), then `offerPlugins(acceptedIds, install)`: the router and navigation are
 *    built from the manifests, and `install(id)` loads a plugin's bundle and calls
 *    `installPlugin(module.default, manifest, { hooks })` on its first need (the plugins that
 *    `installsAtStartup` at once); a bundle that fails to load →
 *    `reportPluginFailure({ pluginId, phase: 'load', reason })`.
 * 4. routes and slots: `pluginComponentLoader('route' | 'slot', pluginId, component)` (installs the
 *    plugin first when needed) → `<PluginComponentHost …/>`.
 * 5. session: `sessionStore.getState().beginFetch() / applyResponse(json) / applyCached(perms, role) /
 *    fail(code, message) / clear()`; the store emits `session:changed` by itself.
 * 6. the router emits `kernelEvents.emit('navigation', …)` and calls its afterNavigate hook.
 * 7. diagnostics: `startDiagnosticsRecorder()` (kernel) writes every fetch, console line and uncaught
 *    error, redacted, into `diagnosticsLog`; plugins declaring `"diagnostics": true` read it through
 *    `ctx.diagnostics`. `onHttpEvent(listener)` still reports every request the sdk's http client makes.
 * 8. overlays: `pluginComponentLoader('overlay', pluginId, component)` when one is first opened.
 */
export { provideKernelServices, kernelServices, hasKernelServices, type KernelServices, type NavigateOptions } from './kernel-services';
export {
  installPlugin,
  createPluginContext,
  type KernelParts,
  type KernelHookTargets,
  type HookTapTarget,
  type InstalledPlugin,
  type InstallResult,
  type StagedPluginContext,
} from './install';
export { describeNonPlugin, isKernelHookName, PLUGIN_BRAND } from './plugin';
export { kernelEvents, createEventBus, isKernelEventName, FATAL_PLUGIN_PHASES, type EventBus, type BusEvents } from './events';
export {
  registryStore,
  reportPluginFailure,
  getRouteLoader,
  getSlotLoader,
  getOverlayLoader,
  pluginComponentLoader,
  isPluginOffered,
  PluginUnavailableError,
  errorText,
  type RegistryState,
  type PluginErrorRecord,
} from './stores/registry';
export { sessionStore, sessionSnapshot, toSessionUser, toSessionBilling, toSessionStats, type SessionState } from './stores/session';
export { settingsStore, type SettingsState } from './stores/settings';
export {
  uiStore,
  applyUiSettings,
  startUiSettingsSync,
  loadUiSettings,
  mergeUiSettings,
  isPageTransition,
  UI_SETTINGS_REAPPLY_DELAY_MS,
  type UiState,
} from './stores/ui';
export { dialogStore, type DialogState, type DialogStatus } from './stores/dialog';
export { diagnosticsLog, createDiagnosticsLog, readDiagnostics, type DiagnosticsLog } from './diagnostics';
export { onHttpEvent, setHttpFetch, toApiError, type HttpEvent, type HttpEventListener } from './http';
export { addPluginCatalogue, hasCatalogue, initialLanguage, sdkText, ensureSdkTexts } from './i18n';
export { SDK_NAMESPACE, SDK_TEXTS_EN, loadSdkTexts } from './sdk-texts';
export { lazyComponent, forgetLazyComponent } from './boundary';
export { slotEntries, offeredSlotLoaders } from './slots';
export { STORAGE_KEYS, readStored, writeStored, removeStored } from './storage';
export { showDialog } from './dialogs';
export { GlobalStyles } from './ui/GlobalStyles';
