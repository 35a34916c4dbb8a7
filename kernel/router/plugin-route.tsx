// One plugin route on screen: the plugin's lazily loaded page inside the sdk's PluginBoundary (an error
// boundary naming the plugin + Suspense), inside the page transition. A page file that fails to load
// raises a `preload-error` event on window (spec §8) and shows the boundary's error card with a retry.
import { useLocation, useLoaderData, useMatches } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PluginComponentHost } from '../../sdk/client/boundary';
import type { ComponentLoader } from '../../sdk/client/plugin';
import { getRouteLoader } from '../../sdk/client/stores/registry';
import { useDocumentTitle } from '../../sdk/client/ui/layout';
import type { KernelRoute } from './route-table';
import { PageTransition } from './transitions';

/** What a route's loader hands its element. */
export interface RouteLoaderData {
  /** the route's flag is off: it does not exist (spec: not-found) */
  notFound?: boolean;
}

/** Stored on each route object (`handle`), so the shell can find the current route's manifest entry. */
export interface KernelRouteHandle {
  kernelRoute: KernelRoute;
}

/** spec §8: the event a failed lazy page load raises on window. */
export const PRELOAD_ERROR_EVENT = 'preload-error';

export interface PreloadErrorDetail {
  pluginId: string;
  component: string;
  error: unknown;
}

let beforeRetry: () => void = () => undefined;

/** Lets the kernel forget failed module loads before a page is fetched again (see system-registry). */
export function setBeforePageRetry(fn: () => void): void {
  beforeRetry = fn;
}

const wrappedLoaders = new WeakMap<ComponentLoader, ComponentLoader>();

/** The plugin's loader for a route's page, wrapped to raise `preload-error` when the file fails. */
export function routePageLoader(route: KernelRoute): ComponentLoader | undefined {
  const loader = getRouteLoader(route.pluginId, route.route.component);
  if (!loader) return undefined;
  let wrapped = wrappedLoaders.get(loader);
  if (!wrapped) {
    let failed = false;
    wrapped = async () => {
      if (failed) beforeRetry();
      try {
        const module = await loader();
        failed = false;
        return module;
      } catch (error) {
        failed = true;
        const detail: PreloadErrorDetail = { pluginId: route.pluginId, component: route.route.component, error };
        if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent(PRELOAD_ERROR_EVENT, { detail }));
        throw error;
      }
    };
    wrappedLoaders.set(loader, wrapped);
  }
  return wrapped;
}

/**
 * Starts fetching a route's page once the guards let the navigation through, so the download runs
 * while the old page plays its "out" animation. Failures show when the page renders.
 */
export function preloadRoutePage(route: KernelRoute): void {
  const loader = getRouteLoader(route.pluginId, route.route.component);
  loader?.().catch(() => undefined);
}

/** The title of a route, translated in its plugin's namespace; null when it has none. */
export function useRouteTitle(route: KernelRoute | null): string | null {
  const { t } = useTranslation(route?.pluginId);
  if (!route?.route.title) return null;
  return t(route.route.title, { ns: route.pluginId });
}

/** The manifest entry of the route on screen (deepest match), null on kernel routes. */
export function useCurrentKernelRoute(): KernelRoute | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as Partial<KernelRouteHandle> | undefined;
    if (handle?.kernelRoute) return handle.kernelRoute;
  }
  return null;
}

export function PluginRoute({ route, notFound }: { route: KernelRoute; notFound: KernelRoute | null }) {
  const data = useLoaderData() as RouteLoaderData | null | undefined;
  const location = useLocation();
  const shown = data?.notFound ? notFound : route;
  const title = useRouteTitle(shown);
  useDocumentTitle(title);
  const loader = shown ? routePageLoader(shown) : undefined;
  return (
    <PageTransition key={location.pathname}>
      {shown && loader ? <PluginComponentHost pluginId={shown.pluginId} component={shown.route.component} loader={loader} variant="page" /> : <KernelNotFound />}
    </PageTransition>
  );
}

/** The not-found page when no plugin provides one (the errors plugin failed or is disabled). */
export function KernelNotFound() {
  const { t } = useTranslation('kernel');
  return (
    <main css={{ minHeight: '60vh', display: 'grid', placeItems: 'center', padding: 24, textAlign: 'center' }}>
      <div>
        <p css={{ fontSize: 56, fontWeight: 700, margin: 0, opacity: 0.4 }}>404</p>
        <h1 css={{ margin: '8px 0' }}>{t('notFound.title')}</h1>
        <p css={{ opacity: 0.75, margin: '0 0 16px' }}>{t('notFound.text')}</p>
        <a href="/">{t('notFound.home')}</a>
      </div>
    </main>
  );
}
