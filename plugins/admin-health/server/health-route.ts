// GET /api/admin/health: what /mc-admin/health shows (issue 3) — is the database answering and how
// fast, is the rate-limit store (memory or Redis) answering, is mail on and how long is its queue,
// each scheduled job's last run on any instance (and which one ran it), the instances serving this
// database, and whether the Pterodactyl panel is configured and answering.
// Every answer is measured now; a failing part is reported as not ok, never as a 500, so the page
// can show what is broken.
import type { FastifyInstance } from 'fastify';
import { errorResponses, isPanelError, type ServerPluginContext } from '@orepanel/sdk/server';

const healthSchema = {
  type: 'object',
  required: ['database', 'cache', 'mail', 'jobs', 'instances'],
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
        required: ['name', 'last_run_at', 'ok', 'message', 'instance', 'duration_ms'],
        properties: {
          name: { type: 'string' },
          last_run_at: { type: ['string', 'null'] },
          /** null: the job has not run yet */
          ok: { type: ['boolean', 'null'] },
          message: { type: ['string', 'null'] },
          /** the instance that ran it last; null: not run yet */
          instance: { type: ['string', 'null'] },
          duration_ms: { type: ['number', 'null'] },
        },
      },
    },
    instances: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'host', 'version', 'started_at', 'heartbeat_at', 'stopped_at', 'alive', 'self'],
        properties: {
          id: { type: 'string' },
          host: { type: 'string' },
          version: { type: 'string' },
          started_at: { type: 'string' },
          heartbeat_at: { type: 'string' },
          stopped_at: { type: ['string', 'null'] },
          alive: { type: 'boolean' },
          /** the instance that answered this request */
          self: { type: 'boolean' },
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
    // the cluster's record when the database answers; this instance's own memory when it does not
    const [runs, instances] = await Promise.all([
      system.jobRuns().catch((error: unknown) => {
        log.error({ err: error }, 'health: the job runs could not be read');
        return [];
      }),
      system.instances().catch((error: unknown) => {
        log.error({ err: error }, 'health: the instances could not be read');
        return [];
      }),
    ]);
    const lastRuns = new Map(runs.map((run) => [run.name, run]));
    const jobStates = jobs
      .statuses()
      .map((j) => {
        const run = lastRuns.get(j.name);
        if (run) return { name: j.name, last_run_at: run.lastRunAt, ok: run.ok, message: run.message, instance: run.instanceId, duration_ms: run.durationMs };
        return { name: j.name, last_run_at: j.lastRunAt, ok: j.lastOk, message: j.lastMessage, instance: null, duration_ms: null };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
    const instanceStates = instances.map((i) => ({
      id: i.id,
      host: i.host,
      version: i.version,
      started_at: i.startedAt,
      heartbeat_at: i.heartbeatAt,
      stopped_at: i.stoppedAt,
      alive: i.alive,
      self: i.self,
    }));
    reply.header('Cache-Control', 'no-store');
    return { database: databaseState, cache, mail: mailState, panel, jobs: jobStates, instances: instanceStates };
  });
}
