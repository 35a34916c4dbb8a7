// The shapes the users admin API answers (server/admin/users) and its addresses.
import { ACCOUNT_RESOURCES, ADMIN_API, type AccountResource, type UserProfile } from '@orepanel/sdk';

export const RESOURCE_FIELDS = ACCOUNT_RESOURCES;
export type ResourceField = AccountResource;

export interface AdminUser extends UserProfile, Record<ResourceField, number> {
  banned: boolean;
  ban_reason: string | null;
  /** the reasons of the account's open anti-abuse flags (review-flags.ts) */
  review_flags: string[];
  coins: number;
  minutes_afk: number;
  created_at: string;
  updated_at: string;
}

export interface ActivityEntry {
  id: number;
  action: string;
  actor: { uuid: string; username: string } | null;
  details: Record<string, unknown>;
  ip: string | null;
  created_at: string;
}

export const usersUrl = {
  users: () => `${ADMIN_API}/users`,
  user: (uuid: string) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}`,
  userActivity: (uuid: string) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}/activity`,
  userTransactions: (uuid: string) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}/transactions`,
  userCoins: (uuid: string) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}/coins`,
  /** the roles an account may be given (the role list's permission) */
  roles: () => `${ADMIN_API}/roles`,
};
