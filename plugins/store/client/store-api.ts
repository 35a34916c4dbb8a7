// The store's API addresses, in one place for both pages and their tests.
export const ITEMS_API = '/api/user/store/items';
export const PURCHASE_API = '/api/user/store/purchase';
export const CREDITS_API = '/api/user/store/credits';
export const CHECKOUT_API = '/api/user/store/credits/checkout';
export const orderApi = (id: string) => `/api/user/store/credits/orders/${encodeURIComponent(id)}`;
export const captureApi = (id: string) => `${orderApi(id)}/capture`;

/** A fresh idempotency key for one purchase submission (32 hex digits, PURCHASE_KEY_PATTERN). */
export function newPurchaseKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
