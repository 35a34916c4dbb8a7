// The sidebar's items, built from the installed plugins' manifests (`nav`), grouped by section and
// filtered exactly like the routes they point at: a switched-off flag, a missing permission or a
// non-admin role hides an item, so the sidebar never offers a page the guards would refuse.
import { hasPermission, isAdminRole } from '../../sdk/manifest';
import type { ManifestNavItem, NavSection, PublicSettings, ServedPluginManifest } from '../../sdk/types';

/** The order sections appear in. */
export const NAV_SECTIONS: readonly NavSection[] = ['main', 'earn', 'store', 'community', 'support', 'admin', 'account'];

export interface NavEntry {
  key: string;
  pluginId: string;
  route: string;
  /** i18n key in the plugin's namespace */
  label: string;
  icon: string;
  order: number;
}

export interface NavGroup {
  section: NavSection;
  items: NavEntry[];
}

export interface NavVisibility {
  permissions: readonly string[];
  role: number | string | null;
  settings: PublicSettings;
  isFlagEnabled(value: PublicSettings[string] | undefined): boolean;
}

function visible(flag: string | undefined, permission: string | undefined, v: NavVisibility): boolean {
  if (flag && !v.isFlagEnabled(v.settings[flag])) return false;
  return hasPermission(v.permissions, permission);
}

/** Items of the installed plugins that this user may open, grouped by section in NAV_SECTIONS order. */
export function buildNavGroups(manifests: readonly ServedPluginManifest[], installed: ReadonlySet<string>, v: NavVisibility): NavGroup[] {
  const routes = new Map<string, NonNullable<ServedPluginManifest['routes']>[number]>();
  for (const m of manifests) if (installed.has(m.id)) for (const r of m.routes ?? []) if (!routes.has(r.path)) routes.set(r.path, r);

  const entries: (NavEntry & { section: NavSection; rank: number })[] = [];
  manifests.forEach((manifest, manifestIndex) => {
    if (!installed.has(manifest.id)) return;
    (manifest.nav ?? []).forEach((item: ManifestNavItem, index) => {
      if (!visible(item.flag, item.permission, v)) return;
      const target = routes.get(item.route);
      if (target) {
        if (!visible(target.flag, target.permission, v)) return;
        if (target.admin && !isAdminRole(v.role)) return;
      }
      entries.push({
        key: `${manifest.id}:${item.route}:${index}`,
        pluginId: manifest.id,
        route: item.route,
        label: item.label,
        icon: item.icon ?? 'plug',
        order: item.order ?? 100,
        section: item.section ?? 'main',
        rank: manifestIndex * 1000 + index,
      });
    });
  });
  entries.sort((a, b) => a.order - b.order || a.rank - b.rank);
  return NAV_SECTIONS.map((section) => ({
    section,
    items: entries.filter((e) => e.section === section).map(({ section: _s, rank: _r, ...item }) => item),
  })).filter((group) => group.items.length > 0);
}
