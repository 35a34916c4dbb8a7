// The form over a set of settings (the core's, grouped in tabs; or one plugin's): typed inputs,
// checks before sending, only changed values PATCHed as { values }, the server's field errors on the
// field they name. Without the edit permission the inputs are read-only and there is no save button.
import { useMemo, useState, type ReactNode } from 'react';
import { dialogs } from '../dialogs';
import { useEditForm } from '../edit-form';
import { ApiError } from '../http';
import { useSdkText } from '../i18n';
import { Button } from '../ui/Button';
import { Alert } from '../ui/feedback';
import { Form } from '../ui/form';
import { Card } from '../ui/layout';
import { Tabs } from '../ui/tabs';
import { theme } from '../ui/theme';
import { UnchangedNote } from '../ui/unchanged-note';
import type { PlainSettingValue, SettingDescriptor } from './admin-api';
import { SaveBar } from './save-bar';
import { SettingField } from './setting-field';
import { changedValues, initialDrafts, settingProblem, type Drafts } from './setting-values';

export interface SettingsSection {
  id: string;
  label: string;
  settings: SettingDescriptor[];
}

export interface SettingsFormProps {
  sections: readonly SettingsSection[];
  /** sends the changed values; resolves with the sections as saved */
  onSave(values: Record<string, PlainSettingValue>): Promise<void>;
  mayEdit: boolean;
  /** the form's accessible name */
  label: string;
  /** the tab shown, kept by the page so a save (which renews the form) stays on it */
  activeSection?: string;
  onSectionChange?(id: string): void;
  /** shown under a section's fields (the Pterodactyl group's connection test); `unsaved`: the form has changes */
  sectionExtra?(id: string, unsaved: boolean): ReactNode;
}

export function SettingsForm({ sections, onSave, mayEdit, label, activeSection, onSectionChange, sectionExtra }: SettingsFormProps) {
  const t = useSdkText();
  const all = useMemo(() => sections.flatMap((s) => s.settings), [sections]);
  const [ownActive, setOwnActive] = useState(sections[0]?.id ?? '');
  const active = activeSection ?? ownActive;
  const setActive = (id: string) => {
    setOwnActive(id);
    onSectionChange?.(id);
  };
  const sectionOf = (key: string) => sections.find((s) => s.settings.some((x) => x.key === key))?.id;
  const form = useEditForm({
    initial: initialDrafts(all),
    check: (drafts: Drafts) => {
      const found: Record<string, string> = {};
      for (const setting of all) {
        const problem = settingProblem(setting, drafts[setting.key] ?? '');
        if (problem) found[setting.key] = t(problem.key, problem.values);
      }
      return found;
    },
    // the first refused key's tab comes to the front
    onInvalid: (found) => setActive(sectionOf(Object.keys(found)[0] ?? '') ?? active),
    changes: (drafts: Drafts) => changedValues(all, drafts),
    submit: async (values: Record<string, PlainSettingValue>) => {
      try {
        await onSave(values);
      } catch (error) {
        // the server names the key it refused: show that key's tab, the Form puts the message on it
        if (error instanceof ApiError && error.field) setActive(sectionOf(error.field) ?? active);
        throw error;
      }
      void dialogs.toast(t('settingsSaved'));
    },
  });
  const { values: drafts, pending } = form;

  const panel = (section: SettingsSection): ReactNode => (
    <Card>
      <div css={{ display: 'grid', gap: 18, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 320px), 1fr))', alignItems: 'start' }}>
        {section.settings.map((setting) => (
          <div key={setting.key} css={setting.type === 'text' ? { gridColumn: '1 / -1' } : undefined}>
            <SettingField setting={setting} draft={drafts[setting.key] ?? ''} onChange={form.set(setting.key)} error={form.problem(setting.key)} disabled={!mayEdit} />
          </div>
        ))}
      </div>
      {sectionExtra?.(section.id, pending > 0)}
    </Card>
  );

  return (
    <Form onSubmit={form.submit} aria-label={label} noValidate>
      {!mayEdit && <Alert tone="info">{t('settingsReadOnly')}</Alert>}
      <UnchangedNote form={form}>{t('settingsNothingChanged')}</UnchangedNote>
      {sections.length > 1 ? (
        <Tabs label={label} items={sections.map((s) => ({ id: s.id, label: s.label, content: panel(s) }))} active={active} onChange={setActive} />
      ) : (
        sections[0] && panel(sections[0])
      )}
      {mayEdit && (
        <SaveBar>
          <Button type="submit">{t('settingsSave')}</Button>
          <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }} aria-live="polite">
            {pending > 0 ? t('settingsPending', { pending }) : t('settingsNoPending')}
          </span>
        </SaveBar>
      )}
    </Form>
  );
}
