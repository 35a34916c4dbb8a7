// The shapes the admin API answers (server/admin/**) and its addresses.
import type { UserProfile } from '@orepanel/sdk';

export const ADMIN_API = '/api/admin';

export const RESOURCE_FIELDS = ['ram', 'disk', 'cpu', 'ports', 'databases', 'backups', 'server_slots'] as const;
export type ResourceField = (typeof RESOURCE_FIELDS)[number];

export interface AdminUser extends UserProfile, Record<ResourceField, number> {
  banned: boolean;
  ban_reason: string | null;
  /** the reasons of the account's open anti-abuse flags (users/review-flags.ts) */
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
  /** only admin.root may change it (the server refuses others with ROOT_ONLY_SETTING) */
  root_only?: boolean;
  /** whether the caller may change it; absent where the answer is not about one caller */
  editable?: boolean;
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
  /** why its server part could not be started when it was last enabled (it stayed disabled) */
  failed_reason: string | null;
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
  /** the Pterodactyl panel: ok null when it is not configured (so not asked); code: the PanelError code */
  panel: { configured: boolean; ok: boolean | null; latency_ms: number | null; code: string | null; message: string | null };
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

/** A link of the navigation (/mc-admin/redirect-links). */
export interface RedirectLink {
  id: number;
  name: string;
  url: string;
  /** an icon name of the UI kit, or null for the plain link icon */
  icon: string | null;
  /** smaller first in the navigation */
  order: number;
  created_at: string;
  updated_at: string;
}

/** An audit log entry across accounts, as the dashboard's activity and logs show it. */
export interface DashboardAuditEntry {
  id: number;
  action: string;
  actor: { uuid: string; username: string } | null;
  target: { uuid: string; username: string } | null;
  details: Record<string, unknown>;
  ip: string | null;
  created_at: string;
}

/** GET /api/admin/dashboard/overview */
export interface DashboardOverview {
  version: string;
  node_version: string;
  dialect: string;
  started_at: string;
  accounts: { total: number; banned: number; unverified: number; two_fa: number; active_sessions: number };
  roles: number;
  plugins: { installed: number; enabled: number; refused: number };
}

/** GET /api/admin/dashboard/updates */
export interface DashboardUpdates {
  version: string;
  /** pending migrations over every set */
  pending: number;
  migrations: { owner: string; applied: number; pending: string[]; unknown: string[]; latest: { name: string; applied_at: string } | null }[];
  refused: { id: string; reason: string }[];
}

/** GET /api/admin/dashboard/logs */
export interface DashboardLogs {
  data: DashboardAuditEntry[];
  last_24h: { action: string; count: number }[];
}

export const ANALYTICS_PERIODS = [14, 30] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

/** GET /api/admin/dashboard/analytics */
export interface DashboardAnalytics {
  days: number;
  series: { date: string; signups: number; logins: number }[];
  totals: { signups: number; logins: number; active_users: number; accounts: number };
}

/** GET /api/admin/dashboard/support/pins/:pin */
export interface SupportPinMatch {
  uuid: string;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  role: number;
  role_name: string;
  banned: boolean;
  created_at: string;
}

export const adminUrl = {
  users: () => `${ADMIN_API}/users`,
  user: (uuid: string) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}`,
  userActivity: (uuid: string) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}/activity`,
  userTransactions: (uuid: string) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}/transactions`,
  userCoins: (uuid: string) => `${ADMIN_API}/users/${encodeURIComponent(uuid)}/coins`,
  roles: () => `${ADMIN_API}/roles`,
  role: (id: string | number) => `${ADMIN_API}/roles/${encodeURIComponent(String(id))}`,
  rolePermissions: (id: string | number) => `${ADMIN_API}/roles/${encodeURIComponent(String(id))}/permissions`,
  permissions: () => `${ADMIN_API}/permissions`,
  settings: () => `${ADMIN_API}/settings`,
  pterodactylTest: () => `${ADMIN_API}/pterodactyl/test`,
  plugins: () => `${ADMIN_API}/plugins`,
  pluginSwitch: (id: string, action: 'enable' | 'disable') => `${ADMIN_API}/plugins/${encodeURIComponent(id)}/${action}`,
  pluginConfig: (id: string) => `${ADMIN_API}/plugins/${encodeURIComponent(id)}/config`,
  health: () => `${ADMIN_API}/health`,
  mailTemplates: () => `${ADMIN_API}/mail-templates`,
  mailTemplate: (id: string | number) => `${ADMIN_API}/mail-templates/${encodeURIComponent(String(id))}`,
  mailTemplatePreview: (id: string | number) => `${ADMIN_API}/mail-templates/${encodeURIComponent(String(id))}/preview`,
  redirectLinks: () => `${ADMIN_API}/redirect-links`,
  redirectLink: (id: string | number) => `${ADMIN_API}/redirect-links/${encodeURIComponent(String(id))}`,
  dashboardOverview: () => `${ADMIN_API}/dashboard/overview`,
  dashboardUpdates: () => `${ADMIN_API}/dashboard/updates`,
  dashboardLogs: () => `${ADMIN_API}/dashboard/logs`,
  dashboardAnalytics: (days: AnalyticsPeriod) => `${ADMIN_API}/dashboard/analytics?days=${days}`,
  dashboardSupportPin: (pin: string) => `${ADMIN_API}/dashboard/support/pins/${encodeURIComponent(pin)}`,
  dashboardActivity: (limit: number) => `${ADMIN_API}/dashboard/activity?limit=${limit}`,
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
  redirectLinks: '/mc-admin/redirect-links',
  redirectLinkCreate: '/mc-admin/redirect-links/create',
  redirectLinkEdit: (id: number | string) => `/mc-admin/redirect-links/${id}/edit`,
  redirectLinkDelete: (id: number | string) => `/mc-admin/redirect-links/${id}/delete`,
};
