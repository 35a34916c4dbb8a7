// /api/admin/settings: every setting of the settings screen (the core's and the panel-wide ones
// plugins declare with a group, server/settings/groups.ts) with its type, grouped; secrets are
// write-only (answered as { set: true|false }, never their value). PATCH validates every value
// against its key's type before writing any, so a refused request changes nothing. Plugins' other
// settings are edited through /api/admin/plugins/:id/config. A setting declared `rootOnly` is changed only by holders
// of admin.root, whichever permission the route asks for: the listings say so per setting.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasPermission } from '../../sdk/manifest';
import { httpError, type SettingValue } from '../../sdk/server';
import { ROOT_PERMISSION, type ManifestSetting } from '../../sdk/types';
import type { SessionService } from '../auth/sessions';
import { onSettingsScreen, settingsScreen } from '../settings/groups';
import { settingValueProblem, type SettingsStore } from '../settings/store';
import { actorOf, type AdminServices } from './admin-context';
import { errorResponses } from './schemas';

const settingValue = { type: ['string', 'number', 'boolean', 'null'] } as const;

export const settingSchema = {
  type: 'object',
  properties: {
    key: { type: 'string' },
    type: { type: 'string' },
    label: { type: 'string' },
    // a secret answers { set } instead of its value
    value: { anyOf: [settingValue, { type: 'object', required: ['set'], properties: { set: { type: 'boolean' } } }] },
    default: settingValue,
    options: { type: 'array', items: { type: 'string' } },
    min: { type: 'number' },
    max: { type: 'number' },
    secret: { type: 'boolean' },
    public: { type: 'boolean' },
    root_only: { type: 'boolean' },
    // whether the caller may change it (absent where the answer is not about one caller's editing)
    editable: { type: 'boolean' },
    updated_at: { type: ['string', 'null'] },
  },
} as const;

/** Who is reading or changing settings: whether they hold the route's edit permission, and admin.root. */
export interface SettingsCaller {
  mayEdit: boolean;
  root: boolean;
}

export async function settingsCallerOf(sessions: SessionService, request: FastifyRequest, editPermission: string): Promise<SettingsCaller> {
  const { permissions } = await actorOf(sessions, request);
  return { mayEdit: hasPermission(permissions, editPermission), root: permissions.includes(ROOT_PERMISSION) };
}

const mayChange = (caller: SettingsCaller, def: ManifestSetting) => caller.mayEdit && (caller.root || def.rootOnly !== true);

/** The admin view of one setting: its declaration and value (a secret's value never leaves). */
export async function describeSetting(store: SettingsStore, def: ManifestSetting, caller?: SettingsCaller) {
  const entry = await store.getEntry(def.key);
  const secret = def.secret === true;
  return {
    key: def.key,
    type: def.type,
    label: def.label ?? def.key,
    value: secret ? { set: entry.value !== null && entry.value !== '' } : entry.value,
    default: secret ? null : def.default,
    ...(def.options ? { options: def.options } : {}),
    ...(def.min !== undefined ? { min: def.min } : {}),
    ...(def.max !== undefined ? { max: def.max } : {}),
    secret,
    public: def.public === true,
    root_only: def.rootOnly === true,
    ...(caller ? { editable: mayChange(caller, def) } : {}),
    updated_at: entry.updatedAt,
  };
}

export const settingsPatchBody = {
  type: 'object',
  required: ['values'],
  additionalProperties: false,
  properties: {
    // each value is checked against its key's declared type by applySettings (a 400 naming the key)
    values: { type: 'object', minProperties: 1, maxProperties: 200, additionalProperties: {}, propertyNames: { maxLength: 128 } },
  },
} as const;

/**
 * Checks every key and value first, then writes them: a refused request changes nothing. `owns`
 * says whether a key may be written through this route; `caller` passed the route's permission.
 */
export async function applySettings(store: SettingsStore, values: Record<string, SettingValue>, owns: (key: string) => boolean, caller: SettingsCaller): Promise<string[]> {
  const keys = Object.keys(values);
  const defs = keys.map((key) => {
    const def = store.definition(key);
    if (!def || !owns(key)) throw httpError(400, 'UNKNOWN_SETTING', `"${key}" is not a setting that can be changed here.`, key);
    if (!mayChange(caller, def)) {
      throw httpError(
        403,
        'ROOT_ONLY_SETTING',
        `Only a root administrator (admin.root) can change "${key}": it runs in every visitor's browser or decides where links, requests and secrets go.`,
        key,
      );
    }
    return def;
  });
  for (const [i, key] of keys.entries()) {
    const def = defs[i];
    const problem = settingValueProblem(def, values[key]);
    if (problem) throw httpError(400, 'VALIDATION_ERROR', `${key} ${problem}.`, key);
  }
  for (const key of keys) await store.set(key, values[key]);
  return keys;
}

export function registerAdminSettings(app: FastifyInstance, services: AdminServices): void {
  const { settings, plugins, audit, sessions } = services;
  const onScreen = (key: string) => {
    const owner = settings.ownerOf(key);
    const def = settings.definition(key);
    return owner !== undefined && def !== undefined && onSettingsScreen(owner, def);
  };
  const callerOf = (request: FastifyRequest) => settingsCallerOf(sessions, request, 'admin.settings.edit');

  const view = async (caller: SettingsCaller) => {
    const screen = settingsScreen(settings.declarations(), (id) => plugins.get(id)?.manifest.name ?? id);
    const groups = [];
    for (const { group, settings: defs } of screen) groups.push({ ...group, settings: await Promise.all(defs.map((def) => describeSetting(settings, def, caller))) });
    return { groups };
  };

  const groupsAnswer = {
    type: 'object',
    required: ['groups'],
    properties: {
      groups: {
        type: 'array',
        items: { type: 'object', properties: { id: { type: 'string' }, label: { type: 'string' }, settings: { type: 'array', items: settingSchema } } },
      },
    },
  } as const;

  app.get('/settings', { config: { permission: 'admin.settings.view' }, schema: { response: { 200: groupsAnswer, ...errorResponses } } }, async (request) =>
    view(await callerOf(request)),
  );

  app.patch<{ Body: { values: Record<string, SettingValue> } }>(
    '/settings',
    { config: { permission: 'admin.settings.edit' }, schema: { body: settingsPatchBody, response: { 200: groupsAnswer, ...errorResponses } } },
    async (request) => {
      const caller = await callerOf(request);
      const keys = await applySettings(settings, request.body.values, onScreen, caller);
      // secret values never reach the log; the other values do, so a change can be traced
      const details: Record<string, string | number | boolean | null> = {};
      for (const key of keys) details[key] = settings.definition(key)?.secret ? '(secret changed)' : request.body.values[key];
      await audit.record(request, { action: 'admin.settings.update', details });
      return view(caller);
    },
  );
}
