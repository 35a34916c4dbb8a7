/**
 * `@orepanel/sdk/testing` — render a plugin in a test kernel (Backstage's renderInTestApp is the model).
 *
 * The plugin goes through the very same install as in the panel (its plugin.json is validated; every
 * route, slot, hook and event it registers is checked against it), then a route is rendered with the
 * panel's providers (router, i18n instance, PluginBoundary) in jsdom. The sdk's http client is answered
 * by your handlers and every call is recorded.
 *
 * @example
 * // @vitest-environment jsdom
 * import { renderPlugin, sessionReply } from '@orepanel/sdk/testing';
 * import plugin from '../client';
 * import manifest from '../plugin.json';
 * import en from '../locales/en.json';
 *
 * it('logs in', async () => {
 *   const app = await renderPlugin(plugin, {
 *     manifest,
 *     route: '/auth/login',
 *     catalogues: { en },
 *     http: {
 *       'POST /api/user/auth/login': { body: { success: true } },
 *       'GET /api/user/session': sessionReply({ user: { username: 'alice' } }),
 *     },
 *   });
 *   await app.type(app.getByLabelText('Username or email'), 'alice');
 *   await app.type(app.getByLabelText('Password'), 'correct horse');
 *   await app.click(app.getByRole('button', 'Sign in'));
 *   await app.waitFor(() => expect(app.location().pathname).toBe('/auth/after-login'));
 *   expect(app.httpCalls[0].body).toEqual({ login: 'alice', password: 'correct horse' });
 *   app.unmount();
 * });
 * @packageDocumentation
 */
import { act, createElement, Fragment, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { validateManifest } from './manifest-validate.mjs';
import { PluginComponentHost } from './client/boundary';
import { kernelEvents, type PluginFailure } from './client/events';
import { ApiError, http, setHttpFetch } from './client/http';
import { addPluginCatalogue, ensureSdkTexts, i18n } from './client/i18n';
import { installPlugin, type HookTapTarget, type InstalledPlugin, type KernelHookTargets } from './client/install';
import { provideKernelServices } from './client/kernel-services';
import { PluginContractError, type KernelHookName, type KernelHookSignatures } from './client/plugin';
import { dialogStore } from './client/stores/dialog';
import { getRouteLoader, registryStore } from './client/stores/registry';
import { sessionStore, type SessionBilling, type SessionStats, type SessionUser } from './client/stores/session';
import { settingsStore } from './client/stores/settings';
import { GlobalStyles } from './client/ui/GlobalStyles';
import type { Language, PluginManifest, PublicSettings, SessionResponse } from './types';

// ---------------------------------------------------------------------------------------------------
// Session fixtures

/** A signed-in test user; every field has a plausible default. */
export interface TestSession {
  user?: Partial<SessionUser>;
  billing?: Partial<SessionBilling>;
  stats?: Partial<SessionStats>;
  permissions?: string[];
}

/** The answer GET /api/user/session gives for `session` (spec shape). */
export function testSessionResponse(session: TestSession = {}): SessionResponse {
  return {
    success: true,
    error_code: null,
    user_info: {
      uuid: '00000000-0000-4000-8000-000000000001',
      username: 'tester',
      email: 'tester@example.com',
      first_name: 'Test',
      last_name: 'User',
      avatar: null,
      background: null,
      role: 1,
      role_name: 'Default',
      verified: true,
      two_fa_enabled: false,
      created_at: '2025-01-01T00:00:00.000Z',
      ...session.user,
    },
    billing: { coins: 0, ram: 1024, disk: 1024, cpu: 100, ports: 2, databases: 1, backups: 5, server_slots: 1, ...session.billing },
    stats: { servers: 0, minutes_afk: 0, referrals: 0, ...session.stats },
    permissions: session.permissions ?? [],
  };
}

/** An http handler reply with the session answer for `session`. */
export function sessionReply(session: TestSession = {}): HttpReply {
  return { status: 200, body: testSessionResponse(session) };
}

// ---------------------------------------------------------------------------------------------------
// HTTP

/** One request the plugin made through the sdk's http client. */
export interface RecordedHttpCall {
  method: string;
  /** the URL as requested, with its query string */
  url: string;
  /** the path without the query string */
  path: string;
  query: URLSearchParams;
  /** the JSON body, parsed (or the raw body when it was not JSON) */
  body: unknown;
  headers: Record<string, string>;
  /** values of `:name` segments of the handler key that answered */
  params: Record<string, string>;
}

export interface HttpReply {
  /** default 200 */
  status?: number;
  /** sent as JSON (a string is sent as text) */
  body?: unknown;
  headers?: Record<string, string>;
}

export type HttpHandler = HttpReply | ((call: RecordedHttpCall) => HttpReply | Promise<HttpReply>);

/**
 * Answers by `"METHOD /path"`; a path may hold `:name` segments (`'GET /api/user/profile/:uuid'`) and
 * a key with a query string matches only that query. An unanswered request gets a 404 in the API's
 * error shape (code NO_TEST_HANDLER) and a console warning.
 */
export type HttpHandlers = Record<string, HttpHandler>;

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split('/');
  const b = path.split('/');
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(':')) params[a[i].slice(1)] = decodeURIComponent(b[i]);
    else if (a[i] !== b[i]) return null;
  }
  return params;
}

function findHandler(handlers: HttpHandlers, method: string, url: string, path: string): { handler: HttpHandler; params: Record<string, string> } | null {
  for (const target of [url, path]) {
    for (const [key, handler] of Object.entries(handlers)) {
      const space = key.indexOf(' ');
      if (space < 0 || key.slice(0, space).toUpperCase() !== method) continue;
      const params = matchPath(key.slice(space + 1).trim(), target);
      if (params) return { handler, params };
    }
  }
  return null;
}

function parseBody(body: BodyInit | null | undefined): unknown {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function makeResponse(reply: HttpReply): Response {
  const status = reply.status ?? 200;
  const noBody = status === 204 || status === 205 || status === 304;
  const isText = typeof reply.body === 'string';
  const headers = { 'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json', ...reply.headers };
  const payload = noBody || reply.body === undefined ? null : isText ? (reply.body as string) : JSON.stringify(reply.body);
  return new Response(payload, { status, headers });
}

function testFetch(handlers: HttpHandlers, calls: RecordedHttpCall[]) {
  return async (input: string, init: RequestInit): Promise<Response> => {
    const method = (init.method ?? 'GET').toUpperCase();
    const parsed = new URL(input, 'http://orepanel.test');
    const path = parsed.pathname;
    const url = `${path}${parsed.search}`;
    const found = findHandler(handlers, method, url, path);
    const call: RecordedHttpCall = {
      method,
      url,
      path,
      query: parsed.searchParams,
      body: parseBody(init.body),
      headers: { ...(init.headers as Record<string, string> | undefined) },
      params: found?.params ?? {},
    };
    calls.push(call);
    if (!found) {
      console.warn(`[sdk/testing] no http handler for ${method} ${url}`);
      return makeResponse({ status: 404, body: { error: { code: 'NO_TEST_HANDLER', message: `No test handler for ${method} ${url}` } } });
    }
    const reply = typeof found.handler === 'function' ? await found.handler(call) : found.handler;
    return makeResponse(reply);
  };
}

// ---------------------------------------------------------------------------------------------------
// Test hooks: tapable's semantics for the kernel hooks (bail for beforeNavigate), without tapable.

type TapFn = (...args: unknown[]) => unknown;

class TestHook implements HookTapTarget<TapFn> {
  readonly taps: { name: string; fn: TapFn }[] = [];
  constructor(private readonly bail: boolean) {}
  tap(name: string, fn: TapFn): void {
    this.taps.push({ name, fn });
  }
  call(...args: unknown[]): unknown {
    for (const { fn } of this.taps) {
      const result = fn(...args);
      if (this.bail && result !== undefined) return result;
    }
    return undefined;
  }
}

function createTestHooks(): Record<KernelHookName, TestHook> {
  return {
    beforeNavigate: new TestHook(true),
    afterNavigate: new TestHook(false),
    sessionLoaded: new TestHook(false),
    sessionCleared: new TestHook(false),
    localeChanged: new TestHook(false),
  };
}

// ---------------------------------------------------------------------------------------------------
// Queries and events (a small subset of what @testing-library offers, with no dependency)

export type TextMatch = string | RegExp;

const normalize = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

function matches(text: string, match: TextMatch): boolean {
  return typeof match === 'string' ? text === match : match.test(text);
}

/** Elements whose whole text is `match`, deepest first (an ancestor with the same text is skipped). */
function allByText(root: ParentNode, match: TextMatch): HTMLElement[] {
  const hits = [...root.querySelectorAll<HTMLElement>('*')].filter(
    (el) => el.tagName !== 'SCRIPT' && el.tagName !== 'STYLE' && matches(normalize(el.textContent), match),
  );
  return hits.filter((el) => !hits.some((other) => other !== el && el.contains(other)));
}

const IMPLICIT_ROLES: Record<string, string> = {
  button: 'button, input[type="submit"], input[type="button"], input[type="reset"], [role="button"]',
  link: 'a[href], [role="link"]',
  textbox: 'input:not([type]), input[type="text"], input[type="email"], input[type="url"], input[type="search"], input[type="tel"], input[type="password"], textarea, [role="textbox"]',
  checkbox: 'input[type="checkbox"], [role="checkbox"]',
  combobox: 'select, [role="combobox"]',
  heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
  alert: '[role="alert"]',
  status: '[role="status"]',
  dialog: 'dialog, [role="dialog"]',
  img: 'img[alt]:not([alt=""]), [role="img"]',
  navigation: 'nav, [role="navigation"]',
  main: 'main, [role="main"]',
  list: 'ul, ol, [role="list"]',
  listitem: 'li, [role="listitem"]',
};

/** The accessible name: aria-label, aria-labelledby, a label element, else the text. */
function accessibleName(el: HTMLElement): string {
  const label = el.getAttribute('aria-label');
  if (label) return normalize(label);
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    return normalize(labelledBy.split(/\s+/).map((id) => el.ownerDocument.getElementById(id)?.textContent ?? '').join(' '));
  }
  if ('labels' in el) {
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length) return normalize([...labels].map((l) => l.textContent).join(' '));
  }
  if (el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'button')) return normalize(el.value);
  if (el instanceof HTMLImageElement) return normalize(el.alt);
  return normalize(el.textContent);
}

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
}

let current: { unmount(): void } | null = null;
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

/** Fills the gaps of jsdom that the panel's libraries touch (sweetalert2 asks matchMedia, scrolls). */
function fillJsdomGaps(): void {
  if (typeof window.matchMedia !== 'function') {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addEventListener() {},
        removeEventListener() {},
        addListener() {},
        removeListener() {},
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
  // jsdom logs "Not implemented" for scrolling; a test kernel has nothing to scroll
  window.scrollTo = () => {};
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
  setHttpFetch(testFetch(options.http ?? {}, httpCalls));

  settingsStore.getState().setSettings(options.settings ?? {});
  if (options.session) sessionStore.getState().applyResponse(testSessionResponse(options.session));
  for (const [language, resources] of Object.entries(options.catalogues ?? {})) {
    if (resources) addPluginCatalogue(manifest.id, language as Language, resources);
  }
  await i18n.changeLanguage(options.locale ?? 'en');
  await ensureSdkTexts(options.locale ?? 'en');

  registryStore.getState().setManifests([...others.map((o) => o.manifest), manifest]);
  const hooks = createTestHooks();
  const installedPlugins: InstalledPlugin[] = [];
  const install = (candidate: unknown, m: PluginManifest): InstalledPlugin => {
    const result = installPlugin(candidate, m, { hooks: hooks as unknown as KernelHookTargets });
    if (result.ok) {
      installedPlugins.push(result.plugin);
      return result.plugin;
    }
    for (const p of installedPlugins) p.dispose();
    kernelEvents.off('plugin:failed', onFailure);
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
  const router = createMemoryRouter(routes, { initialEntries: [options.route ?? firstPlainRoute(manifest)] });

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
    container.remove();
    router.dispose();
    for (const p of installedPlugins) p.dispose();
    stopServices();
    setHttpFetch(null);
    kernelEvents.off('plugin:failed', onFailure);
    registryStore.getState().reset();
    sessionStore.getState().clear();
    if (current === handle) current = null;
  };
  const handle = { unmount };
  current = handle;

  const body = document.body;

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
    click: async (element) => {
      await act(async () => {
        element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
      });
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
