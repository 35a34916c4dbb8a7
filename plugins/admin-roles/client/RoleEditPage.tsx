// /mc-admin/roles/:id/edit: rename or recolour a role (its permissions have their own screen).
import { Button, dialogs, http, Page, PermissionGate, useApi, useParams, useTranslation, ADMIN_PATHS, type AdminRole, ADMIN_PERMISSIONS, ResourceState } from '@orepanel/sdk';
import { useState } from 'react';
import { RoleForm } from './RoleForm';
import { rolesUrl } from './roles-api';

export default function RoleEditPage() {
  const { t } = useTranslation('admin-roles');
  const { id = '' } = useParams();
  const loaded = useApi<{ role: AdminRole }>(rolesUrl.role(id));
  const [saved, setSaved] = useState<AdminRole | null>(null);
  const role = saved ?? loaded.data?.role;
  return (
    <Page
      title={role ? t('roleForm.editTitle', { name: role.real_name }) : t('titles.roleEdit')}
      actions={
        <>
          <Button variant="secondary" to={ADMIN_PATHS.roles}>
            {t('roles.back')}
          </Button>
          <PermissionGate permission={ADMIN_PERMISSIONS.permissionsList}>
            <Button variant="secondary" to={ADMIN_PATHS.rolePermissions(id)}>
              {t('roles.permissions')}
            </Button>
          </PermissionGate>
        </>
      }
    >
      <ResourceState data={role} loading={loaded.loading} error={loaded.error} reload={loaded.reload} lines={3}>
        {(current) => (
          <RoleForm
            key={`${current.name}|${current.real_name}|${current.color}`}
            initial={{ name: current.name, real_name: current.real_name, color: current.color }}
            submitText={t('common.save')}
            onSubmit={async (changes) => {
              const answer = await http.patch<{ role: AdminRole }>(rolesUrl.role(current.id), changes);
              setSaved(answer.role);
              void dialogs.toast(t('roleForm.saved'));
            }}
          />
        )}
      </ResourceState>
    </Page>
  );
}
