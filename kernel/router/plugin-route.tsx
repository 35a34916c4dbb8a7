// One plugin route on screen: the plugin's lazily loaded page inside the sdk's PluginBoundary (an error
// boundary naming the plugin + Suspense), inside the page transition. The route's plugin is installed
// when the page is first needed (after the guards let the navigation through); while it and the page
// file load, the boundary's loading state shows. A plugin or page file that fails to load raises a
// `preload-error` event on window (spec §8) and shows the boundary's error card with a retry.
import { Link, useLocation, useLoaderData, useMatches } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PluginComponentHost, prepareComponent } from '../../sdk/client/boundary';
import type { ComponentLoader } from '../../sdk/client/plugin';
import { pluginComponentLoader, registryStore } from '../../sdk/client/stores/registry';
import { useDocumentTitle } from '../../sdk/client/ui/layout';
import type { KernelRoute } from './route-table';
import { PageTransition } from './transitions';

/** What a route's loader hands its element. */
export interface RouteLoaderData {
  /** the route is not there (spec: not-found) */
  notFound?: boolean;
  /** the route's feature is switched off: its flag */
  switchedOff?: string;
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

/**
 * The loader of a route's page: it installs the route's plugin (its first need), then fetches the page
 * file, and raises `preload-error` when either fails. One per component (React.lazy caches by loader).
 */
export function routePageLoader(route: KernelRoute): ComponentLoader {
  const loader = pluginComponentLoader('route', route.pluginId, route.route.component);
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
 * Starts installing a route's plugin and fetching its page once the guards let the navigation through,
 * so the downloads run while the old page plays its "out" animation. Failures show when the page renders.
 */
export function preloadRoutePage(route: KernelRoute): void {
  pluginComponentLoader('route', route.pluginId, route.route.component)().catch(() => undefined);
}

/**
 * The first page of a load: installs the route's plugin and loads its page before the first render,
 * which then shows the page at once (no loading state, no Suspense delay). A failure raises no event
 * here: the render loads the page again and reports it as any page does.
 */
export function prepareRoutePage(route: KernelRoute): Promise<void> {
  return prepareComponent(routePageLoader(route), pluginComponentLoader('route', route.pluginId, route.route.component));
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
  // the not-found page of a plugin that failed is the kernel's; any other route of a failed plugin
  // shows the plugin boundary's error card naming it
  const notFoundFailed = registryStore((s) => Boolean(notFound && s.failed[notFound.pluginId]));
  const switchedOff = data?.switchedOff ?? null;
  const shown = switchedOff ? null : data?.notFound ? (notFoundFailed ? null : notFound) : route;
  const title = useRouteTitle(shown);
  useDocumentTitle(title);
  return (
    <PageTransition key={location.pathname}>
      {switchedOff ? (
        <FeatureSwitchedOff />
      ) : shown ? (
        <PluginComponentHost pluginId={shown.pluginId} component={shown.route.component} loader={routePageLoader(shown)} variant="page" />
      ) : (
        <KernelNotFound />
      )}
    </PageTransition>
  );
}

/**
 * A route whose feature an administrator switched off (its flag): the page exists, the feature is
 * off — said plainly instead of "Page not found", which would send the user looking for a typo.
 */
export function FeatureSwitchedOff() {
  const { t } = useTranslation('kernel');
  useDocumentTitle(t('featureOff.title'));
  return (
    <section data-feature-off="" css={{ minHeight: '60vh', display: 'grid', placeItems: 'center', padding: 24, textAlign: 'center' }}>
      <div css={{ maxWidth: 520 }}>
        <h1 css={{ margin: '8px 0' }}>{t('featureOff.title')}</h1>
        <p css={{ opacity: 0.8, margin: '0 0 16px', lineHeight: 1.5 }}>{t('featureOff.text')}</p>
        <Link to="/dashboard">{t('notFound.home')}</Link>
      </div>
    </section>
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
