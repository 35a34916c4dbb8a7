// What the admin area's plugins share about the core's admin API (server/admin/**): its base
// address, the core screens' addresses and permissions (users, roles, settings, plugins are core
// plugins, so other plugins may link to them), a role as the API answers it, and a setting as the
// settings and plugin-configuration screens edit it.
import type { SettingType } from '../../types';

/** The base address of the core's admin API. */
export const ADMIN_API = '/api/admin';

/** The permissions of the core admin screens (the server's core catalogue, spec §6). */
export const ADMIN_PERMISSIONS = Object.freeze({
  usersList: 'admin.users.list',
  usersEdit: 'admin.users.edit',
  usersDelete: 'admin.users.delete',
  rolesList: 'admin.roles.list',
  rolesCreate: 'admin.roles.create',
  rolesEdit: 'admin.roles.edit',
  rolesDelete: 'admin.roles.delete',
  permissionsList: 'admin.permissions.list',
  permissionsEdit: 'admin.permissions.edit',
  settingsView: 'admin.settings.view',
  settingsEdit: 'admin.settings.edit',
  pluginsList: 'admin.plugins.list',
  pluginsEdit: 'admin.plugins.edit',
});

/** The addresses of the core admin screens. */
export const ADMIN_PATHS = Object.freeze({
  users: '/mc-admin/users',
  userEdit: (uuid: string) => `/mc-admin/users/${encodeURIComponent(uuid)}/edit`,
  userDelete: (uuid: string) => `/mc-admin/users/${encodeURIComponent(uuid)}/delete`,
  roles: '/mc-admin/roles',
  roleCreate: '/mc-admin/roles/create',
  roleEdit: (id: number | string) => `/mc-admin/roles/${id}/edit`,
  roleDelete: (id: number | string) => `/mc-admin/roles/${id}/delete`,
  rolePermissions: (id: number | string) => `/mc-admin/roles/${id}/permissions`,
  settings: '/mc-admin/settings',
  plugins: '/mc-admin/plugins',
  pluginConfig: (id: string) => `/mc-admin/plugins/${encodeURIComponent(id)}/config`,
});

/** A role as GET /api/admin/roles answers it. */
export interface AdminRole {
  id: number;
  name: string;
  real_name: string;
  color: string;
  permissions: string[];
  users: number;
  /** the default role and roles holding admin.root cannot be deleted */
  protected: boolean;
}

export type PlainSettingValue = string | number | boolean | null;

/** One setting as the admin API describes it; a secret's value is only whether it is set. */
export interface SettingDescriptor {
  key: string;
  type: SettingType;
  label: string;
  value: PlainSettingValue | { set: boolean };
  default: PlainSettingValue;
  options?: string[];
  min?: number;
  max?: number;
  secret: boolean;
  public: boolean;
  /** only admin.root may change it (the server refuses others with ROOT_ONLY_SETTING) */
  root_only?: boolean;
  /** whether the caller may change it; absent where the answer is not about one caller */
  editable?: boolean;
  updated_at: string | null;
}
