// "Is there a page at this address for me?" — so a plugin links to another plugin's page (a profile, a
// gift form) only when that page exists: its plugin is installed, its flag is on, and the user holds
// its permission (and, for an admin route, an admin-type role: spec §2 rule 2). The kernel's router
// applies the same rules, so a link shown is a link that opens.
import { useMemo } from 'react';
import { matchPath } from 'react-router-dom';
import { hasPermission, isAdminRole } from '../manifest';
import { useSession } from './session';
import { isSettingEnabled, useSettings } from './stores/settings';
import { registryStore } from './stores/registry';

/** True when an installed plugin has a route matching `path` that is switched on and allowed for the user. */
export function useRouteAvailable(path: string): boolean {
  const manifests = registryStore((s) => s.manifests);
  const installed = registryStore((s) => s.installed);
  const settings = useSettings();
  const { permissions, role } = useSession();
  return useMemo(
    () =>
      manifests
        .filter((m) => installed.includes(m.id))
        .flatMap((m) => m.routes ?? [])
        .some(
          (route) =>
            route.path !== '*' &&
            matchPath({ path: route.path, end: true }, path) !== null &&
            (!route.flag || isSettingEnabled(settings[route.flag])) &&
            (!route.admin || isAdminRole(role)) &&
            (!route.permission || hasPermission(permissions, route.permission)),
        ),
    [manifests, installed, settings, permissions, role, path],
  );
}
