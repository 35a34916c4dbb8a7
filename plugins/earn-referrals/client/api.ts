// The earn-referrals API's address and answer (server/referral-routes.ts).
import type { PageMeta } from '@orepanel/sdk';

export const REFERRALS_API = '/api/user/earn/referrals';

export interface ReferredAccount {
  username: string;
  joined_at: string;
  /** what this referral earned the referrer (0 while pending) */
  coins: number;
  /** pending: waiting for the new account to verify its e-mail address */
  status: 'paid' | 'pending';
}

export interface ReferralsAnswer {
  code: string;
  rewards: { referrer: number; redeemer: number; after_verification: boolean };
  earned: { coins: number; paid: number; pending: number };
  referred: { data: ReferredAccount[]; meta: PageMeta };
}

export const referralsUrl = (page: number, perPage: number) => `${REFERRALS_API}?page=${page}&per_page=${perPage}`;
