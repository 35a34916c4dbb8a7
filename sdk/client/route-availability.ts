// "Is there a page at this address for me?" — so a plugin links to another plugin's page (a profile, a
// gift form) only when that page exists: its plugin is offered (its client may not be installed yet: it
// installs when the page opens), its flag is on, and the user holds
// its permission (and, for an admin route, an admin-type role: spec §2 rule 2). The kernel's router
// applies the same rules, so a link shown is a link that opens.
import { useMemo } from 'react';
import { matchPath } from 'react-router-dom';
import { hasPermission, isAdminRole } from '../manifest';
import { useSession } from './session';
import { isSettingEnabled, useSettings } from './stores/settings';
import { isPluginOffered, registryStore } from './stores/registry';

/** True when an offered plugin has a route matching `path` that is switched on and allowed for the user. */
export function useRouteAvailable(path: string): boolean {
  const manifests = registryStore((s) => s.manifests);
  const offered = registryStore((s) => s.offered);
  const failed = registryStore((s) => s.failed);
  const settings = useSettings();
  const { permissions, role } = useSession();
  return useMemo(
    () =>
      manifests
        .filter((m) => isPluginOffered({ offered, failed }, m.id))
        .flatMap((m) => m.routes ?? [])
        .some(
          (route) =>
            route.path !== '*' &&
            matchPath({ path: route.path, end: true }, path) !== null &&
            (!route.flag || isSettingEnabled(settings[route.flag])) &&
            (!route.admin || isAdminRole(role)) &&
            (!route.permission || hasPermission(permissions, route.permission)),
        ),
    [manifests, offered, failed, settings, permissions, role, path],
  );
}
