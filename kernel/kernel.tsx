// Puts the kernel together: the lifecycle hooks with the kernel's own work tapped on them (in spec §4
// order, see lifecycle.ts), the plugin registry, the session, the guards and the services the sdk
// calls (completeLogin, logout, changeLanguage, navigation from outside React).
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { kernelEvents } from '../sdk/client/events';
import { addPluginCatalogue, currentLanguage, ensureSdkTexts, hasCatalogue, i18n, initialLanguage } from '../sdk/client/i18n';
import { adsStore } from '../sdk/client/ads';
import { installPlugin } from '../sdk/client/install';
import { provideKernelServices } from '../sdk/client/kernel-services';
import { dialogs } from '../sdk/client/dialogs';
import { registryStore, reportPluginFailure } from '../sdk/client/stores/registry';
import { sessionSnapshot, sessionStore } from '../sdk/client/stores/session';
import { followCachedSettings, isSettingEnabled, settingsStore } from '../sdk/client/stores/settings';
import { startUiSettingsSync, uiStore } from '../sdk/client/stores/ui';
import { GlobalStyles } from '../sdk/client/ui/GlobalStyles';
import { SESSION_COOKIE, type Language, type ServedPluginManifest } from '../sdk/types';
import { cataloguesToLoad, KERNEL_NAMESPACE, loadCatalogues, readKernelCatalogueFiles } from './i18n/catalogues';
import { createKernelHooks, pluginHookTargets, startKernel, tapKernelSteps, type KernelHooks } from './lifecycle';
import { createPluginRegistry, forgetFailedLoads } from './modules/system-registry';
import { diagnosticsWanted, startDiagnosticsRecorder, type DiagnosticsRecorder } from './diagnostics/recorder';
import { followPerformanceSettings } from './performance/follow-settings';
import { syncServiceWorker } from './performance/service-worker';
import { preparePlugins, type PluginSet } from './plugins/plugin-loader';
import { createKernelRouter, type KernelRouter } from './router/create-router';
import { whenFirstPageReady } from './router/first-page';
import { tapKernelGuards, type GuardState } from './router/guards';
import { REDIRECT_TARGET_KEY } from './router/navigation';
import { setBeforePageRetry, type KernelRouteHandle } from './router/plugin-route';
import { buildRouteTable } from './router/route-table';
import { documentCookieJar } from './session/cookies';
import { SessionEndedError, SessionManager, type SessionErrorKind } from './session/session-manager';
import { browserStorage, readCachedPermissions, ROLE_KEY } from './session/session-storage';
import { createNavBadgeFetcher, namesBadges, navBadgeStore } from './shell/nav-badges';
import { renderApplicationError } from './startup/application-error';
import { ADS_ENABLED_SETTING, followAdsState, loadAds } from './startup/ads';
import { loadCustomAssets } from './startup/custom-assets';
import { takeOverPage } from './startup/prerendered-page';
import { readBootData } from './startup/boot-data';
import { refreshPublicSettings } from './startup/public-settings';

/** How long mounting waits for the public settings (route flags) before it uses the cached copy. */
const SETTINGS_WAIT_MS = 4000;
/** How long mounting waits for the prefetched session, so a signed-in page comes with its data. */
const SESSION_WAIT_MS = 500;

function t(key: string): string {
  return i18n.t(key, { ns: KERNEL_NAMESPACE });
}

/** spec §8: the dialog of each session error, in the current language (English: the spec's texts). */
function showSessionError(kind: SessionErrorKind): Promise<void> {
  switch (kind) {
    case 'unavailable':
      return dialogs.error(t('session.unavailable.title'), t('session.unavailable.text'));
    case 'invalid':
      return dialogs.error(t('session.invalid.title'), t('session.invalid.text'), t('session.invalid.footer'));
    case 'start':
      return dialogs.error(t('session.startFailed.title'), t('session.startFailed.text'));
  }
}

function KernelApp({ router, onMounted }: { router: KernelRouter; onMounted: () => void }) {
  useEffect(onMounted, [onMounted]);
  return (
    <>
      <GlobalStyles />
      <RouterProvider router={router} />
    </>
  );
}

export interface Kernel {
  hooks: KernelHooks;
  start(): Promise<void>;
}

export interface KernelOptions {
  /**
   * Record every fetch, console line and uncaught error from now on (spec §7, §8), for the plugins
   * that declare `"diagnostics"`; stopped as soon as the manifests show that none is enabled.
   */
  recordDiagnostics?: boolean;
}

export function createKernel(doc: Document = document, win: Window = window, options: KernelOptions = {}): Kernel {
  // first of all, so the first requests are recorded too (spec §7)
  let recorder: DiagnosticsRecorder | null = options.recordDiagnostics ? startDiagnosticsRecorder(win as Window & typeof globalThis) : null;
  const stopRecordingUnlessWanted = (manifests: readonly ServedPluginManifest[]) => {
    if (recorder && !diagnosticsWanted(manifests)) {
      recorder.stop();
      recorder = null;
    }
  };
  const hooks = createKernelHooks();
  const registry = createPluginRegistry();
  const cookies = documentCookieJar(doc);
  const storage = browserStorage(win);
  const kernelCatalogues = readKernelCatalogueFiles(doc);
  // the plugin list and public settings index.html carries (null: fetch them, as a page from elsewhere)
  const boot = readBootData(doc);
  if (boot) stopRecordingUnlessWanted(boot.plugins);
  let router: KernelRouter | null = null;
  let pendingNavigation: { to: string; replace: boolean } | null = null;
  let plugins: PluginSet | null = null;
  let settingsLoaded: Promise<void> = Promise.resolve();

  const navigate = (to: string, replace = false) => {
    if (router) void router.navigate(to, { replace });
    else pendingNavigation = { to, replace };
  };

  const navBadges = createNavBadgeFetcher({
    fetch: (url, init) => win.fetch(url, init),
    now: () => Date.now(),
    wanted: () => sessionStore.getState().loggedIn && namesBadges(registryStore.getState().manifests),
    set: (counts) => navBadgeStore.setState({ counts }),
  });
  kernelEvents.on('navigation', () => void navBadges.navigated());
  kernelEvents.on('nav:refresh-badges', () => void navBadges.refresh());

  const session = new SessionManager({
    fetch: (url, init) => win.fetch(url, init),
    cookies,
    storage,
    timers: {
      setTimeout: (fn, ms) => win.setTimeout(fn, ms),
      clearTimeout: (handle) => win.clearTimeout(handle as number),
      setInterval: (fn, ms) => win.setInterval(fn, ms),
      clearInterval: (handle) => win.clearInterval(handle as number),
    },
    location: () => ({ hostname: win.location.hostname, pathname: win.location.pathname }),
    sink: sessionStore.getState(),
    showError: showSessionError,
    navigate: (path) => navigate(path, true),
    onLoaded: () => {
      hooks.sessionLoaded.call(sessionSnapshot());
      // the sidebar's counts follow the session's 60 s refresh (spec §4)
      void navBadges.refresh();
    },
    onCleared: (code) => {
      navBadges.clear();
      hooks.sessionCleared.call({ code });
    },
    cookieName: SESSION_COOKIE,
    pluginSessionKeys: () => registryStore.getState().manifests.flatMap((m) => m.stats ?? []),
  });

  const loadLanguage = async (language: Language) => {
    const fetch = (url: string, init?: RequestInit) => win.fetch(url, init);
    // the kernel's file first: it bundles the catalogues of the plugins built with the panel
    if (!hasCatalogue(KERNEL_NAMESPACE, language)) {
      await loadCatalogues({ fetch, add: addPluginCatalogue }, { bundle: true }, kernelCatalogues, [language]);
    }
    // the plugins whose texts are in use; a plugin installed later loads the language it then finds
    await plugins?.loadLanguage(language);
  };

  provideKernelServices({
    // a session that ended was handled already (dialog, navigation): callers just go on
    refreshSession: () =>
      session.refresh().catch((error: unknown) => {
        if (!(error instanceof SessionEndedError)) throw error;
      }),
    clearSession: () => session.clear(),
    navigate: (to, options) => navigate(to, options?.replace ?? false),
    loadLanguage: (language) => loadLanguage(language as Language),
  });

  kernelEvents.on('locale:changed', ({ locale }) => hooks.localeChanged.call(locale));

  // spec §2 rules 1–3, §6: what the guards read is what the browser stores
  const guardState = (): GuardState => ({
    hasSessionCookie: cookies.has(SESSION_COOKIE),
    storedRole: storage.getItem(ROLE_KEY),
    permissions: readCachedPermissions(storage),
    flagEnabled: (flag) => isSettingEnabled(settingsStore.getState().settings[flag]),
  });
  tapKernelGuards(hooks, guardState);

  // before the session's first answer, the cached permissions decide who is spared the ads (spec §4)
  const adPermissions = (): readonly string[] => {
    const state = sessionStore.getState();
    return state.status === 'idle' ? readCachedPermissions(storage) : state.permissions;
  };
  // no ad on an admin page: the page on screen is known once the router has shown it
  hooks.afterNavigate.tap('kernel:ads', () => {
    const matches = router?.state.matches ?? [];
    let admin = false;
    for (const match of matches) {
      const handle = match.route.handle as Partial<KernelRouteHandle> | undefined;
      if (handle?.kernelRoute?.route.admin) admin = true;
    }
    adsStore.getState().setAdFreePage(admin);
  });
  setBeforePageRetry(() => {
    forgetFailedLoads(registry);
    plugins?.forgetFailedDownloads();
  });

  tapKernelSteps(hooks, {
    loadCustomAssets: () => loadCustomAssets(doc, console, boot?.custom),
    async applyInterfaceSettings() {
      startUiSettingsSync();
      followPerformanceSettings(win);
    },
    startEarlyRequests() {
      settingsLoaded = refreshPublicSettings(console, boot?.settings);
      followCachedSettings(win);
      // the signed-in page's data is on its way while the catalogues and plugins load (issue 15)
      session.prefetch();
    },
    async loadCatalogues() {
      // spec §4.2: the fallback catalogue and the stored language's
      const language = initialLanguage();
      await Promise.all([
        loadCatalogues({ fetch: (url, init) => win.fetch(url, init), add: addPluginCatalogue }, { bundle: true }, kernelCatalogues, cataloguesToLoad(language)),
        ensureSdkTexts(language),
      ]);
      // i18next resolves a language only once it has texts: switch now that they are there
      await i18n.changeLanguage(language);
      doc.documentElement.lang = language;
    },
    async installPlugins() {
      // checks every manifest and installs only the start-up plugins; the others on first need
      plugins = await preparePlugins({
        fetch: (url, init) => win.fetch(url, init),
        registry,
        addCatalogue: addPluginCatalogue,
        hasCatalogue,
        language: currentLanguage,
        install: (candidate, manifest) => installPlugin(candidate, manifest, { hooks: pluginHookTargets(hooks) }),
        report: reportPluginFailure,
        manifests: boot?.plugins,
      });
      stopRecordingUnlessWanted(plugins.manifests);
      registryStore.getState().setManifests(plugins.manifests);
      registryStore.getState().offerPlugins(plugins.offered, plugins.install);
    },
    async loadAds() {
      // spec §4.4: after the plugins; the switch is read from the settings (mounting waits for them anyway)
      await Promise.race([settingsLoaded, new Promise((resolve) => setTimeout(resolve, SETTINGS_WAIT_MS))]);
      const settings = settingsStore.getState().settings;
      const enabled = ADS_ENABLED_SETTING in settings ? isSettingEnabled(settings[ADS_ENABLED_SETTING]) : null;
      const client = await loadAds({ enabled, permissions: adPermissions(), fetch: (url, init) => win.fetch(url, init), doc, win });
      if (client) followAdsState(adPermissions, (listener) => sessionStore.subscribe(listener), doc, win);
    },
    async mountApp() {
      await Promise.race([settingsLoaded, new Promise((resolve) => setTimeout(resolve, SETTINGS_WAIT_MS))]);
      // a valid session that has come already is in place for the guards and the first render
      session.applyEarlyAnswer();
      const table = buildRouteTable(plugins?.manifests ?? [], new Set(plugins?.offered ?? []));
      router = createKernelRouter({
        table,
        hooks,
        storage,
        effects: {
          // storage blocked: nothing is saved and the user lands on the dashboard after login instead
          saveRedirectTarget: (path) => storage.setItem(REDIRECT_TARGET_KEY, path),
          showAccessDenied: () => dialogs.error(t('guard.accessDenied.title'), t('guard.accessDenied.text')),
        },
      });
      const host = doc.getElementById('app');
      if (!host) throw new Error('index.html has no #app element');
      // the first page renders complete: its route decided, its plugin and page loaded, and a signed-in
      // page's session there (issue 15)
      await Promise.all([whenFirstPageReady(router), session.earlyAnswer(SESSION_WAIT_MS)]);
      // spec §4.5: mount on the next animation frame
      await new Promise<void>((resolve, reject) => {
        win.requestAnimationFrame(() => {
          try {
            let mounted = false;
            // or one that came while the first page loaded
            session.applyEarlyAnswer();
            // a page the server sent already rendered stays until the app shows its own (issue 15)
            const page = takeOverPage(doc, host);
            const root = createRoot(page.container, {
              onUncaughtError(error) {
                if (!mounted) reject(error);
                else {
                  console.error('The app crashed', error);
                  renderApplicationError(doc, { title: t('appError.title'), text: t('appError.text') });
                }
              },
            });
            root.render(
              page.wrap(
                <KernelApp
                  router={router as KernelRouter}
                  onMounted={() => {
                    mounted = true;
                    resolve();
                  }}
                />,
              ),
            );
          } catch (error) {
            reject(error);
          }
        });
      });
      if (pendingNavigation) navigate(pendingNavigation.to, pendingNavigation.replace);
    },
    // spec §4 Session: once the app is on screen and every start-up cache is written, so that a session
    // error's "clear all local storage" is the last word
    startSession: () => session.start(),
    registerServiceWorker: () => syncServiceWorker(uiStore.getState().settings.performance.enableCaching),
    showApplicationError: () => renderApplicationError(doc, { title: t('appError.title'), text: t('appError.text') }),
  });

  return { hooks, start: () => startKernel(hooks) };
}
