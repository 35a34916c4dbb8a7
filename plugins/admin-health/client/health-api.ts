// What the health API answers (GET /api/admin/health) and its address.
import { ADMIN_API } from '@orepanel/sdk';

/** GET /api/admin/health, measured when asked. */
export interface AdminHealth {
  database: { dialect: string; ok: boolean; latency_ms: number | null };
  cache: { kind: 'redis' | 'memory'; ok: boolean };
  /** queue null: it could not be counted (the database check says why) */
  mail: { enabled: boolean; queue: { pending: number; failed: number } | null };
  /** the Pterodactyl panel: ok null when it is not configured (so not asked); code: the PanelError code */
  panel: { configured: boolean; ok: boolean | null; latency_ms: number | null; code: string | null; message: string | null };
  /** ok null: the job has not run yet; instance: the one that ran it last (null: not run yet) */
  jobs: { name: string; last_run_at: string | null; ok: boolean | null; message: string | null; instance: string | null; duration_ms: number | null }[];
  /** every instance serving this database; self: the one that answered */
  instances: HealthInstance[];
}

export interface HealthInstance {
  id: string;
  host: string;
  version: string;
  started_at: string;
  heartbeat_at: string;
  stopped_at: string | null;
  alive: boolean;
  self: boolean;
}

export const healthUrl = {
  health: () => `${ADMIN_API}/health`,
};
