// spec §3 "Application settings": the cached copy grouped as the spec lists it — General, Company,
// Server defaults, Feature flags, Debug info (with the debug object) — and whatever else the panel's
// plugins publish, under Other.
import { SPEC_SETTINGS_GROUPS, type PublicSettings, type SpecSettingsGroupId, type SettingsDebugInfo } from '@orepanel/sdk';

export type SettingsGroupId = SpecSettingsGroupId | 'other';

/** A row of the Settings tab: the key, and its value (undefined: the copy does not have it). */
export interface SettingRow {
  key: string;
  value: string | number | boolean | null | undefined;
}

/** The settings in the spec's groups; keys the spec does not list go to `other`, sorted. */
export function groupSettings(settings: PublicSettings, debug: SettingsDebugInfo | null): { id: SettingsGroupId; rows: SettingRow[] }[] {
  const listed = new Set(SPEC_SETTINGS_GROUPS.flatMap((g) => g.keys));
  const groups: { id: SettingsGroupId; rows: SettingRow[] }[] = SPEC_SETTINGS_GROUPS.map((g) => ({ id: g.id, rows: g.keys.map((key) => ({ key, value: settings[key] })) }));
  const debugGroup = groups.find((g) => g.id === 'debug');
  debugGroup?.rows.push(
    { key: 'debug.useRedis', value: debug?.useRedis },
    { key: 'debug.rateLimit.enabled', value: debug?.rateLimit.enabled },
    { key: 'debug.rateLimit.limit', value: debug?.rateLimit.limit },
  );
  const other = Object.keys(settings)
    .filter((key) => !listed.has(key))
    .sort()
    .map((key) => ({ key, value: settings[key] }));
  if (other.length > 0) groups.push({ id: 'other', rows: other });
  return groups;
}
