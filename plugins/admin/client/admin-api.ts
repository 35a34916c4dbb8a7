// The shapes the admin API answers (server/admin/**) and its addresses.
import type { UserProfile } from '@orepanel/sdk';

export const ADMIN_API = '/api/admin';

export const RESOURCE_FIELDS = ['ram', 'disk', 'cpu', 'ports', 'databases', 'backups', 'server_slots'] as const;
export type ResourceField = (typeof RESOURCE_FIELDS)[number];

export interface AdminUser extends UserProfile, Record<ResourceField, number> {
  banned: boolean;
  ban_reason: string | null;
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

export interface CatalogueEntry {
  name: string;
  description: string;
  group: string;
  source: string;
}

export type SettingType = 'string' | 'text' | 'number' | 'boolean' | 'url' | 'email' | 'select';
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
  updated_at: string | null;
}

export interface SettingGroup {
  id: string;
  label: string;
  settings: SettingDescriptor[];
}

export type PluginState = 'enabled' | 'disabled' | 'inactive' | 'refused';

export interface AdminPlugin {
  id: string;
  name: string;
  description: string;
  version: string;
  origin: string;
  core: boolean;
  state: PluginState;
  enabled: boolean;
  active: boolean;
  refused_reason: string | null;
  requires: string[];
  permissions: string[];
  settings: SettingDescriptor[];
}

/** GET /api/admin/health, measured when asked. */
export interface AdminHealth {
  database: { dialect: string; ok: boolean; latency_ms: number | null };
  cache: { kind: 'redis' | 'memory'; ok: boolean };
  /** queue null: it could not be counted (the database check says why) */
  mail: { enabled: boolean; queue: { pending: number; failed: number } | null };
  /** ok null: the job has not run since the panel started */
  jobs: { name: string; last_run_at: string | null; ok: boolean | null; message: string | null }[];
}

export interface MailTemplateSummary {
  id: number;
  name: string;
  description: string;
  subject: string;
  /** a seeded template the panel sends by name: editable, not renamed or deleted */
  protected: boolean;
  updated_at: string;
}

export interface MailTemplate extends MailTemplateSummary {
  html: string;
  text: string;
  /** the ${names} the template uses */
  placeholders: string[];
  created_at: string;
}

export interface MailPreview {
  subject: string;
  html: string;
  text: string;
  /** every value the preview used, by placeholder name */
  placeholders: Record<string, string>;
}

export const adminUrl = {
  users: () => `${ADMIN_API}/users`,
  user: (uuid: string) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}`,
  userActivity: (uuid: string) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}/activity`,
  roles: () => `${ADMIN_API}/roles`,
  role: (id: string | number) => `${ADMIN_API}/roles/${encodeURIComponent(String(id))}`,
  rolePermissions: (id: string | number) => `${ADMIN_API}/roles/${encodeURIComponent(String(id))}/permissions`,
  permissions: () => `${ADMIN_API}/permissions`,
  settings: () => `${ADMIN_API}/settings`,
  plugins: () => `${ADMIN_API}/plugins`,
  pluginSwitch: (id: string, action: 'enable' | 'disable') => `${ADMIN_API}/plugins/${encodeURIComponent(id)}/${action}`,
  pluginConfig: (id: string) => `${ADMIN_API}/plugins/${encodeURIComponent(id)}/config`,
  health: () => `${ADMIN_API}/health`,
  mailTemplates: () => `${ADMIN_API}/mail-templates`,
  mailTemplate: (id: string | number) => `${ADMIN_API}/mail-templates/${encodeURIComponent(String(id))}`,
  mailTemplatePreview: (id: string | number) => `${ADMIN_API}/mail-templates/${encodeURIComponent(String(id))}/preview`,
};

/** The admin screens' own addresses. */
export const adminPath = {
  dashboard: '/mc-admin',
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
  health: '/mc-admin/health',
  mailTemplates: '/mc-admin/mail-templates',
  mailTemplateCreate: '/mc-admin/mail-templates/create',
  mailTemplateEdit: (id: number | string) => `/mc-admin/mail-templates/${id}/edit`,
  mailTemplateDelete: (id: number | string) => `/mc-admin/mail-templates/${id}/delete`,
};
