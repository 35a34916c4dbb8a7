// The create and edit form of a role: its internal name, the name people see, its colour.
import { Button, Card, Form, Grid, TextField, theme, UnchangedNote, useEditForm, useTranslation } from '@orepanel/sdk';
import { checkRoleForm, roleChanges, type RoleFormValues } from './role-form';

export interface RoleFormProps {
  /** the role being edited; null for a new one */
  initial: RoleFormValues | null;
  /** sends the changed fields */
  onSubmit(changes: Partial<RoleFormValues>): Promise<void>;
  submitText: string;
}

const DEFAULT_COLOR = '#6d7cff';

export function RoleForm({ initial, onSubmit, submitText }: RoleFormProps) {
  const { t } = useTranslation('admin-roles');
  const form = useEditForm({
    initial: initial ?? { name: '', real_name: '', color: DEFAULT_COLOR },
    check: checkRoleForm,
    changes: (values: RoleFormValues) => roleChanges(initial, values),
    submit: onSubmit,
    problemText: (problem) => t(problem),
  });
  const { values, set, problem } = form;

  return (
    <Card>
      <Form onSubmit={form.submit} aria-label={submitText} noValidate>
        <UnchangedNote form={form}>{t('userEdit.nothingChanged')}</UnchangedNote>
        <Grid min={240} gap={16} css={{ alignItems: 'start' }}>
          <TextField label={t('roleForm.realName')} {...form.field('real_name')} maxLength={64} autoComplete="off" />
          <TextField label={t('roleForm.name')} {...form.field('name')} hint={t('roleForm.nameHint')} maxLength={64} autoComplete="off" autoCapitalize="none" spellCheck={false} />
          <div css={{ display: 'flex', gap: 10, alignItems: 'flex-end' }}>
            <div css={{ flex: 1, minWidth: 0 }}>
              <TextField label={t('roleForm.color')} name="color" value={values.color} onChange={set('color')} error={problem('color')} maxLength={7} spellCheck={false} />
            </div>
            <input
              type="color"
              aria-label={t('roleForm.pickColor')}
              value={/^#[0-9a-fA-F]{6}$/.test(values.color) ? values.color : DEFAULT_COLOR}
              onChange={(event) => set('color')(event.target.value)}
              css={{
                width: 46,
                height: 42,
                padding: 2,
                border: `1px solid ${theme.colors.border}`,
                borderRadius: theme.radii.md,
                background: theme.colors.background,
                cursor: 'pointer',
                flex: 'none',
                marginBottom: problem('color') ? 26 : 0,
              }}
            />
          </div>
        </Grid>
        <div>
          <Button type="submit">{submitText}</Button>
        </div>
      </Form>
    </Card>
  );
}
