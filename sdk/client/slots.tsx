// Named places in pages where plugins contribute components (e.g. `dashboard.widgets`). A plugin
// declares `{ "slot": "dashboard.widgets", "component": "CoinsWidget" }` in plugin.json and provides the
// component in setup(); `<Slot name="dashboard.widgets" />` renders every contribution, each isolated.
import { useMemo, type ReactNode } from 'react';
import { hasPermission } from '../manifest';
import type { ManifestSlot, PublicSettings, ServedPluginManifest } from '../types';
import { PluginComponentHost } from './boundary';
import type { ComponentLoader } from './plugin';
import { registryStore } from './stores/registry';
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
 * The contributions to `slot` that may show: from installed plugins that provided the component, whose
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
      if (!loader) return; // not installed, refused, or failed
      if (!hasPermission(permissions, s.permission)) return;
      if (s.flag && !isSettingEnabled(settings[s.flag])) return;
      entries.push({ pluginId: manifest.id, component: s.component, order: s.order ?? DEFAULT_ORDER, loader, rank: manifestIndex * 1000 + slotIndex });
    });
  });
  entries.sort((a, b) => a.order - b.order || a.rank - b.rank);
  return entries.map(({ rank: _rank, ...entry }) => entry);
}

/** The entries of a slot, re-computed when plugins, permissions or settings change. */
export function useSlotEntries(slot: string): SlotEntry[] {
  const manifests = registryStore((s) => s.manifests);
  const loaders = registryStore((s) => s.slots);
  const permissions = sessionStore((s) => s.permissions);
  const settings = settingsStore((s) => s.settings);
  return useMemo(() => slotEntries(slot, manifests, loaders, permissions, settings), [slot, manifests, loaders, permissions, settings]);
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
