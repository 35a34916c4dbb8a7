// The panel's router (react-router-dom data router), built from the route table:
//   /                    -> /dashboard (spec §2)
//   /auth/after-login    -> the saved target, cleared, or /dashboard (spec §2 rule 4)
//   app routes           inside the shell (lazy kernel chunk)
//   bare routes          on their own (auth, legal, error pages)
//   *                    the not-found page
// Every plugin route's loader runs the `beforeNavigate` guards BEFORE anything of the route's plugin is
// fetched; only when they let the navigation through does the page chunk start downloading, while the
// current page plays its "out" animation.
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Outlet, replace, useLocation, useRouteError, type LoaderFunction, type RouteObject } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { kernelEvents } from '../../sdk/client/events';
import type { NavigationTarget } from '../../sdk/client/plugin';
import type { KernelHooks } from '../lifecycle';
import { LanguagePicker } from '../shell/LanguagePicker';
import { LoadingScreen } from '../shell/LoadingScreen';
import { OverlayHost } from '../shell/overlays';
import { DASHBOARD_PATH } from './guards';
import { AFTER_LOGIN_PATH, decideNavigation, takeRedirectTarget, type NavigationEffects } from './navigation';
import { KernelNotFound, PluginRoute, prepareRoutePage, preloadRoutePage, type KernelRouteHandle, type RouteLoaderData } from './plugin-route';
import type { KernelRoute, RouteTable } from './route-table';
import { leaveCurrentPage } from './transitions';

export interface KernelRouterOptions {
  table: RouteTable;
  hooks: Pick<KernelHooks, 'beforeNavigate' | 'afterNavigate'>;
  effects: NavigationEffects;
  storage: Pick<Storage, 'getItem' | 'removeItem'>;
}

/** The shell once its chunk is here: rendered directly, without a Suspense round. */
let LoadedShell: ComponentType | null = null;
const loadShell = () =>
  import('../shell/AppShell').then((module) => {
    LoadedShell = module.default;
    return module;
  });
const AppShell = lazy(loadShell);

/** The location on screen (pathname + search + hash), null before the first page. */
let shownLocation: { pathname: string; path: string } | null = null;

function guardedLoader(route: KernelRoute, options: KernelRouterOptions): LoaderFunction {
  return async ({ request }): Promise<RouteLoaderData | Response> => {
    const url = new URL(request.url);
    const to: NavigationTarget = {
      pathname: url.pathname,
      search: url.search,
      hash: url.hash,
      from: shownLocation?.pathname ?? null,
      route: route.route,
      pluginId: route.pluginId,
    };
    const result = await decideNavigation(options.hooks, to, options.effects);
    const samePage = shownLocation?.pathname === url.pathname;
    switch (result.kind) {
      case 'redirect':
        return replace(result.to);
      case 'stay':
        if (shownLocation && !samePage) return replace(shownLocation.path);
        break;
      case 'not-found':
        if (!samePage) await leaveCurrentPage();
        return { notFound: true };
      case 'switched-off':
        if (!samePage) await leaveCurrentPage();
        return { switchedOff: result.flag };
      case 'proceed':
        break;
    }
    // the guards let it through: fetch the page (and the shell) while the current page leaves
    const shell = route.route.layout !== 'bare' ? loadShell().catch(() => undefined) : null;
    if (!shownLocation) {
      // the first page of the load renders once its code is here: no loading state in between
      await Promise.all([prepareRoutePage(route), shell]);
      return {};
    }
    preloadRoutePage(route);
    if (!samePage) await leaveCurrentPage();
    return {};
  };
}

function routeObject(route: KernelRoute, options: KernelRouterOptions, notFound: KernelRoute | null): RouteObject {
  const handle: KernelRouteHandle = { kernelRoute: route };
  return {
    id: route.id,
    path: route.route.path,
    loader: guardedLoader(route, options),
    element: <PluginRoute route={route} notFound={notFound} />,
    handle,
  };
}

/**
 * spec §2 rule 5: every navigation scrolls to the top (the load itself is not one); plugins hear about it afterwards. The plugins'
 * overlays (a floating panel such as the developer tools) stand over every page, shell or bare.
 */
function RootLayout({ hooks }: { hooks: KernelRouterOptions['hooks'] }) {
  const location = useLocation();
  const scrolledFor = useRef<string | null>(null);
  useLayoutEffect(() => {
    // the load itself is no navigation: the browser placed the page, and a visitor may already have
    // scrolled a pre-rendered one before the kernel took it over (a jump back to the top otherwise)
    const load = scrolledFor.current === null;
    if (scrolledFor.current === location.key) return; // StrictMode runs the effect twice
    scrolledFor.current = location.key;
    if (!load) window.scrollTo(0, 0);
  }, [location.key]);
  useEffect(() => {
    const event = { pathname: location.pathname, search: location.search, hash: location.hash, from: shownLocation?.pathname ?? null };
    shownLocation = { pathname: location.pathname, path: `${location.pathname}${location.search}${location.hash}` };
    hooks.afterNavigate.call(event);
    kernelEvents.emit('navigation', event);
  }, [location.key, location.pathname, location.search, location.hash, hooks]);
  return (
    <>
      <Outlet />
      <OverlayHost />
    </>
  );
}

function ShellLayout() {
  if (LoadedShell) return <LoadedShell />;
  return (
    <Suspense fallback={<LoadingScreen />}>
      <AppShell />
    </Suspense>
  );
}

/** Pages without the shell still get the language picker (spec §1: six languages everywhere). */
export function BareLayout() {
  return (
    <>
      <div css={{ position: 'fixed', top: 12, right: 12, zIndex: 20 }}>
        <LanguagePicker compact />
      </div>
      <Outlet />
    </>
  );
}

function RouteErrorPage(): ReactNode {
  const error = useRouteError();
  const { t } = useTranslation('kernel');
  console.error('The router failed', error);
  return (
    <main role="alert" css={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 24, textAlign: 'center' }}>
      <div>
        <h1>{t('appError.title')}</h1>
        <p>{t('appError.text')}</p>
        <a href="/">{t('notFound.home')}</a>
      </div>
    </main>
  );
}

export function createKernelRoutes(options: KernelRouterOptions): RouteObject[] {
  const { table } = options;
  const notFoundRoute: RouteObject = table.notFound ? routeObject(table.notFound, options, table.notFound) : { id: 'kernel:not-found', path: '*', element: <KernelNotFound /> };
  return [
    {
      id: 'root',
      path: '/',
      element: <RootLayout hooks={options.hooks} />,
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <LoadingScreen />,
      children: [
        { index: true, loader: () => replace(DASHBOARD_PATH) },
        { id: 'kernel:after-login', path: AFTER_LOGIN_PATH, loader: () => replace(takeRedirectTarget(options.storage)) },
        { id: 'layout:app', element: <ShellLayout />, children: table.app.map((r) => routeObject(r, options, table.notFound)) },
        {
          id: 'layout:bare',
          element: <BareLayout />,
          children: [...table.bare.map((r) => routeObject(r, options, table.notFound)), notFoundRoute],
        },
      ],
    },
  ];
}

export function createKernelRouter(options: KernelRouterOptions) {
  return createBrowserRouter(createKernelRoutes(options));
}

export type KernelRouter = ReturnType<typeof createKernelRouter>;
