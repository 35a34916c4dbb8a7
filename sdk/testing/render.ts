// renderPlugin: installs a plugin as the kernel would and renders one of its routes in jsdom.
import { act, createElement, Fragment, useState, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router-dom';
import { validateManifest } from '../manifest-validate.mjs';
import { PluginComponentHost, type PluginComponentHostProps } from '../client/boundary';
import { isKernelEventName, kernelEvents, type PluginFailure } from '../client/events';
import { fillJsdomGaps } from './jsdom-gaps';
import { ApiError, http, setHttpFetch } from '../client/http';
import { addPluginCatalogue, ensureSdkTexts, i18n } from '../client/i18n';
import { installPlugin, type InstalledPlugin, type KernelHookTargets } from '../client/install';
import { provideKernelServices } from '../client/kernel-services';
import { PluginContractError, type KernelHookName, type KernelHookSignatures } from '../client/plugin';
import { dismissAllDialogs } from '../client/dialogs';
import { dialogStore } from '../client/stores/dialog';
import type { Diagnostics } from '../client/diagnostics';
import { getOverlayLoader, getRouteLoader, registryStore } from '../client/stores/registry';
import { sessionStore } from '../client/stores/session';
import { settingsStore } from '../client/stores/settings';
import { GlobalStyles } from '../client/ui/GlobalStyles';
import type { Language, PluginManifest, PublicSettings, SessionResponse } from '../types';
import { createTestHooks } from './hooks';
import { findHandler, testFetch, type HttpHandlers, type RecordedHttpCall } from './http';
import { accessibleName, allByText, IMPLICIT_ROLES, matches, normalize, type TextMatch } from './queries';
import { testSessionResponse, type TestSession } from './session';

/** What {@link renderPlugin} returns. Queries search the whole document (dialogs render outside the container). */
export interface RenderedPlugin {
  /** the element the route renders into */
  readonly container: HTMLElement;
  /** the installed plugin */
  readonly plugin: InstalledPlugin;
  /** every request the sdk's http client made, in order */
  readonly httpCalls: RecordedHttpCall[];
  /** every `plugin:failed` report (render errors, throwing taps and handlers) */
  readonly failures: PluginFailure[];
  /** how many times the rendered overlay called its `onClose` (it is then no longer shown) */
  overlayCloses(): number;
  /** every event on the bus other than the kernel's own, in order: what the plugin announced */
  readonly events: { readonly name: string; readonly payload: unknown }[];
  /** where the router is */
  location(): { pathname: string; search: string; hash: string };
  /** Navigates the test router (no guards run: render the route you want to test). */
  navigate(to: string): Promise<void>;
  /** Calls a kernel hook the plugin tapped, as the kernel would (beforeNavigate returns the bail value). */
  callHook<K extends KernelHookName>(hook: K, ...args: Parameters<KernelHookSignatures[K]>): unknown;
  queryByText(text: TextMatch): HTMLElement | null;
  /** @throws when no element, or more than one, has that text */
  getByText(text: TextMatch): HTMLElement;
  /** Waits (default 2 s) for an element with that text. */
  findByText(text: TextMatch, options?: WaitOptions): Promise<HTMLElement>;
  /** The form control labelled `label` (label element or aria-label). */
  getByLabelText(label: TextMatch): HTMLElement;
  queryByRole(role: string, name?: TextMatch): HTMLElement | null;
  getByRole(role: string, name?: TextMatch): HTMLElement;
  findByRole(role: string, name?: TextMatch, options?: WaitOptions): Promise<HTMLElement>;
  /** Clicks an element (a submit button submits its form). */
  click(element: Element): Promise<void>;
  /**
   * Waits (default 6 s: dialogs queue behind a toast still showing) for the sdk's dialog titled
   * `title` and presses its confirm or cancel button.
   */
  answerDialog(title: string, button: 'confirm' | 'cancel', options?: WaitOptions): Promise<void>;
  /** Replaces an input's, textarea's or select's value as a user would, firing React's change. */
  type(element: Element, value: string): Promise<void>;
  /** Retries `assertion` until it stops throwing (default 2 s), flushing React work in between. */
  waitFor<T>(assertion: () => T | Promise<T>, options?: WaitOptions): Promise<T>;
  /** Unmounts, disposes the plugin and resets the sdk's state. */
  unmount(): void;
}

export interface WaitOptions {
  /** ms, default 2000 */
  timeout?: number;
  /** ms, default 20 */
  interval?: number;
}

export interface RenderPluginOptions {
  /** the plugin's plugin.json (validated against the schema, defaults filled in) */
  manifest: unknown;
  /** the path to render; default: the first declared route without parameters */
  route?: string;
  /** a signed-in user; omitted or null: signed out */
  session?: TestSession | null;
  /** public application settings */
  settings?: PublicSettings;
  /** the interface language (default en) */
  locale?: Language;
  /** the plugin's catalogues (its locales/<lang>.json), added under its namespace */
  catalogues?: Partial<Record<Language, Record<string, unknown>>>;
  /** answers for the sdk's http client */
  http?: HttpHandlers;
  /**
   * Other plugins installed first, the same way (e.g. one that contributes to a `<Slot>` of the page
   * under test). Their routes are not rendered.
   */
  alongside?: { plugin: unknown; manifest: unknown }[];
  /** wraps the rendered route (extra providers) */
  wrapper?: (children: ReactNode) => ReactNode;
  /**
   * An overlay component of the plugin (plugin.json `overlays`) to render open over the route, as the
   * kernel does once its shortcut or launcher was used; `route` defaults to `/` then.
   */
  overlay?: string;
  /**
   * What `ctx.diagnostics` reads (a plugin declaring `"diagnostics": true`); by default the panel's
   * log, which records nothing in a test. {@link testDiagnostics} makes one you can fill.
   */
  diagnostics?: Diagnostics;
}

let current: { unmount(): void } | null = null;

/**
 * The catalogues of the plugin a project tests, loaded by the sdk's vitest preset from its locales/:
 * used when a test of that plugin passes none, so its pages show their texts rather than keys.
 */
let projectCatalogues: { pluginId: string; catalogues: NonNullable<RenderPluginOptions['catalogues']> } | null = null;

/** Sets the catalogues a test of `pluginId` gets when it passes none (sdk/testing/vitest-setup.ts). */
export function setProjectCatalogues(pluginId: string, catalogues: NonNullable<RenderPluginOptions['catalogues']>): void {
  projectCatalogues = { pluginId, catalogues };
}
/** a dialog opened since the last render: sweetalert2 then still owes a focus-restoring timer */
let dialogOpened = false;
dialogStore.subscribe((state) => {
  if (state.status === 'open') dialogOpened = true;
});
/** sweetalert2 gives the focus back 100 ms after a dialog closed, touching DOM globals */
const DIALOG_FOCUS_RETURN_MS = 150;

/**
 * Unmounts whatever renderPlugin rendered last (call it in afterEach — `afterEach(() => cleanup())` —
 * if a test may fail before unmount). After a test that opened a dialog it resolves once sweetalert2
 * has given the focus back, so its timer never fires into a torn-down DOM.
 */
export async function cleanup(): Promise<void> {
  current?.unmount();
  if (!dialogOpened) return;
  dialogOpened = false;
  await sleep(DIALOG_FOCUS_RETURN_MS);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The manifest validated as the server and the build do, or a PluginContractError with the schema errors. */
function checkedManifest(json: unknown): PluginManifest {
  const validated = validateManifest(json);
  if (validated.ok) return validated.manifest;
  const id = typeof json === 'object' && json !== null ? String((json as { id?: unknown }).id) : '?';
  throw new PluginContractError(id, `plugin.json of "${id}" is invalid: ${validated.errors.join('; ')}`);
}

/** The routes, with the overlay open over them as the kernel shows it until its onClose. */
function OverlayLayer({ host, bind }: { host: PluginComponentHostProps; bind(setOpen: (open: boolean) => void): void }) {
  const [open, setOpen] = useState(true);
  bind(setOpen);
  return createElement(Fragment, null, createElement(Outlet), open ? createElement(PluginComponentHost, host) : null);
}

function firstPlainRoute(manifest: PluginManifest): string {
  const route = (manifest.routes ?? []).find((r) => r.path !== '*' && !r.path.includes(':'));
  return route?.path ?? '/';
}

/**
 * Installs `plugin` with the panel's install rules and renders one of its routes in jsdom; resolves once
 * the route's lazy chunk has loaded.
 * @throws {PluginContractError} when plugin.json is invalid or the plugin registers anything it does not declare
 * @throws Error when setup() throws
 */
export async function renderPlugin(plugin: unknown, options: RenderPluginOptions): Promise<RenderedPlugin> {
  if (typeof document === 'undefined') {
    throw new Error('renderPlugin needs a DOM: put `// @vitest-environment jsdom` at the top of the test file');
  }
  current?.unmount();
  fillJsdomGaps();
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

  const manifest = checkedManifest(options.manifest);
  const others = (options.alongside ?? []).map((p) => ({ plugin: p.plugin, manifest: checkedManifest(p.manifest) }));

  // fresh sdk state
  registryStore.getState().reset();
  sessionStore.getState().clear();
  dialogStore.getState().setClosed(null);

  const httpCalls: RecordedHttpCall[] = [];
  const failures: PluginFailure[] = [];
  const onFailure = (failure: PluginFailure) => failures.push(failure);
  kernelEvents.on('plugin:failed', onFailure);
  const events: { name: string; payload: unknown }[] = [];
  const onEvent = (name: string, payload: unknown) => {
    if (!isKernelEventName(name)) events.push({ name, payload });
  };
  kernelEvents.on('*', onEvent);
  setHttpFetch(testFetch(options.http ?? {}, httpCalls));

  settingsStore.getState().setSettings(options.settings ?? {});
  if (options.session) sessionStore.getState().applyResponse(testSessionResponse(options.session));
  const catalogues = options.catalogues ?? (projectCatalogues?.pluginId === manifest.id ? projectCatalogues.catalogues : {});
  for (const [language, resources] of Object.entries(catalogues)) {
    if (resources) addPluginCatalogue(manifest.id, language as Language, resources);
  }
  await i18n.changeLanguage(options.locale ?? 'en');
  await ensureSdkTexts(options.locale ?? 'en');

  registryStore.getState().setManifests([...others.map((o) => o.manifest), manifest]);
  const hooks = createTestHooks();
  const installedPlugins: InstalledPlugin[] = [];
  const install = (candidate: unknown, m: PluginManifest): InstalledPlugin => {
    const result = installPlugin(candidate, m, { hooks: hooks as unknown as KernelHookTargets, diagnostics: options.diagnostics });
    if (result.ok) {
      installedPlugins.push(result.plugin);
      return result.plugin;
    }
    for (const p of installedPlugins) p.dispose();
    kernelEvents.off('plugin:failed', onFailure);
    kernelEvents.off('*', onEvent);
    setHttpFetch(null);
    if (result.failure.phase === 'setup') throw new Error(result.failure.reason, { cause: result.error });
    throw new PluginContractError(m.id, result.failure.reason);
  };
  for (const other of others) install(other.plugin, other.manifest);
  const installed = install(plugin, manifest);

  const routes: RouteObject[] = (manifest.routes ?? []).map((r) => {
    const loader = getRouteLoader(manifest.id, r.component);
    return {
      path: r.path,
      element: loader ? createElement(PluginComponentHost, { pluginId: manifest.id, component: r.component, loader, variant: 'page' }) : null,
    };
  });
  // other paths (another plugin's page, /auth/after-login) render nothing; location() tells where
  if (!routes.some((r) => r.path === '*')) routes.push({ path: '*', element: null });
  let overlayCloses = 0;
  let renderOverlay: ((open: boolean) => void) | null = null;
  if (options.overlay !== undefined) {
    const declared = (manifest.overlays ?? []).find((o) => o.component === options.overlay);
    const loader = getOverlayLoader(manifest.id, options.overlay);
    if (!declared || !loader) throw new PluginContractError(manifest.id, `plugin "${manifest.id}" has no overlay "${options.overlay}" in plugin.json`);
    const component = options.overlay;
    const onClose = () => {
      overlayCloses += 1;
      renderOverlay?.(false);
    };
    const host: PluginComponentHostProps = { pluginId: manifest.id, component, loader, props: { onClose } };
    routes.splice(0, routes.length, {
      element: createElement(OverlayLayer, {
        host,
        bind: (setOpen: (open: boolean) => void) => {
          renderOverlay = setOpen;
        },
      }),
      children: [...routes],
    });
  }
  const router = createMemoryRouter(routes, { initialEntries: [options.route ?? (options.overlay !== undefined ? '/' : firstPlainRoute(manifest))] });

  const stopServices = provideKernelServices({
    async refreshSession() {
      if (findHandler(options.http ?? {}, 'GET', '/api/user/session', '/api/user/session')) {
        const response = await fetchSessionThroughHandlers();
        if (response) sessionStore.getState().applyResponse(response);
      } else if (options.session) {
        sessionStore.getState().applyResponse(testSessionResponse(options.session));
      }
    },
    clearSession() {
      sessionStore.getState().clear();
    },
    navigate(to, navigateOptions) {
      void router.navigate(to, { replace: navigateOptions?.replace });
    },
    async loadLanguage() {
      // the test's catalogues were all added up front
    },
  });

  async function fetchSessionThroughHandlers(): Promise<SessionResponse | null> {
    try {
      return await http.get<SessionResponse>('/api/user/session');
    } catch (error) {
      if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null && 'success' in error.body) return error.body as SessionResponse;
      throw error;
    }
  }

  const container = document.createElement('div');
  container.dataset.orepanelTest = manifest.id;
  document.body.appendChild(container);
  const root: Root = createRoot(container);
  const tree = createElement(Fragment, null, createElement(GlobalStyles), createElement(RouterProvider, { router }));
  await act(async () => {
    root.render(options.wrapper ? createElement(Fragment, null, options.wrapper(tree)) : tree);
  });

  let mounted = true;
  const unmount = () => {
    if (!mounted) return;
    mounted = false;
    act(() => root.unmount());
    // no dialog the page asked for shows, or keeps its timers, after it is gone
    dismissAllDialogs();
    container.remove();
    router.dispose();
    for (const p of installedPlugins) p.dispose();
    stopServices();
    setHttpFetch(null);
    kernelEvents.off('plugin:failed', onFailure);
    kernelEvents.off('*', onEvent);
    registryStore.getState().reset();
    sessionStore.getState().clear();
    if (current === handle) current = null;
  };
  const handle = { unmount };
  current = handle;

  const body = document.body;

  async function click(element: Element): Promise<void> {
    await act(async () => {
      element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    });
  }

  async function waitFor<T>(assertion: () => T | Promise<T>, waitOptions: WaitOptions = {}): Promise<T> {
    const timeout = waitOptions.timeout ?? 2000;
    const interval = waitOptions.interval ?? 20;
    const deadline = Date.now() + timeout;
    let lastError: unknown;
    for (;;) {
      try {
        return await assertion();
      } catch (error) {
        lastError = error;
      }
      if (Date.now() > deadline) throw lastError;
      await act(async () => {
        await sleep(interval);
      });
    }
  }

  // the route's chunk is lazy: hand the test a rendered page, not the loading skeleton
  await waitFor(
    () => {
      if (container.querySelector('[data-plugin-loading]')) throw new Error(`the route ${router.state.location.pathname} is still loading`);
    },
    { timeout: 5000 },
  );

  const queryByText = (text: TextMatch) => allByText(body, text)[0] ?? null;
  const getByText = (text: TextMatch) => {
    const found = allByText(body, text);
    if (found.length !== 1) throw new Error(`expected one element with text ${String(text)}, found ${found.length}`);
    return found[0];
  };
  const queryAllByRole = (role: string, name?: TextMatch) => {
    const selector = IMPLICIT_ROLES[role] ?? `[role="${role}"]`;
    return [...body.querySelectorAll<HTMLElement>(selector)].filter((el) => name === undefined || matches(accessibleName(el), name));
  };
  const getByRole = (role: string, name?: TextMatch) => {
    const found = queryAllByRole(role, name);
    if (found.length !== 1) throw new Error(`expected one ${role}${name === undefined ? '' : ` named ${String(name)}`}, found ${found.length}`);
    return found[0];
  };
  const getByLabelText = (label: TextMatch) => {
    const found: HTMLElement[] = [];
    for (const el of body.querySelectorAll<HTMLLabelElement>('label')) {
      if (!matches(normalize(el.textContent), label)) continue;
      const control = el.control ?? (el.htmlFor ? document.getElementById(el.htmlFor) : null);
      if (control instanceof HTMLElement) found.push(control);
    }
    for (const el of body.querySelectorAll<HTMLElement>('[aria-label]')) if (matches(normalize(el.getAttribute('aria-label')), label)) found.push(el);
    const unique = [...new Set(found)];
    if (unique.length !== 1) throw new Error(`expected one control labelled ${String(label)}, found ${unique.length}`);
    return unique[0];
  };

  return {
    container,
    plugin: installed,
    httpCalls,
    failures,
    overlayCloses: () => overlayCloses,
    events,
    location: () => {
      const { pathname, search, hash } = router.state.location;
      return { pathname, search, hash };
    },
    navigate: async (to) => {
      await act(async () => {
        await router.navigate(to);
      });
    },
    callHook: (hook, ...args) => hooks[hook].call(...args),
    queryByText,
    getByText,
    findByText: (text, waitOptions) => waitFor(() => getByText(text), waitOptions),
    getByLabelText,
    queryByRole: (role, name) => queryAllByRole(role, name)[0] ?? null,
    getByRole,
    findByRole: (role, name, waitOptions) => waitFor(() => getByRole(role, name), waitOptions),
    click,
    answerDialog: async (title, button, waitOptions = { timeout: 6000 }) => {
      const found = await waitFor(() => {
        const popup = [...document.querySelectorAll<HTMLElement>('.swal2-popup')].find((el) => el.querySelector('.swal2-title')?.textContent === title);
        const control = popup?.querySelector<HTMLButtonElement>(`.swal2-${button}`);
        if (!control) throw new Error(`no dialog "${title}" with a ${button} button yet`);
        return control;
      }, waitOptions);
      await click(found);
    },
    type: async (element, value) => {
      await act(async () => {
        if (element instanceof HTMLSelectElement) {
          element.value = value;
          element.dispatchEvent(new Event('change', { bubbles: true }));
          return;
        }
        const proto = element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
        // React tracks the value it set; the prototype's setter makes the change visible to it
        Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(element, value);
        element.dispatchEvent(new Event('input', { bubbles: true }));
      });
    },
    waitFor,
    unmount,
  };
}
