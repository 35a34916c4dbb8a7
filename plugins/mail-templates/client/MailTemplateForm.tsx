// The create and edit form of a mail template: name, subject, description, the HTML and text bodies,
// and the ${placeholders} they use. A protected (seeded) template keeps its name: the panel sends it
// by that name, so the field is read-only and says why.
import { Badge, Button, Card, Form, Grid, TextArea, TextField, theme, UnchangedNote, useEditForm, useTranslation } from '@orepanel/sdk';
import type { ReactNode } from 'react';
import { checkMailTemplateForm, EMPTY_MAIL_TEMPLATE, mailTemplateChanges, placeholdersIn, type MailTemplateFormValues } from './mail-template-form';

export interface MailTemplateFormProps {
  /** the template being edited; null for a new one */
  initial: MailTemplateFormValues | null;
  /** a seeded template: its name cannot change */
  protectedName?: boolean;
  /** sends the changed fields */
  onSubmit(changes: Partial<MailTemplateFormValues>): Promise<void>;
  submitText: string;
  /** follows the form's values (the preview renders unsaved edits) */
  onValuesChange?(values: MailTemplateFormValues): void;
  /** shown next to the form (the preview) */
  aside?: ReactNode;
}

export function MailTemplateForm({ initial, protectedName = false, onSubmit, submitText, onValuesChange, aside }: MailTemplateFormProps) {
  const { t } = useTranslation('mail-templates');
  const form = useEditForm({
    initial: initial ?? EMPTY_MAIL_TEMPLATE,
    check: checkMailTemplateForm,
    changes: (values: MailTemplateFormValues) => {
      const changes = mailTemplateChanges(initial, values);
      if (protectedName) delete changes.name;
      return changes;
    },
    submit: onSubmit,
    problemText: (problem) => t(problem),
    onValuesChange,
  });
  const { values } = form;
  const used = placeholdersIn(values);

  return (
    <div css={{ display: 'grid', gap: 16, gridTemplateColumns: aside ? 'repeat(auto-fit, minmax(min(100%, 420px), 1fr))' : '1fr', alignItems: 'start' }}>
      <Card>
        <Form onSubmit={form.submit} aria-label={submitText} noValidate>
          <UnchangedNote form={form}>{t('userEdit.nothingChanged')}</UnchangedNote>
          <Grid min={220} gap={16} css={{ alignItems: 'start' }}>
            <TextField
              label={t('mailTemplates.form.name')}
              {...form.field('name')}
              hint={protectedName ? t('mailTemplates.form.nameProtected') : t('mailTemplates.form.nameHint')}
              readOnly={protectedName}
              maxLength={64}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
            />
            <TextField label={t('mailTemplates.form.subject')} {...form.field('subject')} maxLength={255} autoComplete="off" />
          </Grid>
          <TextField label={t('mailTemplates.form.description')} {...form.field('description')} maxLength={255} autoComplete="off" />
          <TextArea label={t('mailTemplates.form.html')} {...form.field('html')} rows={14} code spellCheck={false} />
          <TextArea label={t('mailTemplates.form.text')} {...form.field('text')} hint={t('mailTemplates.form.textHint')} rows={8} code spellCheck={false} />
          <div>
            <div css={{ color: theme.colors.muted, fontSize: theme.font.size.sm, marginBottom: 6 }}>{t('mailTemplates.form.placeholders')}</div>
            {used.length === 0 ? (
              <span css={{ fontSize: theme.font.size.sm }}>{t('mailTemplates.form.noPlaceholders')}</span>
            ) : (
              <ul aria-label={t('mailTemplates.form.placeholders')} css={{ display: 'flex', flexWrap: 'wrap', gap: 6, listStyle: 'none', margin: 0, padding: 0 }}>
                {used.map((name) => (
                  <li key={name}>
                    <Badge tone="info">{`\${${name}}`}</Badge>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div>
            <Button type="submit">{submitText}</Button>
          </div>
        </Form>
      </Card>
      {aside}
    </div>
  );
}
