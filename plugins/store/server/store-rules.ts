// The store's rules per item, read from the settings an administrator tunes (reference defaults:
// 100 coins a pack; ram 1024 MiB, disk 1024 MiB, cpu 100 %, ports 2, databases 1, backups 1 and one
// server slot per pack; block_<item> hides a pack, max_<item> caps what an account may own).
import type { PluginSettings, SettingValue } from '@orepanel/sdk/server';
import { STORE_ITEM_IDS, type StoreItemId } from '../shared/items';

export interface StoreItemRules {
  id: StoreItemId;
  price: number;
  quantity: number;
  max: number;
  blocked: boolean;
}

/** A number setting as a whole number no smaller than `min` (an administrator may type 1.5). */
export function wholeSetting(value: SettingValue, fallback: number, min: number): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : fallback;
  return Math.min(Math.max(n, min), Number.MAX_SAFE_INTEGER);
}

const keysOf = (id: StoreItemId) => [`store_price_${id}`, `store_quantity_${id}`, `max_${id}`, `block_${id}`] as const;

export async function readStoreRules(settings: PluginSettings): Promise<StoreItemRules[]> {
  const values = await settings.getMany(STORE_ITEM_IDS.flatMap(keysOf));
  return STORE_ITEM_IDS.map((id) => {
    const [price, quantity, max, block] = keysOf(id);
    return {
      id,
      price: wholeSetting(values[price], 100, 1),
      quantity: wholeSetting(values[quantity], 1, 1),
      max: wholeSetting(values[max], 0, 0),
      blocked: values[block] === true,
    };
  });
}
