// The resource packs the store sells. Each item adds to one resource limit of the account (a column
// of users); both halves of the plugin use this list, so the page and the API name items alike.
export const STORE_ITEM_IDS = ['ram', 'disk', 'cpu', 'ports', 'databases', 'backups', 'server_slots'] as const;
export type StoreItemId = (typeof STORE_ITEM_IDS)[number];

export function isStoreItemId(value: unknown): value is StoreItemId {
  return typeof value === 'string' && (STORE_ITEM_IDS as readonly string[]).includes(value);
}

/** One item as GET /api/user/store/items lists it (blocked items are left out). */
export interface StoreItemOffer {
  id: StoreItemId;
  /** coins one pack costs */
  price: number;
  /** how much of the resource one pack adds (MiB for ram and disk, % for cpu, a count otherwise) */
  quantity: number;
  /** what the account has now */
  owned: number;
  /** the most the account may own (max_<item>) */
  max: number;
}

export interface StoreItemsResponse {
  balance: number;
  items: StoreItemOffer[];
}

export interface StorePurchaseResponse {
  success: true;
  /** true when this idempotency key had been used: nothing was charged this time */
  replayed: boolean;
  item: StoreItemId;
  /** the balance after the purchase */
  balance: number;
  /** the account's amount of the resource after the purchase */
  owned: number;
}

/** What the client sends: the item and a key unique to this one submission (retries reuse it). */
export const PURCHASE_KEY_PATTERN = '^[A-Za-z0-9_-]{8,64}$';
