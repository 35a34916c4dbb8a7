// The shapes the dashboard API answers (server/dashboard-routes.ts), its addresses, and the permission
// of each dashboard component.
import { ADMIN_API, type SupportPinAccount } from '@orepanel/sdk';

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

/** GET /api/admin/dashboard/support/pins/:pin answers `{ users: SupportPinAccount[] }` */
export type SupportPinMatch = SupportPinAccount;

export const dashboardUrl = {
  dashboardOverview: () => `${ADMIN_API}/dashboard/overview`,
  dashboardUpdates: () => `${ADMIN_API}/dashboard/updates`,
  dashboardLogs: () => `${ADMIN_API}/dashboard/logs`,
  dashboardAnalytics: (days: AnalyticsPeriod) => `${ADMIN_API}/dashboard/analytics?days=${days}`,
  dashboardSupportPin: (pin: string) => `${ADMIN_API}/dashboard/support/pins/${encodeURIComponent(pin)}`,
  dashboardActivity: (limit: number) => `${ADMIN_API}/dashboard/activity?limit=${limit}`,
};

/** spec §6 "dashboard components": each component of /mc-admin shows only with its permission. */
export const DASHBOARD_COMPONENTS = Object.freeze({
  systemOverview: 'admin.dashboard.components.system.overview',
  updates: 'admin.dashboard.components.system.updates',
  logs: 'admin.dashboard.components.system.logs',
  analytics: 'admin.dashboard.components.ataglanceanalytics.view',
  support: 'admin.dashboard.components.support.view',
  quickActions: 'admin.dashboard.components.quickactions.view',
  activity: 'admin.dashboard.components.activity.view',
});
