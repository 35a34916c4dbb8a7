// /mc-admin/roles/create: a new role starts without permissions; the next stop is its permissions.
import { Button, dialogs, http, Page, useHasPermission, useNavigate, useTranslation } from '@orepanel/sdk';
import { adminPath, adminUrl, type AdminRole } from '../admin-api';
import { PERMISSIONS } from '../admin-permissions';
import { RoleForm } from './RoleForm';

export default function RoleCreatePage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const mayOpenPermissions = useHasPermission(PERMISSIONS.permissionsList);
  return (
    <Page
      title={t('titles.roleCreate')}
      description={t('roleForm.createHint')}
      actions={
        <Button variant="secondary" to={adminPath.roles}>
          {t('roles.back')}
        </Button>
      }
    >
      <RoleForm
        initial={null}
        submitText={t('roleForm.create')}
        onSubmit={async (values) => {
          const { role } = await http.post<{ role: AdminRole }>(adminUrl.roles(), values);
          void dialogs.toast(t('roleForm.created', { name: role.real_name }));
          navigate(mayOpenPermissions ? adminPath.rolePermissions(role.id) : adminPath.roles, { replace: true });
        }}
      />
    </Page>
  );
}
