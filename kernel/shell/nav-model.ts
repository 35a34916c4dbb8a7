// The sidebar's items, built from the installed plugins' manifests (`nav`), grouped by section and
// filtered exactly like the routes they point at: a switched-off flag, a missing permission or a
// non-admin role hides an item, so the sidebar never offers a page the guards would refuse. The
// sections are the kernel's (spec §2 App shell) and those plugins declare (`navSections`).
import { hasPermission, isAdminRole } from '../../sdk/manifest';
import type { ManifestNavItem, NavSection, PublicSettings, ServedPluginManifest } from '../../sdk/types';
import { navBadgeKey } from './nav-badges';

/** The kernel's sections and their places; a plugin's section goes where its `order` puts it (default 600). */
export const KERNEL_NAV_SECTIONS: Readonly<Record<string, number>> = Object.freeze({
  main: 100,
  earn: 200,
  store: 300,
  community: 400,
  support: 500,
  admin: 900,
  account: 1000,
});

const PLUGIN_SECTION_ORDER = 600;

export interface NavEntry {
  key: string;
  pluginId: string;
  route: string;
  /** i18n key in the plugin's namespace */
  label: string;
  icon: string;
  order: number;
  /** the key of its count in the nav badges' answer (`<plugin id>.<badge>`), when the item has one */
  badge?: string;
}

export interface NavGroup {
  section: NavSection;
  /** a plugin's section: its title's i18n key in that plugin's namespace (the kernel's have their own texts) */
  title?: { namespace: string; key: string };
  items: NavEntry[];
}

interface SectionPlace {
  order: number;
  rank: number;
  title?: NavGroup['title'];
}

/** The kernel's sections and those the installed plugins declare (the first declaration of an id wins). */
function sectionPlaces(manifests: readonly ServedPluginManifest[], installed: ReadonlySet<string>): Map<string, SectionPlace> {
  const places = new Map<string, SectionPlace>(Object.entries(KERNEL_NAV_SECTIONS).map(([id, order], rank) => [id, { order, rank }]));
  for (const manifest of manifests) {
    if (!installed.has(manifest.id)) continue;
    for (const section of manifest.navSections ?? []) {
      if (places.has(section.id)) continue;
      places.set(section.id, { order: section.order ?? PLUGIN_SECTION_ORDER, rank: places.size, title: { namespace: manifest.id, key: section.label } });
    }
  }
  return places;
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

/**
 * Items of the installed plugins that this user may open, grouped by section in the sections' order;
 * an item naming a section nobody declares is shown under main rather than lost.
 */
export function buildNavGroups(manifests: readonly ServedPluginManifest[], installed: ReadonlySet<string>, v: NavVisibility): NavGroup[] {
  const places = sectionPlaces(manifests, installed);
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
        section: item.section && places.has(item.section) ? item.section : 'main',
        ...(item.badge ? { badge: navBadgeKey(manifest.id, item.badge) } : {}),
        rank: manifestIndex * 1000 + index,
      });
    });
  });
  entries.sort((a, b) => a.order - b.order || a.rank - b.rank);
  const ordered = [...places.entries()].sort(([, a], [, b]) => a.order - b.order || a.rank - b.rank);
  return ordered
    .map(([section, place]) => ({
      section,
      ...(place.title ? { title: place.title } : {}),
      items: entries.filter((e) => e.section === section).map(({ section: _s, rank: _r, ...item }) => item),
    }))
    .filter((group) => group.items.length > 0);
}
