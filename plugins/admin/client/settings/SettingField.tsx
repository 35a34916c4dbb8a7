// One setting's input, chosen by its declared type. A secret is write-only: the field starts empty,
// says whether a value is stored, and a value typed into it replaces the stored one.
import { Badge, Checkbox, PasswordField, Select, TextArea, TextField, theme, useTranslation } from '@orepanel/sdk';
import type { ReactNode } from 'react';
import type { SettingDescriptor } from '../admin-api';
import type { Draft } from './setting-values';

export interface SettingFieldProps {
  setting: SettingDescriptor;
  draft: Draft;
  onChange(draft: Draft): void;
  error?: string;
  disabled?: boolean;
}

function Label({ setting, extra }: { setting: SettingDescriptor; extra?: ReactNode }) {
  return (
    <span css={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: '2px 8px' }}>
      <span>{setting.label}</span>
      <code css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.xs, color: theme.colors.subtle, fontWeight: 400 }}>{setting.key}</code>
      {extra}
    </span>
  );
}

export function SettingField({ setting, draft, onChange, error, disabled }: SettingFieldProps) {
  const { t } = useTranslation('admin');
  const text = typeof draft === 'string' ? draft : '';
  const defaultHint =
    setting.secret || setting.default === null || setting.default === '' || setting.type === 'boolean' ? undefined : t('settings.defaultValue', { value: String(setting.default) });

  if (setting.secret) {
    const stored = typeof setting.value === 'object' && setting.value !== null && setting.value.set;
    return (
      <PasswordField
        label={<Label setting={setting} extra={<Badge tone={stored ? 'success' : 'neutral'}>{stored ? t('settings.secretSet') : t('settings.secretNotSet')}</Badge>} />}
        name={setting.key}
        value={text}
        onChange={(value) => onChange(value)}
        placeholder={stored ? t('settings.secretReplace') : t('settings.secretEnter')}
        hint={t('settings.secretHint')}
        autoComplete="new-password"
        error={error}
        disabled={disabled}
      />
    );
  }
  switch (setting.type) {
    case 'boolean':
      return <Checkbox label={<Label setting={setting} />} name={setting.key} checked={draft === true} onChange={(on) => onChange(on)} error={error} disabled={disabled} />;
    case 'select':
      return (
        <Select
          label={<Label setting={setting} />}
          name={setting.key}
          value={text}
          onChange={(value) => onChange(value)}
          options={(setting.options ?? []).map((o) => ({ value: o, label: o }))}
          error={error}
          hint={defaultHint}
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
          code={/_(css|js)$/.test(setting.key)}
          rows={/_(css|js)$/.test(setting.key) ? 8 : 3}
          error={error}
          hint={defaultHint}
          disabled={disabled}
          spellCheck={!/_(css|js)$/.test(setting.key)}
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
          hint={defaultHint}
          disabled={disabled}
          autoComplete="off"
        />
      );
  }
}
