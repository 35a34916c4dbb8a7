// /mc-admin/roles/create: a new role starts without permissions; the next stop is its permissions.
import { Button, dialogs, http, Page, useHasPermission, useNavigate, useTranslation, ADMIN_PATHS, type AdminRole, ADMIN_PERMISSIONS } from '@orepanel/sdk';
import { RoleForm } from './RoleForm';
import { rolesUrl } from './roles-api';

export default function RoleCreatePage() {
  const { t } = useTranslation('admin-roles');
  const navigate = useNavigate();
  const mayOpenPermissions = useHasPermission(ADMIN_PERMISSIONS.permissionsList);
  return (
    <Page
      title={t('titles.roleCreate')}
      description={t('roleForm.createHint')}
      actions={
        <Button variant="secondary" to={ADMIN_PATHS.roles}>
          {t('roles.back')}
        </Button>
      }
    >
      <RoleForm
        initial={null}
        submitText={t('roleForm.create')}
        onSubmit={async (values) => {
          const { role } = await http.post<{ role: AdminRole }>(rolesUrl.roles(), values);
          void dialogs.toast(t('roleForm.created', { name: role.real_name }));
          navigate(mayOpenPermissions ? ADMIN_PATHS.rolePermissions(role.id) : ADMIN_PATHS.roles, { replace: true });
        }}
      />
    </Page>
  );
}
