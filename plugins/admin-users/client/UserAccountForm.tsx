// The account part of the user edit screen: names, username, e-mail, role and resource limits.
import {
  Button,
  Card,
  dialogs,
  Form,
  Grid,
  http,
  Select,
  TextField,
  useApi,
  UnchangedNote,
  useEditForm,
  useHasPermission,
  useTranslation,
  type AdminRole,
  ADMIN_PERMISSIONS,
} from '@orepanel/sdk';
import { checkUserForm, MAX_RESOURCE, userChanges, userFormValues, type UserFormValues } from './user-form';
import { usersUrl, RESOURCE_FIELDS, type AdminUser } from './users-api';

export function UserAccountForm({ user, onSaved }: { user: AdminUser; onSaved(user: AdminUser): void }) {
  const { t } = useTranslation('admin-users');
  const form = useEditForm({
    initial: userFormValues(user),
    check: checkUserForm,
    changes: (values: UserFormValues) => userChanges(user, values),
    submit: async (patch: ReturnType<typeof userChanges>) => {
      const answer = await http.patch<{ user: AdminUser }>(usersUrl.user(user.uuid), patch);
      onSaved(answer.user);
      void dialogs.toast(t('userEdit.saved'));
    },
    problemText: (problem) => t(problem),
  });
  const { values, set, problem } = form;
  // the role list needs its own permission; without it the role shows read-only
  const mayListRoles = useHasPermission(ADMIN_PERMISSIONS.rolesList);
  const roles = useApi<{ data: AdminRole[] }>(mayListRoles ? usersUrl.roles() : null);

  const roleOptions = (roles.data?.data ?? []).map((role) => ({ value: String(role.id), label: role.real_name }));
  if (!roleOptions.some((o) => o.value === String(user.role))) roleOptions.unshift({ value: String(user.role), label: user.role_name });

  return (
    <Card title={t('userEdit.account')}>
      <Form onSubmit={form.submit} aria-label={t('userEdit.account')} noValidate>
        <UnchangedNote form={form}>{t('userEdit.nothingChanged')}</UnchangedNote>
        <Grid min={220} gap={16} css={{ alignItems: 'start' }}>
          <TextField label={t('userEdit.fields.firstName')} {...form.field('first_name')} autoComplete="off" />
          <TextField label={t('userEdit.fields.lastName')} name="last_name" value={values.last_name} onChange={set('last_name')} error={problem('last_name')} autoComplete="off" />
          <TextField label={t('userEdit.fields.username')} {...form.field('username')} autoComplete="off" autoCapitalize="none" spellCheck={false} />
          <TextField label={t('userEdit.fields.email')} name="email" type="email" value={values.email} onChange={set('email')} error={problem('email')} autoComplete="off" />
          {mayListRoles ? (
            <Select
              label={t('userEdit.fields.role')}
              name="role"
              value={values.role}
              onChange={set('role')}
              options={roleOptions}
              disabled={roles.loading && !roles.data}
              hint={roles.error ? t('userEdit.rolesFailed') : undefined}
            />
          ) : (
            <TextField label={t('userEdit.fields.role')} name="role" value={user.role_name} readOnly hint={t('userEdit.roleReadOnly')} />
          )}
        </Grid>

        <fieldset css={{ border: 0, margin: 0, padding: 0, display: 'grid', gap: 12, minWidth: 0 }}>
          <legend css={{ padding: 0, marginBottom: 12, fontWeight: 600 }}>{t('userEdit.resources')}</legend>
          <Grid min={150} gap={12} css={{ alignItems: 'start' }}>
            {RESOURCE_FIELDS.map((field) => (
              <TextField
                key={field}
                label={t(`userEdit.fields.${field}`)}
                name={field}
                type="number"
                inputMode="numeric"
                min={0}
                max={MAX_RESOURCE}
                step={1}
                value={values[field]}
                onChange={set(field)}
                error={problem(field)}
              />
            ))}
          </Grid>
        </fieldset>

        <div>
          <Button type="submit">{t('common.save')}</Button>
        </div>
      </Form>
    </Card>
  );
}
