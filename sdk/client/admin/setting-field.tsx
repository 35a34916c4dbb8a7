// One setting's input, chosen by its declared type. A secret is write-only: the field starts empty,
// says whether a value is stored, and a value typed into it replaces the stored one. A root-only
// setting is marked, and read-only with the reason to an administrator who is not root.
import type { ReactNode } from 'react';
import { useSdkText } from '../i18n';
import { Badge } from '../ui/feedback';
import { Checkbox, PasswordField, Select, TextArea, TextField } from '../ui/form';
import { theme } from '../ui/theme';
import type { SettingDescriptor } from './admin-api';
import type { Draft } from './setting-values';

export interface SettingFieldProps {
  setting: SettingDescriptor;
  draft: Draft;
  onChange(draft: Draft): void;
  error?: string;
  disabled?: boolean;
}

function Label({ setting, extra }: { setting: SettingDescriptor; extra?: ReactNode }) {
  const t = useSdkText();
  return (
    <span css={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: '2px 8px' }}>
      <span>{setting.label}</span>
      <code css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.xs, color: theme.colors.subtle, fontWeight: 400 }}>{setting.key}</code>
      {extra}
      {setting.root_only && <Badge tone="warning">{t('settingRootOnlyBadge')}</Badge>}
    </span>
  );
}

/** custom_css / custom_js: code, shown in a code editor */
const isCode = (setting: SettingDescriptor) => /_(css|js)$/.test(setting.key);

export function SettingField({ setting, draft, onChange, error, disabled: withoutPermission }: SettingFieldProps) {
  const t = useSdkText();
  const text = typeof draft === 'string' ? draft : '';
  // the edit permission is the form's to explain; a root-only lock is this field's
  const rootLocked = !withoutPermission && setting.editable === false;
  const disabled = withoutPermission || rootLocked;
  const lockReason = rootLocked ? t(isCode(setting) ? 'settingRootOnlyCode' : 'settingRootOnlyAddress') : undefined;
  const hint =
    lockReason ??
    (setting.secret || setting.default === null || setting.default === '' || setting.type === 'boolean' ? undefined : t('settingDefault', { value: String(setting.default) }));

  if (setting.secret) {
    const stored = typeof setting.value === 'object' && setting.value !== null && setting.value.set;
    return (
      <PasswordField
        label={<Label setting={setting} extra={<Badge tone={stored ? 'success' : 'neutral'}>{stored ? t('settingSecretSet') : t('settingSecretNotSet')}</Badge>} />}
        name={setting.key}
        value={text}
        onChange={(value) => onChange(value)}
        placeholder={stored ? t('settingSecretReplace') : t('settingSecretEnter')}
        hint={lockReason ?? t('settingSecretHint')}
        autoComplete="new-password"
        error={error}
        disabled={disabled}
      />
    );
  }
  switch (setting.type) {
    case 'boolean':
      return (
        <Checkbox label={<Label setting={setting} />} name={setting.key} checked={draft === true} onChange={(on) => onChange(on)} hint={hint} error={error} disabled={disabled} />
      );
    case 'select':
      return (
        <Select
          label={<Label setting={setting} />}
          name={setting.key}
          value={text}
          onChange={(value) => onChange(value)}
          options={(setting.options ?? []).map((o) => ({ value: o, label: o }))}
          error={error}
          hint={hint}
          disabled={disabled}
        />
      );
    case 'text':
      return (
        <TextArea
          label={<Label setting={setting} />}
          name={setting.key}
          value={text}
          onChange={(value) => onChange(value)}
          code={isCode(setting)}
          rows={isCode(setting) ? 8 : 3}
          error={error}
          hint={hint}
          disabled={disabled}
          spellCheck={!isCode(setting)}
        />
      );
    default:
      return (
        <TextField
          label={<Label setting={setting} />}
          name={setting.key}
          type={setting.type === 'number' ? 'number' : setting.type === 'url' ? 'url' : setting.type === 'email' ? 'email' : 'text'}
          inputMode={setting.type === 'number' ? 'decimal' : undefined}
          min={setting.type === 'number' ? setting.min : undefined}
          max={setting.type === 'number' ? setting.max : undefined}
          maxLength={setting.type !== 'number' ? setting.max : undefined}
          value={text}
          onChange={(value) => onChange(value)}
          error={error}
          hint={hint}
          disabled={disabled}
          autoComplete="off"
        />
      );
  }
}
