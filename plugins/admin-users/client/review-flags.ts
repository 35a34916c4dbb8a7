// The anti-abuse review flags as GET /api/admin/users/:uuid/flags answers them, their addresses and
// the translation key of each reason (server/security/abuse-screen.ts raises them).
import { ADMIN_API } from '@orepanel/sdk';

export type ReviewFlagReason = 'shared_device' | 'shared_ip' | 'vpn_detected' | 'vpn_unchecked';

export interface AccountRef {
  uuid: string;
  username: string;
}

export interface ReviewFlag {
  id: number;
  kind: 'alt' | 'vpn';
  reason: ReviewFlagReason;
  status: 'open' | 'cleared';
  /** the other accounts that share the browser or the address */
  linked_accounts: AccountRef[];
  /** the addresses a VPN flag is about */
  addresses: string[];
  ip: string | null;
  /** the checker's word ("VPN") or why it could not answer */
  detail: string | null;
  created_at: string;
  updated_at: string;
  cleared_at: string | null;
  cleared_by: AccountRef | null;
  clear_note: string | null;
}

export const reviewFlagUrl = {
  list: (uuid: string) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}/flags`,
  clear: (uuid: string, id: number) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}/flags/${id}/clear`,
};

/** the longest note the server keeps with a cleared flag */
export const CLEAR_NOTE_MAX = 255;

const REASON_KEYS: Record<ReviewFlagReason, string> = {
  shared_device: 'reviewFlags.reason.sharedDevice',
  shared_ip: 'reviewFlags.reason.sharedIp',
  vpn_detected: 'reviewFlags.reason.vpnDetected',
  vpn_unchecked: 'reviewFlags.reason.vpnUnchecked',
};

/** The translation key naming a reason (an unknown one falls back to a generic text). */
export function reasonKey(reason: string): string {
  return REASON_KEYS[reason as ReviewFlagReason] ?? 'reviewFlags.reason.other';
}
