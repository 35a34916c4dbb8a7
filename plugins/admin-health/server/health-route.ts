// GET /api/admin/health: what /mc-admin/health shows (issue 3) — is the database answering and how
// fast, is the rate-limit store (memory or Redis) answering, is mail on and how long is its queue,
// each scheduled job's last run, and whether the Pterodactyl panel is configured and answering.
// Every answer is measured now; a failing part is reported as not ok, never as a 500, so the page
// can show what is broken.
import type { FastifyInstance } from 'fastify';
import { errorResponses, isPanelError, type ServerPluginContext } from '@orepanel/sdk/server';

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

export function registerHealthRoute(app: FastifyInstance, ctx: ServerPluginContext): void {
  const { system, mail, jobs, pterodactyl, log } = ctx;

  const checkDatabase = async () => {
    const probe = await system.probeDatabase();
    return { dialect: probe.dialect, ok: probe.ok, latency_ms: probe.latencyMs };
  };

  const queueCounts = async () => {
    try {
      return await mail.queueCounts();
    } catch (error) {
      // the database check reports the cause; the queue is then unknown, not empty
      log.error({ err: error }, 'health: the mail queue could not be counted');
      return null;
    }
  };

  const checkMail = async () => {
    const [enabled, queue] = await Promise.all([mail.enabled().catch(() => false), queueCounts()]);
    return { enabled, queue };
  };

  const checkPanel = async () => {
    if (!(await pterodactyl.configured().catch(() => false))) return { configured: false, ok: null, latency_ms: null, code: null, message: null };
    try {
      const { latencyMs } = await pterodactyl.testConnection({ timeoutMs: PANEL_CHECK_TIMEOUT_MS });
      return { configured: true, ok: true, latency_ms: latencyMs, code: null, message: null };
    } catch (error) {
      const panelError = isPanelError(error) ? error : null;
      if (!panelError) log.error({ err: error }, 'health: the panel check failed');
      return { configured: true, ok: false, latency_ms: null, code: panelError?.code ?? 'PANEL_ERROR', message: panelError?.detail ?? null };
    }
  };

  app.get('/admin/health', { config: { permission: 'admin.health.view' }, schema: { response: { 200: healthSchema, ...errorResponses } } }, async (_request, reply) => {
    const [databaseState, cache, mailState, panel] = await Promise.all([checkDatabase(), system.probeSharedStore(), checkMail(), checkPanel()]);
    const jobStates = jobs
      .statuses()
      .map((j) => ({ name: j.name, last_run_at: j.lastRunAt, ok: j.lastOk, message: j.lastMessage }))
      .sort((a, b) => a.name.localeCompare(b.name));
    reply.header('Cache-Control', 'no-store');
    return { database: databaseState, cache, mail: mailState, panel, jobs: jobStates };
  });
}
