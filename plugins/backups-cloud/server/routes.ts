// /api/admin/cloud-backups (spec §6 "cloud backup integration: view, download, upload"):
//   GET    /admin/cloud-backups                      the connection, the remote and local archives, the transfer (admin.cloud.view)
//   GET    /admin/cloud-backups/transfers/:id        one transfer's progress and outcome (admin.cloud.view)
//   POST   /admin/cloud-backups/uploads              { name }: upload a local archive, 202 with the transfer (admin.cloud.upload)
//   POST   /admin/cloud-backups/downloads            { name }: download an off-site archive into the local folder (admin.cloud.download)
//   DELETE /admin/cloud-backups/remote/:name         delete an off-site archive (admin.root)
//   PUT    /admin/cloud-backups/settings             the bucket, keys, folder, automatic upload, retention (admin.root)
//   POST   /admin/cloud-backups/test                 "Test connection" with the form's values (admin.root)
//
// Deleting an off-site copy is admin.root's alone: the copies exist to survive a panel whose admin
// accounts were taken over, so a role that may upload and download must not be able to destroy them
// (the reference kept its cloud deletes to admin.root too). The settings are root's because they
// decide where a copy of every account's data goes; their plugin.json entries are rootOnly as well,
// so the plugins' configuration screen holds to the same rule.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponseSchema, errorResponses, hasPermission, successSchema, type ServerPluginContext } from '@orepanel/sdk/server';
import {
  ARCHIVE_KINDS,
  ARCHIVE_NAME_MAX,
  ARCHIVE_NAME_PATTERN,
  CLOUD_LIMITS,
  REMOTE_STATES,
  TEST_STEPS,
  TRANSFER_DIRECTIONS,
  TRANSFER_STATES,
  type CloudSettingsInput,
} from '../shared/wire';
import { optionsFromForm, saveCloudSettings } from './cloud-settings';
import type { OffsiteCopies, Starter } from './offsite';

const ROOT = 'admin.root';

const archiveName = { type: 'string', pattern: ARCHIVE_NAME_PATTERN, maxLength: ARCHIVE_NAME_MAX } as const;
const nameParams = { type: 'object', required: ['name'], additionalProperties: false, properties: { name: archiveName } } as const;
const nameBody = { type: 'object', required: ['name'], additionalProperties: false, properties: { name: archiveName } } as const;
const transferParams = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' } },
} as const;

const codedError = { type: ['object', 'null'], required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } } as const;
const kind = { type: ['string', 'null'], enum: [...ARCHIVE_KINDS, null] } as const;

const transferSchema = {
  type: ['object', 'null'],
  required: ['id', 'direction', 'name', 'state', 'done', 'total', 'started_by', 'started_at', 'finished_at', 'error'],
  properties: {
    id: { type: 'string' },
    direction: { type: 'string', enum: TRANSFER_DIRECTIONS },
    name: { type: 'string' },
    state: { type: 'string', enum: TRANSFER_STATES },
    done: { type: 'integer' },
    total: { type: 'integer' },
    started_by: { type: ['string', 'null'] },
    started_at: { type: 'string' },
    finished_at: { type: ['string', 'null'] },
    error: codedError,
  },
} as const;

const connectionSchema = {
  type: 'object',
  required: ['endpoint', 'region', 'bucket', 'prefix', 'force_path_style', 'access_key_id', 'secret_set', 'auto_upload', 'keep'],
  properties: {
    endpoint: { type: 'string' },
    region: { type: 'string' },
    bucket: { type: 'string' },
    prefix: { type: 'string' },
    force_path_style: { type: 'boolean' },
    access_key_id: { type: ['string', 'null'] },
    secret_set: { type: 'boolean' },
    auto_upload: { type: 'boolean' },
    keep: { type: 'integer' },
  },
} as const;

const statusSchema = {
  type: 'object',
  required: ['configured', 'connection', 'remote', 'local', 'transfer'],
  properties: {
    configured: { type: 'boolean' },
    connection: connectionSchema,
    remote: {
      type: 'object',
      required: ['state', 'error', 'data'],
      properties: {
        state: { type: 'string', enum: REMOTE_STATES },
        error: codedError,
        data: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'size', 'created_at', 'uploaded_at', 'kind', 'local'],
            properties: {
              name: { type: 'string' },
              size: { type: 'integer' },
              created_at: { type: 'string' },
              uploaded_at: { type: 'string' },
              kind,
              local: { type: 'boolean' },
            },
          },
        },
      },
    },
    local: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'size', 'created_at', 'kind', 'remote'],
        properties: { name: { type: 'string' }, size: { type: 'integer' }, created_at: { type: 'string' }, kind, remote: { type: 'boolean' } },
      },
    },
    transfer: transferSchema,
  },
} as const;

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;

const settingsBody = {
  type: 'object',
  required: ['endpoint', 'region', 'bucket', 'access_key_id', 'prefix', 'force_path_style', 'auto_upload', 'keep'],
  additionalProperties: false,
  properties: {
    endpoint: text(CLOUD_LIMITS.text),
    region: text(64),
    bucket: text(63),
    access_key_id: text(CLOUD_LIMITS.text),
    // absent: keep the stored secret
    secret_access_key: { type: 'string', minLength: 1, maxLength: CLOUD_LIMITS.text },
    prefix: text(CLOUD_LIMITS.text),
    force_path_style: { type: 'boolean' },
    auto_upload: { type: 'boolean' },
    keep: { type: 'integer', minimum: CLOUD_LIMITS.keep.min, maximum: CLOUD_LIMITS.keep.max },
  },
} as const;

const testAnswer = {
  type: 'object',
  required: ['ok', 'steps'],
  properties: {
    ok: { type: 'boolean' },
    steps: {
      type: 'array',
      items: { type: 'object', required: ['step', 'ok', 'error'], properties: { step: { type: 'string', enum: TEST_STEPS }, ok: { type: 'boolean' }, error: codedError } },
    },
  },
} as const;

/** what a route that reaches the bucket may answer: the storage's failures are 502s */
const bucketErrors = { ...errorResponses, 502: errorResponseSchema } as const;
const transferAnswer = { type: 'object', required: ['transfer'], properties: { transfer: transferSchema } } as const;

export function registerCloudRoutes(app: FastifyInstance, ctx: ServerPluginContext, offsite: OffsiteCopies): void {
  const starterOf = async (request: FastifyRequest): Promise<Starter> => {
    const user = await ctx.auth.currentUser(request);
    return { username: user?.username ?? null, userId: user?.id ?? null, request };
  };
  const isRoot = async (request: FastifyRequest): Promise<boolean> => {
    const user = await ctx.auth.currentUser(request);
    return user !== null && hasPermission(await ctx.auth.userPermissions(user.id), ROOT);
  };

  app.get('/admin/cloud-backups', { config: { permission: 'admin.cloud.view' }, schema: { response: { 200: statusSchema, ...errorResponses } } }, async (request) =>
    offsite.status(await isRoot(request)),
  );

  app.get<{ Params: { id: string } }>(
    '/admin/cloud-backups/transfers/:id',
    { config: { permission: 'admin.cloud.view' }, schema: { params: transferParams, response: { 200: transferAnswer, ...errorResponses } } },
    async (request) => {
      const transfer = offsite.transfers.get(request.params.id);
      if (!transfer) throw ctx.httpError(404, 'CLOUD_TRANSFER_NOT_FOUND', 'There is no such transfer (the panel keeps the last ones only).');
      return { transfer };
    },
  );

  app.post<{ Body: { name: string } }>(
    '/admin/cloud-backups/uploads',
    { config: { permission: 'admin.cloud.upload' }, schema: { body: nameBody, response: { 202: transferAnswer, ...bucketErrors } } },
    async (request, reply) => reply.code(202).send({ transfer: await offsite.startUpload(request.body.name, await starterOf(request)) }),
  );

  app.post<{ Body: { name: string } }>(
    '/admin/cloud-backups/downloads',
    { config: { permission: 'admin.cloud.download' }, schema: { body: nameBody, response: { 202: transferAnswer, ...bucketErrors } } },
    async (request, reply) => reply.code(202).send({ transfer: await offsite.startDownload(request.body.name, await starterOf(request)) }),
  );

  app.delete<{ Params: { name: string } }>(
    '/admin/cloud-backups/remote/:name',
    { config: { permission: ROOT }, schema: { params: nameParams, response: { 200: successSchema, ...bucketErrors } } },
    async (request) => {
      const { name } = request.params;
      if (!(await offsite.removeRemote(name))) throw ctx.httpError(404, 'CLOUD_ARCHIVE_NOT_FOUND', 'There is no such backup off-site.');
      await ctx.audit.record(request, { action: 'admin.cloud.delete', details: { name } });
      return { success: true };
    },
  );

  app.put<{ Body: CloudSettingsInput }>(
    '/admin/cloud-backups/settings',
    { config: { permission: ROOT }, schema: { body: settingsBody, response: { 200: statusSchema, ...errorResponses } } },
    async (request) => {
      const saved = await saveCloudSettings(ctx, request.body);
      const { endpoint, region, bucket, prefix, force_path_style, auto_upload, keep } = request.body;
      // the secret never reaches the log, only whether it changed
      await ctx.audit.record(request, {
        action: 'admin.cloud.settings_update',
        details: { configured: saved.configured, endpoint, region, bucket, prefix, force_path_style, auto_upload, keep, secret_changed: saved.secretChanged },
      });
      return offsite.status(true);
    },
  );

  app.post<{ Body: CloudSettingsInput }>(
    '/admin/cloud-backups/test',
    { config: { permission: ROOT }, schema: { body: settingsBody, response: { 200: testAnswer, ...bucketErrors } } },
    async (request) => {
      if (request.body.bucket.trim() === '') throw ctx.httpError(400, 'VALIDATION_ERROR', 'Name the bucket to test.', 'bucket');
      return offsite.testConnection(await optionsFromForm(ctx, request.body));
    },
  );
}
