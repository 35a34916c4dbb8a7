// /api/admin/settings: every core setting with its type, grouped; secrets are write-only (answered
// as { set: true|false }, never their value). PATCH validates every value against its key's type
// before writing any, so a refused request changes nothing. Plugins' own settings are edited
// through /api/admin/plugins/:id/config.
import type { FastifyInstance } from 'fastify';
import { httpError, type SettingValue } from '../../sdk/server';
import type { ManifestSetting } from '../../sdk/types';
import { groupOfSetting, SETTING_GROUPS } from '../settings/groups';
import { settingValueProblem, type SettingsStore } from '../settings/store';
import type { AdminServices } from './admin-context';
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
    updated_at: { type: ['string', 'null'] },
  },
} as const;

/** The admin view of one setting: its declaration and value (a secret's value never leaves). */
export async function describeSetting(store: SettingsStore, def: ManifestSetting) {
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
 * Checks every value first, then writes them: a refused request changes nothing. `owns` says
 * whether a key may be written through this route.
 */
export async function applySettings(store: SettingsStore, values: Record<string, SettingValue>, owns: (key: string) => boolean): Promise<string[]> {
  const keys = Object.keys(values);
  for (const key of keys) {
    const def = store.definition(key);
    if (!def || !owns(key)) throw httpError(400, 'UNKNOWN_SETTING', `"${key}" is not a setting that can be changed here.`, key);
    const problem = settingValueProblem(def, values[key]);
    if (problem) throw httpError(400, 'VALIDATION_ERROR', `${key} ${problem}.`, key);
  }
  for (const key of keys) await store.set(key, values[key]);
  return keys;
}

export function registerAdminSettings(app: FastifyInstance, services: AdminServices): void {
  const { settings, audit } = services;
  const isCore = (key: string) => settings.ownerOf(key) === 'core';

  const view = async () => {
    const groups = SETTING_GROUPS.map((g) => ({ ...g, settings: [] as Awaited<ReturnType<typeof describeSetting>>[] }));
    for (const def of settings.declaredBy('core')) {
      const group = groups.find((g) => g.id === groupOfSetting(def.key, def.type))!;
      group.settings.push(await describeSetting(settings, def));
    }
    return { groups: groups.filter((g) => g.settings.length > 0) };
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

  app.get('/settings', { config: { permission: 'admin.settings.view' }, schema: { response: { 200: groupsAnswer, ...errorResponses } } }, view);

  app.patch<{ Body: { values: Record<string, SettingValue> } }>(
    '/settings',
    { config: { permission: 'admin.settings.edit' }, schema: { body: settingsPatchBody, response: { 200: groupsAnswer, ...errorResponses } } },
    async (request) => {
      const keys = await applySettings(settings, request.body.values, isCore);
      // secret values never reach the log; the other values do, so a change can be traced
      const details: Record<string, string | number | boolean | null> = {};
      for (const key of keys) details[key] = settings.definition(key)?.secret ? '(secret changed)' : request.body.values[key];
      await audit.record(request, { action: 'admin.settings.update', details });
      return view();
    },
  );
}
