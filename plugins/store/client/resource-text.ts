// How an amount of a store item reads: memory and disk in MiB, CPU in percent, the rest as a count.
import type { IconName } from '@orepanel/sdk';
import type { TFunction } from 'i18next';
import type { StoreItemId } from '../shared/items';

export function resourceText(t: TFunction, item: StoreItemId, value: number): string {
  if (item === 'ram' || item === 'disk') return t('units.mib', { value });
  if (item === 'cpu') return t('units.percent', { value });
  return t('units.count', { value });
}

export const ITEM_ICONS: Record<StoreItemId, IconName> = {
  ram: 'ram',
  disk: 'disk',
  cpu: 'cpu',
  ports: 'plug',
  databases: 'database',
  backups: 'archive',
  server_slots: 'server',
};
