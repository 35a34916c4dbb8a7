// /api/admin/plugins: every plugin the host found (loaded or refused, with the reason), enabling
// and disabling without a restart (the host's own switch: routes answer 404 and the manifest is no
// longer served; a third-party plugin's code first runs when it is enabled, and a failed start
// answers 409 PLUGIN_START_FAILED and is listed as failed_reason), and the settings a plugin
// declares (/mc-admin/plugins/{identifier}/config) except its panel-wide ones (on the settings screen).
//
// Third-party plugins are installed, updated and removed here with no restart (plugins/host.ts):
//   POST /plugins/install      the built archive as the body (application/gzip): admin.root, it installs code
//   POST /plugins/rescan       takes the folders that appeared in DATA_DIR/plugins since start (disabled)
//   POST /plugins/:id/remove   { drop_tables }: a disabled third-party plugin, its tables kept or dropped (admin.root)
// A plugin's listing says what it asks for (permissions, settings, pages, tables, server part) so an
// administrator reads it before enabling it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_PLUGIN_ARCHIVE_BYTES } from '../plugins/plugin-archive';
import { dataListSchema, httpError, type SettingValue } from '../../sdk/server';
import type { PluginManifest } from '../../sdk/types';
import { onSettingsScreen } from '../settings/groups';
import type { AdminServices } from './admin-context';
import { errorResponses, pluginIdParams } from './schemas';
import { applySettings, describeSetting, settingSchema, settingsCallerOf, settingsPatchBody } from './settings';

const pluginSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    version: { type: 'string' },
    origin: { type: 'string' },
    core: { type: 'boolean' },
    state: { type: 'string', enum: ['enabled', 'disabled', 'inactive', 'refused'] },
    enabled: { type: 'boolean' },
    active: { type: 'boolean' },
    refused_reason: { type: ['string', 'null'] },
    /** why its server part could not be started when it was last enabled (it stayed disabled) */
    failed_reason: { type: ['string', 'null'] },
    requires: { type: 'array', items: { type: 'string' } },
    permissions: { type: 'array', items: { type: 'string' } },
    settings: { type: 'array', items: settingSchema },
    /** what it asks for, from its plugin.json: read before enabling it */
    asks: {
      type: 'object',
      properties: {
        permissions: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, description: { type: 'string' } } } },
        settings: { type: 'array', items: { type: 'string' } },
        pages: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, permission: { type: ['string', 'null'] } } } },
        tables: { type: 'array', items: { type: 'string' } },
        server: { type: 'boolean' },
      },
    },
    /** a third-party plugin: an administrator can remove it (once disabled) */
    removable: { type: 'boolean' },
  },
} as const;

const installAnswer = {
  type: 'object',
  required: ['plugin', 'action'],
  properties: { plugin: pluginSchema, action: { type: 'string', enum: ['installed', 'updated'] }, previous_version: { type: ['string', 'null'] } },
} as const;
const rescanAnswer = {
  type: 'object',
  required: ['added', 'refused'],
  properties: {
    added: { type: 'array', items: { type: 'string' } },
    refused: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, reason: { type: 'string' } } } },
  },
} as const;
const removeBody = { type: 'object', required: ['drop_tables'], properties: { drop_tables: { type: 'boolean' } } } as const;
const removeAnswer = {
  type: 'object',
  required: ['id', 'dropped_tables'],
  properties: { id: { type: 'string' }, dropped_tables: { type: 'array', items: { type: 'string' } } },
} as const;

/** The content types an uploaded plugin archive may be sent as (a .tgz; browsers often say octet-stream). */
const ARCHIVE_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];
const SEND_ARCHIVE = `Send the built plugin archive (.tgz, from orepanel plugin build --pack) as the body, with Content-Type ${ARCHIVE_TYPES[0]}.`;

/** What a plugin's manifest asks for, for the administrator to read before enabling it. */
function asksOf(manifest: PluginManifest | null) {
  return {
    permissions: (manifest?.permissions ?? []).map((p) => ({ name: p.name, description: p.description ?? '' })),
    settings: (manifest?.settings ?? []).map((s) => s.key),
    pages: (manifest?.routes ?? []).map((r) => ({ path: r.path, permission: r.permission ?? null })),
    tables: manifest?.tables ?? [],
    server: manifest?.server === true,
  };
}

const onePlugin = { type: 'object', required: ['plugin'], properties: { plugin: pluginSchema } } as const;
const configAnswer = { type: 'object', required: ['id', 'settings'], properties: { id: { type: 'string' }, settings: { type: 'array', items: settingSchema } } } as const;

export function registerAdminPlugins(app: FastifyInstance, services: AdminServices): void {
  const { plugins, settings, audit, sessions } = services;
  // a plugin's panel-wide settings (declared with a group) are on the settings screen instead
  const ownSettings = (id: string) => settings.declaredBy(id).filter((def) => !onSettingsScreen(id, def));
  const describeConfig = async (request: FastifyRequest, id: string) => {
    const caller = await settingsCallerOf(sessions, request, 'admin.plugins.edit');
    return { id, settings: await Promise.all(ownSettings(id).map((def) => describeSetting(settings, def, caller))) };
  };

  const describeLoaded = async (id: string) => {
    const p = plugins.get(id)!;
    const m = p.manifest;
    const enabled = plugins.isEnabled(id);
    const active = plugins.isActive(id);
    return {
      id,
      name: m.name,
      description: m.description ?? '',
      version: m.version,
      origin: p.origin,
      core: m.core === true,
      // inactive: enabled, but a plugin it requires is off
      state: active ? 'enabled' : enabled ? 'inactive' : 'disabled',
      enabled,
      active,
      refused_reason: null,
      failed_reason: plugins.failureOf(id),
      requires: m.requires ?? [],
      permissions: (m.permissions ?? []).map((x) => x.name),
      settings: await Promise.all((m.settings ?? []).filter((def) => !onSettingsScreen(id, def)).map((def) => describeSetting(settings, def))),
      asks: asksOf(m),
      removable: p.origin === 'third-party',
    };
  };

  const describeAll = async () => {
    const loaded = await Promise.all(plugins.list().map((p) => describeLoaded(p.manifest.id)));
    const refused = plugins.refused.map((r) => ({
      id: r.id,
      name: r.manifest?.name ?? r.id,
      description: r.manifest?.description ?? '',
      version: r.manifest?.version ?? '',
      origin: r.origin,
      core: r.manifest?.core === true,
      state: 'refused',
      enabled: false,
      active: false,
      refused_reason: r.reason,
      failed_reason: null,
      requires: r.manifest?.requires ?? [],
      permissions: (r.manifest?.permissions ?? []).map((x) => x.name),
      settings: [],
      asks: asksOf(r.manifest),
      removable: r.origin === 'third-party',
    }));
    return [...loaded, ...refused];
  };

  const requireLoaded = (id: string) => {
    if (plugins.get(id)) return;
    const refused = plugins.refused.find((r) => r.id === id);
    if (refused) throw httpError(409, 'PLUGIN_REFUSED', `Plugin "${id}" was refused: ${refused.reason}.`);
    throw httpError(404, 'PLUGIN_NOT_FOUND', `There is no plugin "${id}".`);
  };

  app.get(
    '/plugins',
    {
      config: { permission: 'admin.plugins.list' },
      schema: { response: { 200: dataListSchema(pluginSchema), ...errorResponses } },
    },
    async () => ({ data: await describeAll() }),
  );

  app.get<{ Params: { id: string } }>(
    '/plugins/:id',
    { config: { permission: 'admin.plugins.list' }, schema: { params: pluginIdParams, response: { 200: onePlugin, ...errorResponses } } },
    async (request) => {
      const found = (await describeAll()).find((p) => p.id === request.params.id);
      if (!found) throw httpError(404, 'PLUGIN_NOT_FOUND', `There is no plugin "${request.params.id}".`);
      return { plugin: found };
    },
  );

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post<{ Params: { id: string } }>(
      `/plugins/:id/${action}`,
      { config: { permission: 'admin.plugins.edit' }, schema: { params: pluginIdParams, response: { 200: onePlugin, ...errorResponses } } },
      async (request) => {
        const { id } = request.params;
        // the host refuses unknown, refused and core plugins with its own 404/409 answers
        await plugins.setEnabled(id, enabled);
        await audit.record(request, { action: `admin.plugin.${action}`, details: { plugin: id } });
        return { plugin: await describeLoaded(id) };
      },
    );
  }

  // the archive is the body: a parser for it in this scope only, with its own size limit (the app's is 1 MB)
  const archives = new WeakMap<FastifyRequest, Buffer>();
  app.register(async (scope) => {
    // the archive and nothing else: a JSON body here is a mistake worth naming (415), not an empty request
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(ARCHIVE_TYPES, { parseAs: 'buffer', bodyLimit: MAX_PLUGIN_ARCHIVE_BYTES }, (request, body, done) => {
      // kept beside the request: the input policy's "no body" rule holds for every other body
      archives.set(request, body as Buffer);
      done(null, undefined);
    });
    scope.addContentTypeParser('*', (_request, _payload, done) => done(httpError(415, 'UNSUPPORTED_MEDIA_TYPE', SEND_ARCHIVE), undefined));
    scope.post('/plugins/install', { config: { permission: 'admin.root' }, schema: { response: { 201: installAnswer, ...errorResponses } } }, async (request, reply) => {
      const archive = archives.get(request);
      if (!archive) throw httpError(415, 'UNSUPPORTED_MEDIA_TYPE', SEND_ARCHIVE);
      const installed = await plugins.installPlugin(archive);
      await audit.record(request, {
        action: installed.action === 'installed' ? 'admin.plugin.install' : 'admin.plugin.update',
        details: { plugin: installed.id, version: installed.version, previous_version: installed.previousVersion },
      });
      return reply.code(201).send({ plugin: await describeLoaded(installed.id), action: installed.action, previous_version: installed.previousVersion });
    });
  });

  app.post('/plugins/rescan', { config: { permission: 'admin.plugins.edit' }, schema: { response: { 200: rescanAnswer, ...errorResponses } } }, async (request) => {
    const found = await plugins.rescan();
    await audit.record(request, { action: 'admin.plugin.rescan', details: { added: found.added.join(', '), refused: found.refused.map((r) => r.id).join(', ') } });
    return { added: found.added, refused: found.refused.map((r) => ({ id: r.id, reason: r.reason })) };
  });

  app.post<{ Params: { id: string }; Body: { drop_tables: boolean } }>(
    '/plugins/:id/remove',
    { config: { permission: 'admin.root' }, schema: { params: pluginIdParams, body: removeBody, response: { 200: removeAnswer, ...errorResponses } } },
    async (request) => {
      const removed = await plugins.removePlugin(request.params.id, request.body.drop_tables);
      await audit.record(request, {
        action: 'admin.plugin.remove',
        details: { plugin: removed.id, drop_tables: request.body.drop_tables, dropped_tables: removed.droppedTables.join(', ') },
      });
      return { id: removed.id, dropped_tables: removed.droppedTables };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/plugins/:id/config',
    { config: { permission: 'admin.plugins.edit' }, schema: { params: pluginIdParams, response: { 200: configAnswer, ...errorResponses } } },
    async (request) => {
      const { id } = request.params;
      requireLoaded(id);
      return describeConfig(request, id);
    },
  );

  app.patch<{ Params: { id: string }; Body: { values: Record<string, SettingValue> } }>(
    '/plugins/:id/config',
    { config: { permission: 'admin.plugins.edit' }, schema: { params: pluginIdParams, body: settingsPatchBody, response: { 200: configAnswer, ...errorResponses } } },
    async (request) => {
      const { id } = request.params;
      requireLoaded(id);
      const own = new Set(ownSettings(id).map((def) => def.key));
      const keys = await applySettings(settings, request.body.values, (key) => own.has(key), await settingsCallerOf(sessions, request, 'admin.plugins.edit'));
      const details: Record<string, string | number | boolean | null> = { plugin: id };
      for (const key of keys) details[key] = settings.definition(key)?.secret ? '(secret changed)' : request.body.values[key];
      await audit.record(request, { action: 'admin.plugin.config', details });
      return describeConfig(request, id);
    },
  );
}
