// The gift-coins API's addresses and answers (server/gift-routes.ts).
export const GIFT_API = '/api/user/gift';
export const recipientUrl = (uuid: string) => `/api/user/gift/recipient/${encodeURIComponent(uuid)}`;

export interface GiftRecipient {
  uuid: string;
  username: string;
  avatar: string | null;
}

export interface GiftOptions {
  recipient: GiftRecipient;
  rules: { min: number; max: number; fee_percent: number };
  /** the sender's balance */
  balance: number;
}

export interface GiftAnswer {
  success: boolean;
  replayed: boolean;
  recipient: GiftRecipient;
  amount: number;
  fee: number;
  total: number;
  balance: number;
}

/**
 * A fresh idempotency key for one form submission: 32 hex characters from the browser's CSPRNG
 * (crypto.getRandomValues works on plain-http LAN panels too, unlike crypto.randomUUID).
 */
export function submissionKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
