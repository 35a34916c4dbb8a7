// The create and edit form of a mail template: name, subject, description, the HTML and text bodies,
// and the ${placeholders} they use. A protected (seeded) template keeps its name: the panel sends it
// by that name, so the field is read-only and says why.
import { Alert, Badge, Button, Card, Form, Grid, TextArea, TextField, theme, useTranslation } from '@orepanel/sdk';
import { useState, type ReactNode } from 'react';
import { checkMailTemplateForm, EMPTY_MAIL_TEMPLATE, mailTemplateChanges, placeholdersIn, type MailTemplateFormProblems, type MailTemplateFormValues } from './mail-template-form';

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
  const { t } = useTranslation('admin');
  const [values, setValues] = useState<MailTemplateFormValues>(initial ?? EMPTY_MAIL_TEMPLATE);
  const [problems, setProblems] = useState<MailTemplateFormProblems>({});
  const [unchanged, setUnchanged] = useState(false);
  const set = (field: keyof MailTemplateFormValues) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    onValuesChange?.(next);
    setProblems((p) => ({ ...p, [field]: undefined }));
    setUnchanged(false);
  };
  const problem = (field: keyof MailTemplateFormValues) => (problems[field] ? t(problems[field]!) : undefined);
  const used = placeholdersIn(values);

  async function submit() {
    const found = checkMailTemplateForm(values);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const changes = mailTemplateChanges(initial, values);
    if (protectedName) delete changes.name;
    if (Object.keys(changes).length === 0) {
      setUnchanged(true);
      return;
    }
    await onSubmit(changes);
  }

  return (
    <div css={{ display: 'grid', gap: 16, gridTemplateColumns: aside ? 'repeat(auto-fit, minmax(min(100%, 420px), 1fr))' : '1fr', alignItems: 'start' }}>
      <Card>
        <Form onSubmit={submit} aria-label={submitText} noValidate>
          {unchanged && (
            <Alert tone="info" onClose={() => setUnchanged(false)}>
              {t('userEdit.nothingChanged')}
            </Alert>
          )}
          <Grid min={220} gap={16} css={{ alignItems: 'start' }}>
            <TextField
              label={t('mailTemplates.form.name')}
              name="name"
              value={values.name}
              onChange={set('name')}
              error={problem('name')}
              hint={protectedName ? t('mailTemplates.form.nameProtected') : t('mailTemplates.form.nameHint')}
              readOnly={protectedName}
              maxLength={64}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
            />
            <TextField
              label={t('mailTemplates.form.subject')}
              name="subject"
              value={values.subject}
              onChange={set('subject')}
              error={problem('subject')}
              maxLength={255}
              autoComplete="off"
            />
          </Grid>
          <TextField
            label={t('mailTemplates.form.description')}
            name="description"
            value={values.description}
            onChange={set('description')}
            error={problem('description')}
            maxLength={255}
            autoComplete="off"
          />
          <TextArea label={t('mailTemplates.form.html')} name="html" value={values.html} onChange={set('html')} error={problem('html')} rows={14} code spellCheck={false} />
          <TextArea
            label={t('mailTemplates.form.text')}
            name="text"
            value={values.text}
            onChange={set('text')}
            error={problem('text')}
            hint={t('mailTemplates.form.textHint')}
            rows={8}
            code
            spellCheck={false}
          />
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
