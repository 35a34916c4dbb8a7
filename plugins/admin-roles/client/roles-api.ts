// The shapes the roles admin API answers (server/admin/roles) and its addresses.
import { ADMIN_API } from '@orepanel/sdk';

/** One grantable permission (GET /api/admin/permissions). */
export interface CatalogueEntry {
  name: string;
  description: string;
  group: string;
  /** 'core' or the id of the plugin that declares it */
  source: string;
  /** false when its plugin is disabled: still grantable, its screens just are not there now */
  enabled: boolean;
}

export const rolesUrl = {
  roles: () => `${ADMIN_API}/roles`,
  role: (id: string | number) => `${ADMIN_API}/roles/${encodeURIComponent(String(id))}`,
  rolePermissions: (id: string | number) => `${ADMIN_API}/roles/${encodeURIComponent(String(id))}/permissions`,
  permissions: () => `${ADMIN_API}/permissions`,
};
