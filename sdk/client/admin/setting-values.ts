// Settings as form drafts: every input holds text (or a checkbox's boolean); the checks mirror the
// server's settingValueProblem (it stays the authority); only changed values are sent, typed.
import type { SdkTextKey } from '../sdk-texts';
import type { PlainSettingValue, SettingDescriptor } from './admin-api';

export type Draft = string | boolean;
export type Drafts = Record<string, Draft>;

/** A problem as an sdk text key and its values. */
export interface SettingProblem {
  key: SdkTextKey;
  values?: Record<string, string | number>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The draft an input starts with. A secret always starts empty: its value never reaches the browser. */
export function initialDraft(setting: SettingDescriptor): Draft {
  if (setting.secret) return '';
  const value = setting.value as PlainSettingValue;
  if (setting.type === 'boolean') return value === true;
  return value === null || value === undefined ? '' : String(value);
}

export function initialDrafts(settings: readonly SettingDescriptor[]): Drafts {
  return Object.fromEntries(settings.map((s) => [s.key, initialDraft(s)]));
}

/** True when a secret's field was left empty: "keep the stored value". */
function keepsSecret(setting: SettingDescriptor, draft: Draft): boolean {
  return setting.secret && draft === '';
}

export function settingProblem(setting: SettingDescriptor, draft: Draft): SettingProblem | null {
  if (keepsSecret(setting, draft)) return null;
  switch (setting.type) {
    case 'boolean':
      return typeof draft === 'boolean' ? null : { key: 'settingBoolean' };
    case 'number': {
      const text = String(draft).trim();
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) return { key: 'settingNumber' };
      if (setting.min !== undefined && n < setting.min) return { key: 'settingMin', values: { min: setting.min } };
      if (setting.max !== undefined && n > setting.max) return { key: 'settingMax', values: { max: setting.max } };
      return null;
    }
    case 'select':
      return (setting.options ?? []).includes(String(draft)) ? null : { key: 'settingOption' };
    case 'url': {
      const text = String(draft).trim();
      if (text === '') return null;
      try {
        const url = new URL(text);
        return url.protocol === 'http:' || url.protocol === 'https:' ? null : { key: 'settingUrl' };
      } catch {
        return { key: 'settingUrl' };
      }
    }
    case 'email': {
      const text = String(draft).trim();
      return text === '' || EMAIL.test(text) ? null : { key: 'settingEmail' };
    }
    default:
      if (setting.max !== undefined && String(draft).length > setting.max) return { key: 'settingMaxLength', values: { max: setting.max } };
      return null;
  }
}

/** The typed value a draft stands for. */
export function settingValue(setting: SettingDescriptor, draft: Draft): PlainSettingValue {
  if (setting.type === 'boolean') return draft === true;
  if (setting.type === 'number') return Number(String(draft).trim());
  if (setting.type === 'url' || setting.type === 'email') return String(draft).trim();
  return String(draft);
}

/** The values to PATCH: changed ones only; a secret only when a new value was typed. */
export function changedValues(settings: readonly SettingDescriptor[], drafts: Drafts): Record<string, PlainSettingValue> {
  const out: Record<string, PlainSettingValue> = {};
  for (const setting of settings) {
    const draft = drafts[setting.key];
    if (draft === undefined || keepsSecret(setting, draft)) continue;
    const value = settingValue(setting, draft);
    if (setting.secret || value !== (setting.value as PlainSettingValue)) out[setting.key] = value;
  }
  return out;
}
