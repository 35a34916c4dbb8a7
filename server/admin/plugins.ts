// /api/admin/plugins: every plugin the host found (loaded or refused, with the reason), enabling
// and disabling without a restart (the host's own switch: routes answer 404 and the manifest is no
// longer served; a third-party plugin's code first runs when it is enabled, and a failed start
// answers 409 PLUGIN_START_FAILED and is listed as failed_reason), and the settings a plugin
// declares (/mc-admin/plugins/{identifier}/config) except its panel-wide ones (on the settings screen).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dataListSchema, httpError, type SettingValue } from '../../sdk/server';
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
  },
} as const;

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
