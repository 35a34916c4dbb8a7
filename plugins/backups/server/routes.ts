// /api/admin/backups (spec §2 /mc-admin/backups, admin.backups.create / .delete / .list):
//   GET    /admin/backups                   the archives, newest first, with where each is kept
//   POST   /admin/backups                   make one now: 202 with the job (409 while another job runs)
//   GET    /admin/backup-jobs/current       the running job, else the last one that ended
//   GET    /admin/backup-jobs/:id           one job's phase and progress, error or outcome
//   POST   /admin/backups/:name/verify      decrypt it and check every checksum, as a job (list: it only reads)
//   GET    /admin/backups/:name/download    the archive's bytes, streamed as an attachment, audited
//   DELETE /admin/backups/:name             remove it from the local folder
//   POST   /admin/backups/:name/restore     admin.root, the panel's name, the password (and the 2FA code): a job
//
// A download needs admin.backups.create, not .list: the archive is every account's data (sealed with
// this install's key, but whole), and a role that may only look at the list should not carry it
// away; the role trusted to make archives is the one that operates them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses, isBackupArchiveError, successSchema, type ServerPluginContext } from '@orepanel/sdk/server';
import { BACKUP_KIND_NAMES, BACKUP_NAME_PATTERN, BACKUP_PLACES, JOB_ACTIONS, JOB_PHASES, JOB_STATES, REMOTE_STATES, type BackupJob, type RestoreRequest } from '../shared/wire';
import type { Backups } from './backups';
import { summaryOf } from './backups';
import { confirmRestorer } from './restore-guard';

const nameParams = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', pattern: BACKUP_NAME_PATTERN, maxLength: 64 } },
} as const;

const jobParams = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' } },
} as const;

const nullableString = { type: ['string', 'null'] } as const;

const summarySchema = {
  type: ['object', 'null'],
  required: ['created_at', 'panel_version', 'dialect', 'tables', 'rows', 'files', 'file_bytes'],
  properties: {
    created_at: { type: 'string' },
    panel_version: { type: 'string' },
    dialect: { type: 'string' },
    tables: { type: 'integer' },
    rows: { type: 'integer' },
    files: { type: 'integer' },
    file_bytes: { type: 'integer' },
  },
} as const;

const jobSchema = {
  type: 'object',
  required: ['id', 'action', 'state', 'name', 'kind', 'phase', 'done', 'total', 'started_at', 'finished_at', 'started_by', 'error', 'summary', 'before_restore'],
  properties: {
    id: { type: 'string' },
    action: { type: 'string', enum: JOB_ACTIONS },
    state: { type: 'string', enum: JOB_STATES },
    name: nullableString,
    kind: { type: ['string', 'null'], enum: [...BACKUP_KIND_NAMES, null] },
    phase: { type: 'string', enum: JOB_PHASES },
    done: { type: 'integer' },
    total: { type: 'integer' },
    started_at: { type: 'string' },
    finished_at: nullableString,
    started_by: nullableString,
    error: { type: ['object', 'null'], required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
    summary: summarySchema,
    before_restore: nullableString,
  },
} as const;

const jobAnswer = { type: 'object', required: ['job'], properties: { job: jobSchema } } as const;

const rowSchema = {
  type: 'object',
  required: ['name', 'size', 'created_at', 'kind', 'where', 'panel_version'],
  properties: {
    name: { type: 'string' },
    size: { type: 'integer' },
    created_at: { type: 'string' },
    kind: { type: ['string', 'null'], enum: [...BACKUP_KIND_NAMES, null] },
    where: { type: 'string', enum: BACKUP_PLACES },
    panel_version: nullableString,
  },
} as const;

const restoreBody = {
  type: 'object',
  required: ['panel_name', 'password'],
  additionalProperties: false,
  properties: {
    panel_name: { type: 'string', maxLength: 200 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
    // a 6-digit code or a recovery code (xxxxx-xxxxx), as the auth plugin's own 2FA routes take it
    code: { type: 'string', maxLength: 24, pattern: '^[0-9A-Za-z -]*$' },
    dry_run: { type: 'boolean' },
  },
} as const;

const archiveAnswer = {
  200: { description: 'The archive (application/octet-stream, as an attachment named after it)', content: { 'application/octet-stream': { schema: {} } } },
  ...errorResponses,
} as const;

export function registerBackupRoutes(app: FastifyInstance, ctx: ServerPluginContext, backups: Backups): void {
  const busy = () => ctx.httpError(409, 'BACKUP_JOB_RUNNING', 'Another backup job is running. Wait for it to finish, then try again.');
  const notFound = () => ctx.httpError(404, 'BACKUP_NOT_FOUND', 'There is no such backup in the local folder.');
  const userOf = async (request: FastifyRequest) => (await ctx.auth.currentUser(request))!;
  const requireLocal = async (name: string) => {
    if (!(await backups.hasLocal(name))) throw notFound();
  };
  /** the engine's refusals (an archive it cannot read) as answers */
  const archiveRefusal = (error: unknown): never => {
    if (isBackupArchiveError(error)) {
      if (error.code === 'BACKUP_NOT_FOUND') throw notFound();
      if (error.code === 'BACKUP_NAME_INVALID') throw ctx.httpError(400, error.code, 'This is not a backup name.', 'name');
      throw ctx.httpError(409, error.code, error.message);
    }
    throw error;
  };

  app.get(
    '/admin/backups',
    {
      config: { permission: 'admin.backups.list' },
      schema: {
        response: {
          200: { type: 'object', required: ['data', 'remote'], properties: { data: { type: 'array', items: rowSchema }, remote: { type: 'string', enum: REMOTE_STATES } } },
          ...errorResponses,
        },
      },
    },
    async () => backups.list(),
  );

  app.post('/admin/backups', { config: { permission: 'admin.backups.create' }, schema: { response: { 202: jobAnswer, ...errorResponses } } }, async (request, reply) => {
    const user = await userOf(request);
    const job = await backups.create('manual', user.username);
    if (!job) throw busy();
    await ctx.audit.record(request, { action: 'admin.backup.create', details: { job: job.id } });
    return reply.code(202).send({ job });
  });

  app.get(
    '/admin/backup-jobs/current',
    {
      config: { permission: 'admin.backups.list' },
      schema: { response: { 200: { type: 'object', required: ['job'], properties: { job: { ...jobSchema, type: ['object', 'null'] } } }, ...errorResponses } },
    },
    async () => ({ job: backups.work.current() }),
  );

  app.get<{ Params: { id: string } }>(
    '/admin/backup-jobs/:id',
    { config: { permission: 'admin.backups.list' }, schema: { params: jobParams, response: { 200: jobAnswer, ...errorResponses } } },
    async (request) => {
      const job = backups.work.get(request.params.id);
      if (!job) throw ctx.httpError(404, 'BACKUP_JOB_NOT_FOUND', 'There is no such job (the panel forgets finished jobs after a while, and when it restarts).');
      return { job };
    },
  );

  app.post<{ Params: { name: string } }>(
    '/admin/backups/:name/verify',
    { config: { permission: 'admin.backups.list' }, schema: { params: nameParams, response: { 202: jobAnswer, ...errorResponses } } },
    async (request, reply) => {
      const { name } = request.params;
      await requireLocal(name);
      const job = await backups.verify(name, (await userOf(request)).username);
      if (!job) throw busy();
      return reply.code(202).send({ job });
    },
  );

  app.get<{ Params: { name: string } }>(
    '/admin/backups/:name/download',
    { config: { permission: 'admin.backups.create' }, schema: { params: nameParams, response: archiveAnswer } },
    async (request, reply) => {
      const { name } = request.params;
      const opened = await backups.archives.open(name).catch(archiveRefusal);
      await ctx.audit.record(request, { action: 'admin.backup.download', details: { archive: name, size: opened.size } });
      return reply
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('content-length', String(opened.size))
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .type('application/octet-stream')
        .send(opened.stream);
    },
  );

  app.delete<{ Params: { name: string } }>(
    '/admin/backups/:name',
    { config: { permission: 'admin.backups.delete' }, schema: { params: nameParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      const { name } = request.params;
      if (backups.work.busyWith(name)) throw ctx.httpError(409, 'BACKUP_IN_USE', 'A job is reading this backup now. Wait for it to finish, then try again.');
      const removed = await backups.archives.remove(name).catch(archiveRefusal);
      if (!removed) throw notFound();
      await ctx.audit.record(request, { action: 'admin.backup.delete', details: { archive: name } });
      await ctx.events.emit('backup.deleted', { name, reason: 'admin' });
      return { success: true };
    },
  );

  app.post<{ Params: { name: string }; Body: RestoreRequest }>(
    '/admin/backups/:name/restore',
    {
      config: { permission: 'admin.root', rateLimit: 'backups.restore' },
      schema: {
        params: nameParams,
        body: restoreBody,
        response: {
          200: { type: 'object', required: ['dry_run', 'summary'], properties: { dry_run: { type: 'boolean' }, summary: summarySchema } },
          202: jobAnswer,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const user = await userOf(request);
      await confirmRestorer(ctx, request, user, request.body, name);
      // read without decrypting the data: a missing archive, another install's or a newer panel's is refused now, not halfway
      const manifest = await backups.archives.inspect(name).catch(archiveRefusal);
      if (request.body.dry_run === true) return { dry_run: true, summary: summaryOf(manifest) };
      if (backups.work.current()?.state === 'running') throw busy();
      // written now it survives a restore that fails (and rolls back); the job writes the outcome once it ends
      await ctx.audit.record(request, { action: 'admin.backup.restore_started', details: { archive: name } });
      const job: BackupJob | null = await backups.restore(name, { id: user.id, username: user.username }, request.ip ?? null);
      if (!job) throw busy();
      return reply.code(202).send({ job });
    },
  );
}
