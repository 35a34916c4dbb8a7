// The earn-redeem API's addresses and answers (server/*.ts of this plugin).
import type { CodeState } from '../shared/code-rules';

export const REDEEM_API = '/api/user/earn/redeem';

export interface RedeemAnswer {
  success: boolean;
  code: string;
  coins: number;
  balance: number;
}

export interface RedeemCode {
  id: number;
  code: string;
  coins: number;
  uses: number;
  redeemed: number;
  enabled: boolean;
  expires_at: string | null;
  state: CodeState;
  created_at: string;
  updated_at: string;
}

export const adminUrl = {
  codes: () => '/api/admin/redeem-codes',
  code: (id: number | string) => `/api/admin/redeem-codes/${encodeURIComponent(String(id))}`,
};

export const adminPath = {
  codes: '/mc-admin/redeem-codes',
  create: '/mc-admin/redeem-codes/create',
  edit: (id: number) => `/mc-admin/redeem-codes/${id}/edit`,
  delete: (id: number) => `/mc-admin/redeem-codes/${id}/delete`,
};

export const PERMISSIONS = {
  list: 'admin.redeem.codes.list',
  create: 'admin.redeem.codes.create',
  edit: 'admin.redeem.codes.edit',
  delete: 'admin.redeem.codes.delete',
} as const;
