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
  /** ok null: the job has not run since the panel started */
  jobs: { name: string; last_run_at: string | null; ok: boolean | null; message: string | null }[];
}

export const healthUrl = {
  health: () => `${ADMIN_API}/health`,
};
