// GET /api/admin/health: what /mc-admin/health shows (issue 3) — is the database answering and how
// fast, is the rate-limit store (memory or Redis) answering, is mail on and how long is its queue,
// each scheduled job's last run, and whether the Pterodactyl panel is configured and answering. Every answer is measured now; a failing part is reported as
// not ok, never as a 500, so the page can show what is broken.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AdminServices } from './admin-context';
import { errorResponses } from './schemas';
import { isPanelError } from '../../sdk/pterodactyl';

const healthSchema = {
  type: 'object',
  required: ['database', 'cache', 'mail', 'jobs'],
  properties: {
    database: {
      type: 'object',
      required: ['dialect', 'ok', 'latency_ms'],
      properties: { dialect: { type: 'string' }, ok: { type: 'boolean' }, latency_ms: { type: ['number', 'null'] } },
    },
    cache: { type: 'object', required: ['kind', 'ok'], properties: { kind: { type: 'string', enum: ['redis', 'memory'] }, ok: { type: 'boolean' } } },
    mail: {
      type: 'object',
      required: ['enabled', 'queue'],
      properties: {
        enabled: { type: 'boolean' },
        queue: { type: ['object', 'null'], properties: { pending: { type: 'integer' }, failed: { type: 'integer' } } },
      },
    },
    panel: {
      type: 'object',
      required: ['configured', 'ok', 'latency_ms', 'code'],
      properties: {
        configured: { type: 'boolean' },
        /** null: not configured, so not tried */
        ok: { type: ['boolean', 'null'] },
        latency_ms: { type: ['number', 'null'] },
        /** the PanelError code when it failed (PANEL_AUTH, PANEL_UNREACHABLE…) */
        code: { type: ['string', 'null'] },
        message: { type: ['string', 'null'] },
      },
    },
    jobs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'last_run_at', 'ok', 'message'],
        properties: {
          name: { type: 'string' },
          last_run_at: { type: ['string', 'null'] },
          /** null: the job has not run yet */
          ok: { type: ['boolean', 'null'] },
          message: { type: ['string', 'null'] },
        },
      },
    },
  },
} as const;

/** the health page answers even when the panel hangs */
const PANEL_CHECK_TIMEOUT_MS = 5_000;

export function registerAdminHealth(app: FastifyInstance, services: AdminServices): void {
  const { database, rateLimiter, mailer, scheduler, pterodactyl, log } = services;
  const db = database.db;

  const checkDatabase = async () => {
    const started = performance.now();
    try {
      await sql`select 1`.execute(db);
      return { dialect: database.dialect, ok: true, latency_ms: Math.round((performance.now() - started) * 100) / 100 };
    } catch (error) {
      log.error({ err: error }, 'health: the database did not answer');
      return { dialect: database.dialect, ok: false, latency_ms: null };
    }
  };

  const checkCache = async () => {
    const store = rateLimiter.store;
    try {
      await store.ping();
      return { kind: store.kind, ok: true };
    } catch (error) {
      log.error({ err: error }, 'health: the rate-limit store did not answer');
      return { kind: store.kind, ok: false };
    }
  };

  const queueCounts = async () => {
    try {
      const rows = await db
        .selectFrom('mail_queue')
        .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
        .where('status', 'in', ['pending', 'failed'])
        .groupBy('status')
        .execute();
      const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      return { pending: count('pending'), failed: count('failed') };
    } catch (error) {
      // the database check reports the cause; the queue is then unknown, not empty
      log.error({ err: error }, 'health: the mail queue could not be counted');
      return null;
    }
  };

  const checkMail = async () => {
    const [enabled, queue] = await Promise.all([mailer.enabled().catch(() => false), queueCounts()]);
    return { enabled, queue };
  };

  const checkPanel = async () => {
    if (!pterodactyl || !(await pterodactyl.configured().catch(() => false))) return { configured: false, ok: null, latency_ms: null, code: null, message: null };
    try {
      const { latencyMs } = await pterodactyl.testConnection({ timeoutMs: PANEL_CHECK_TIMEOUT_MS });
      return { configured: true, ok: true, latency_ms: latencyMs, code: null, message: null };
    } catch (error) {
      const panelError = isPanelError(error) ? error : null;
      if (!panelError) log.error({ err: error }, 'health: the panel check failed');
      return { configured: true, ok: false, latency_ms: null, code: panelError?.code ?? 'PANEL_ERROR', message: panelError?.detail ?? null };
    }
  };

  app.get('/health', { config: { permission: 'admin.health.view' }, schema: { response: { 200: healthSchema, ...errorResponses } } }, async (_request, reply) => {
    const [databaseState, cache, mail, panel] = await Promise.all([checkDatabase(), checkCache(), checkMail(), checkPanel()]);
    const jobs = scheduler
      .statuses()
      .map((j) => ({ name: j.name, last_run_at: j.lastRunAt, ok: j.lastOk, message: j.lastMessage }))
      .sort((a, b) => a.name.localeCompare(b.name));
    reply.header('Cache-Control', 'no-store');
    return { database: databaseState, cache, mail, panel, jobs };
  });
}
