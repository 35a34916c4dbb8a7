// The kernel's start-up, as a frozen object of tapable hooks (webpack's Compiler is the model), in the
// order of spec §4:
//   1. boot      custom stylesheet and script from the server (and the interface settings)
//   2. locales   message catalogues: the fallback language (en) and the stored one
//   3. plugins   fetch the enabled manifests, check sdk ranges, order by `requires`, install the
//                start-up plugins (plugin.json "startup": true); every other plugin installs when one
//                of its routes or slot components is first rendered
//   4. ads       fetch the ads client code
//   5. mount     render the app on the next animation frame
//   then ready   the session and the service worker, once the app is on screen
// A step that throws is reported through `failed` with the spec §8 text and the start-up carries on.
// Plugins reach the plugin-facing hooks (beforeNavigate … localeChanged) only through tap facades
// (ctx.hooks.tap); only the kernel calls hooks.
import { AsyncSeriesHook, SyncBailHook, SyncHook } from './modules/tapable-hooks';
import type { KernelHookTargets } from '../sdk/client/install';
import type { NavigationEvent } from '../sdk/client/events';
import type { NavigationTarget } from '../sdk/client/plugin';
import type { SessionSnapshot } from '../sdk/client/stores/session';
import type { Language } from '../sdk/types';

/** The start-up steps, in the order they run (spec §4). */
export const START_ORDER = ['boot', 'locales', 'plugins', 'ads', 'mount', 'ready'] as const;
export type StartStep = (typeof START_ORDER)[number];

/**
 * What a `beforeNavigate` tap may answer: nothing (go on), a path (go there instead), false (stay), or
 * one of the kernel guards' decisions (which also carry what to do on the way).
 */
export type NavigationOutcome = string | false | GuardDecision | undefined | void;

/** A kernel guard's decision (spec §2 rules 1–3, §6). */
export type GuardDecision =
  | {
      kind: 'redirect';
      to: string;
      /** spec §2 rule 1: remember this target for after the login */
      saveTarget?: string;
      /** spec §6: show the 'Access Denied' dialog before going */
      dialog?: 'access-denied';
    }
  /** the route is not there: the not-found page shows */
  | { kind: 'not-found' }
  /** the route's feature is switched off by its flag: the page says so (issue 14), not "Page not found" */
  | { kind: 'switched-off'; flag: string };

export function createKernelHooks() {
  return Object.freeze({
    boot: new AsyncSeriesHook<[]>([], 'boot'),
    locales: new AsyncSeriesHook<[]>([], 'locales'),
    plugins: new AsyncSeriesHook<[]>([], 'plugins'),
    ads: new AsyncSeriesHook<[]>([], 'ads'),
    mount: new AsyncSeriesHook<[]>([], 'mount'),
    ready: new AsyncSeriesHook<[]>([], 'ready'),
    /** every error that escapes a step */
    failed: new SyncHook<[StartStep, unknown]>(['step', 'error'], 'failed'),

    // plugin-facing hooks (declared in plugin.json "hooks", tapped through ctx.hooks.tap)
    /** bail hook: the kernel's guards first, then plugins'; runs before a route's code is fetched */
    beforeNavigate: new SyncBailHook<[NavigationTarget], NavigationOutcome>(['to'], 'beforeNavigate'),
    afterNavigate: new SyncHook<[NavigationEvent]>(['location'], 'afterNavigate'),
    sessionLoaded: new SyncHook<[SessionSnapshot]>(['session'], 'sessionLoaded'),
    sessionCleared: new SyncHook<[{ code: string | null }]>(['info'], 'sessionCleared'),
    localeChanged: new SyncHook<[Language]>(['locale'], 'localeChanged'),
  });
}

export type KernelHooks = ReturnType<typeof createKernelHooks>;

/** The hooks a plugin context may tap (the sdk's facade only ever calls `tap`). */
export function pluginHookTargets(hooks: KernelHooks): KernelHookTargets {
  return {
    beforeNavigate: hooks.beforeNavigate,
    afterNavigate: hooks.afterNavigate,
    sessionLoaded: hooks.sessionLoaded,
    sessionCleared: hooks.sessionCleared,
    localeChanged: hooks.localeChanged,
  };
}

/** The work of each start-up step (kernel/startup/*; fakes in the tests). */
export interface StartupSteps {
  /** spec §4.1: custom.css and custom.js */
  loadCustomAssets(): Promise<void>;
  /** the interface settings (transitions, reduced motion) applied before anything renders */
  applyInterfaceSettings(): Promise<void>;
  /**
   * Starts, without waiting, the request whose answer later steps need (the public settings), so it
   * overlaps the catalogues and the plugin install. The ads client code is not among them: spec §4.4
   * fetches it after the plugins are installed.
   */
  startEarlyRequests(): void;
  /** spec §4.2 */
  loadCatalogues(): Promise<void>;
  /** spec §4.3: the manifests, and the clients of the plugins that must run from the start */
  installPlugins(): Promise<void>;
  /** spec §4.4: the ads client code, requested only now (nothing while ads are switched off) */
  loadAds(): Promise<void>;
  /** spec §4.5 */
  mountApp(): Promise<void>;
  /** spec §4 Session: cached permissions, first fetch, 60 s refresh */
  startSession(): Promise<void>;
  /** spec §7: the service worker when caching is enabled */
  registerServiceWorker(): Promise<void>;
  /** renders the 'Application Error' page (spec §4) */
  showApplicationError(): void;
}

/** The spec §8 console texts of each step's failure. */
export const STEP_FAILURE_MESSAGES: Readonly<Record<StartStep, string>> = Object.freeze({
  boot: 'Failed to load the custom stylesheet and script',
  locales: 'Failed to load locale messages',
  plugins: 'Failed to initialize Vue plugins',
  ads: 'Failed to fetch AdSense client code',
  mount: 'Failed to mount Vue app',
  ready: 'Failed to start session',
});

/** Taps the kernel's own work onto the start-up hooks, in spec order. */
export function tapKernelSteps(hooks: KernelHooks, steps: StartupSteps, log: Pick<Console, 'error' | 'warn'> = console): void {
  hooks.boot.tapPromise('kernel:custom-assets', () => steps.loadCustomAssets());
  hooks.boot.tapPromise('kernel:interface-settings', async () => {
    // spec §8: a failure here is reported and the start-up carries on
    try {
      await steps.applyInterfaceSettings();
    } catch (error) {
      log.error('Failed to initialize performance optimizations', error);
    }
  });
  hooks.boot.tapPromise('kernel:early-requests', async () => steps.startEarlyRequests());
  hooks.locales.tapPromise('kernel:catalogues', () => steps.loadCatalogues());
  hooks.plugins.tapPromise('kernel:plugins', () => steps.installPlugins());
  hooks.ads.tapPromise('kernel:ads', () => steps.loadAds());
  hooks.mount.tapPromise('kernel:mount', () => steps.mountApp());
  hooks.ready.tapPromise('kernel:session', () => steps.startSession());
  hooks.ready.tapPromise('kernel:service-worker', async () => {
    try {
      await steps.registerServiceWorker();
    } catch (error) {
      log.error('Failed to initialize performance optimizations', error);
    }
  });

  hooks.failed.tap('kernel:report', (step, error) => {
    if (step === 'ads') log.warn(STEP_FAILURE_MESSAGES.ads, error);
    else log.error(STEP_FAILURE_MESSAGES[step], error);
    if (step === 'mount') steps.showApplicationError();
  });
}

/** Runs the start-up: every step in order; a failing step is reported and the next one still runs. */
export async function startKernel(hooks: KernelHooks): Promise<void> {
  for (const step of START_ORDER) {
    try {
      await hooks[step].promise();
    } catch (error) {
      hooks.failed.call(step, error);
    }
  }
}
