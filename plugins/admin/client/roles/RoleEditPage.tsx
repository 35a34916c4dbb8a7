// /mc-admin/roles/:id/edit: rename or recolour a role (its permissions have their own screen).
import { Button, dialogs, http, Page, PermissionGate, useApi, useParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { adminPath, adminUrl, type AdminRole } from '../admin-api';
import { PERMISSIONS } from '../admin-permissions';
import { ResourceState } from '../common/ResourceState';
import { RoleForm } from './RoleForm';

export default function RoleEditPage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const loaded = useApi<{ role: AdminRole }>(adminUrl.role(id));
  const [saved, setSaved] = useState<AdminRole | null>(null);
  const role = saved ?? loaded.data?.role;
  return (
    <Page
      title={role ? t('roleForm.editTitle', { name: role.real_name }) : t('titles.roleEdit')}
      actions={
        <>
          <Button variant="secondary" to={adminPath.roles}>
            {t('roles.back')}
          </Button>
          <PermissionGate permission={PERMISSIONS.permissionsList}>
            <Button variant="secondary" to={adminPath.rolePermissions(id)}>
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
              const answer = await http.patch<{ role: AdminRole }>(adminUrl.role(current.id), changes);
              setSaved(answer.role);
              void dialogs.toast(t('roleForm.saved'));
            }}
          />
        )}
      </ResourceState>
    </Page>
  );
}
