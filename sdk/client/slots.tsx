// Named places in pages where plugins contribute components (e.g. `dashboard.widgets`). A plugin
// declares `{ "slot": "dashboard.widgets", "component": "CoinsWidget" }` in plugin.json and provides the
// component in setup(); `<Slot name="dashboard.widgets" />` renders every contribution, each isolated.
// The slot is known from plugin.json alone: a contributing plugin's client is installed when the slot
// first renders its component (its first need), not at start-up.
import { useMemo, type ReactNode } from 'react';
import { hasPermission } from '../manifest';
import type { ManifestSlot, PublicSettings, ServedPluginManifest } from '../types';
import { PluginComponentHost } from './boundary';
import type { ComponentLoader } from './plugin';
import { isPluginOffered, pluginComponentLoader, registryStore, type RegistryState } from './stores/registry';
import { sessionStore } from './stores/session';
import { isSettingEnabled, settingsStore } from './stores/settings';

/** One component contributed to a slot. */
export interface SlotEntry {
  pluginId: string;
  component: string;
  order: number;
  loader: ComponentLoader;
}

const DEFAULT_ORDER = 100;

/**
 * The contributions to `slot` that may show: from the plugins in `loaders` (offered, see
 * {@link offeredSlotLoaders}), whose
 * `permission` the user holds and whose `flag` setting is on; sorted by `order`, then manifest order.
 */
export function slotEntries(
  slot: string,
  manifests: readonly ServedPluginManifest[],
  loaders: Readonly<Record<string, Readonly<Record<string, ComponentLoader>>>>,
  permissions: readonly string[],
  settings: PublicSettings,
): SlotEntry[] {
  const entries: (SlotEntry & { rank: number })[] = [];
  manifests.forEach((manifest, manifestIndex) => {
    (manifest.slots ?? []).forEach((s: ManifestSlot, slotIndex) => {
      if (s.slot !== slot) return;
      const loader = loaders[manifest.id]?.[s.component];
      if (!loader) return; // not offered: refused, or failed
      if (!hasPermission(permissions, s.permission)) return;
      if (s.flag && !isSettingEnabled(settings[s.flag])) return;
      entries.push({ pluginId: manifest.id, component: s.component, order: s.order ?? DEFAULT_ORDER, loader, rank: manifestIndex * 1000 + slotIndex });
    });
  });
  entries.sort((a, b) => a.order - b.order || a.rank - b.rank);
  return entries.map(({ rank: _rank, ...entry }) => entry);
}

/**
 * The loaders of every slot component of the offered plugins (installed or not yet): each installs its
 * plugin's client when it is first called.
 */
export function offeredSlotLoaders(state: Pick<RegistryState, 'manifests' | 'offered' | 'failed'>): Record<string, Record<string, ComponentLoader>> {
  const loaders: Record<string, Record<string, ComponentLoader>> = {};
  for (const manifest of state.manifests) {
    if (!isPluginOffered(state, manifest.id)) continue;
    const own: Record<string, ComponentLoader> = {};
    for (const s of manifest.slots ?? []) own[s.component] = pluginComponentLoader('slot', manifest.id, s.component);
    loaders[manifest.id] = own;
  }
  return loaders;
}

/** The entries of a slot, re-computed when plugins, permissions or settings change. */
export function useSlotEntries(slot: string): SlotEntry[] {
  const manifests = registryStore((s) => s.manifests);
  const offered = registryStore((s) => s.offered);
  const failed = registryStore((s) => s.failed);
  const permissions = sessionStore((s) => s.permissions);
  const settings = settingsStore((s) => s.settings);
  return useMemo(
    () => slotEntries(slot, manifests, offeredSlotLoaders({ manifests, offered, failed }), permissions, settings),
    [slot, manifests, offered, failed, permissions, settings],
  );
}

export interface SlotProps {
  /** the slot's name, e.g. `dashboard.widgets` */
  name: string;
  /** props given to every contributed component */
  props?: Record<string, unknown>;
  /** shown when nothing is contributed */
  fallback?: ReactNode;
  /** shown in place of each contribution while its code loads (default: a skeleton; `false`: nothing) */
  loading?: ReactNode;
}

/**
 * Renders every plugin's component for the slot `name`, in order, each inside its own
 * PluginBoundary (one failing contribution shows an error card; the others render).
 * @example <Grid min={260}><Slot name="dashboard.widgets" /></Grid>
 */
export function Slot({ name, props, fallback = null, loading }: SlotProps) {
  const entries = useSlotEntries(name);
  if (entries.length === 0) return <>{fallback}</>;
  return (
    <>
      {entries.map((e) => (
        <PluginComponentHost key={`${e.pluginId}:${e.component}`} pluginId={e.pluginId} component={e.component} loader={e.loader} props={props} fallback={loading} />
      ))}
    </>
  );
}
