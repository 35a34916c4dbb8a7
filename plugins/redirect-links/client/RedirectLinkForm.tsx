// The create and edit form of a redirect link: name, address (http or https only), icon and order,
// with the entry as the sidebar will show it.
import { Button, Card, Form, Grid, Icon, ICON_NAMES, isIconName, Select, TextField, theme, UnchangedNote, useEditForm, useTranslation } from '@orepanel/sdk';
import { useMemo } from 'react';
import {
  checkRedirectLinkForm,
  EMPTY_REDIRECT_LINK,
  formValuesOf,
  problemValues,
  redirectLinkChanges,
  type RedirectLinkBody,
  type RedirectLinkFormValues,
} from './redirect-link-form';
import type { RedirectLink } from './redirect-links-api';

export interface RedirectLinkFormProps {
  /** the link being edited; null for a new one */
  initial: RedirectLink | null;
  /** sends the changed fields (a new link: all of them) */
  onSubmit(changes: Partial<RedirectLinkBody>): Promise<void>;
  submitText: string;
}

export function RedirectLinkForm({ initial, onSubmit, submitText }: RedirectLinkFormProps) {
  const { t } = useTranslation('redirect-links');
  const form = useEditForm({
    initial: initial ? formValuesOf(initial) : EMPTY_REDIRECT_LINK,
    check: checkRedirectLinkForm,
    changes: (values: RedirectLinkFormValues) => redirectLinkChanges(initial, values),
    submit: onSubmit,
    problemText: (problem, field) => t(problem, problemValues(field)),
  });
  const { values, set, problem } = form;
  const iconOptions = useMemo(() => [{ value: '', label: t('redirectLinks.form.defaultIcon') }, ...ICON_NAMES.map((name) => ({ value: name, label: name }))], [t]);

  const previewIcon = values.icon !== '' && isIconName(values.icon) ? values.icon : 'link';
  return (
    <Card>
      <Form onSubmit={form.submit} aria-label={submitText} noValidate>
        <UnchangedNote form={form}>{t('userEdit.nothingChanged')}</UnchangedNote>
        <Grid min={240} gap={16} css={{ alignItems: 'start' }}>
          <TextField label={t('redirectLinks.form.name')} {...form.field('name')} hint={t('redirectLinks.form.nameHint')} maxLength={64} autoComplete="off" />
          <TextField
            label={t('redirectLinks.form.url')}
            {...form.field('url')}
            type="url"
            inputMode="url"
            hint={t('redirectLinks.form.urlHint')}
            placeholder="https://"
            maxLength={2048}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
          />
          <Select label={t('redirectLinks.form.icon')} name="icon" value={values.icon} onChange={set('icon')} options={iconOptions} error={problem('icon')} />
          <TextField label={t('redirectLinks.form.order')} {...form.field('order')} type="number" inputMode="numeric" step={1} hint={t('redirectLinks.form.orderHint')} />
        </Grid>
        <div>
          <div css={{ color: theme.colors.muted, fontSize: theme.font.size.sm, marginBottom: 6 }}>{t('redirectLinks.form.preview')}</div>
          <div
            data-testid="redirect-link-preview"
            css={{
              display: 'inline-flex',
              alignItems: 'center',
              gap: 10,
              padding: '8px 12px',
              borderRadius: theme.radii.md,
              background: theme.colors.surfaceHover,
              color: theme.colors.text,
              maxWidth: '100%',
            }}
          >
            <Icon name={previewIcon} size={18} />
            <span css={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{values.name.trim() || t('redirectLinks.form.previewEmpty')}</span>
            <Icon name="external" size={14} />
          </div>
        </div>
        <div>
          <Button type="submit">{submitText}</Button>
        </div>
      </Form>
    </Card>
  );
}
