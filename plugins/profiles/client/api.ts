// The profiles plugin's addresses (server/index.ts) and the admin API's support-PIN lookup it uses.
import type { SupportPinAccount } from '@orepanel/sdk';
export const profileUrl = (uuid: string) => `/api/user/profile/${encodeURIComponent(uuid)}`;
export const SEARCH_URL = '/api/user/search';
/** the admin dashboard's support component answers it (plugins/admin-dashboard/server) */
export const supportPinUrl = (pin: string) => `/api/admin/dashboard/support/pins/${encodeURIComponent(pin)}`;
/** who may look a user up by support PIN: the spec §6 dashboard component "support.view" */
export const SUPPORT_PIN_PERMISSION = 'admin.dashboard.components.support.view';

/** One account GET /api/admin/dashboard/support/pins/{pin} finds. */
export type PinMatch = SupportPinAccount;
