// /mc-admin/roles: every role with its colour, how many permissions and accounts it has, and what the
// administrator may do with it.
import {
  Badge,
  Button,
  Card,
  DataTable,
  Page,
  PermissionGate,
  theme,
  useApi,
  useHasPermission,
  useTranslation,
  type DataColumn,
  ADMIN_PATHS,
  type AdminRole,
  ADMIN_PERMISSIONS,
} from '@orepanel/sdk';
import { useMemo } from 'react';
import { RowActions } from '@orepanel/sdk';
import { rolesUrl } from './roles-api';

export default function RolesPage() {
  const { t } = useTranslation('admin-roles');
  const roles = useApi<{ data: AdminRole[] }>(rolesUrl.roles());
  const mayEdit = useHasPermission(ADMIN_PERMISSIONS.rolesEdit);
  const mayDelete = useHasPermission(ADMIN_PERMISSIONS.rolesDelete);
  const mayViewPermissions = useHasPermission(ADMIN_PERMISSIONS.permissionsList);

  const columns = useMemo<DataColumn<AdminRole>[]>(() => {
    const out: DataColumn<AdminRole>[] = [
      {
        id: 'role',
        header: t('roles.columns.role'),
        primary: true,
        cell: (role) => (
          <span css={{ display: 'inline-flex', alignItems: 'center', gap: 10, minWidth: 0 }}>
            <span aria-hidden css={{ width: 12, height: 12, borderRadius: '50%', flex: 'none', background: role.color }} />
            <span css={{ display: 'grid', minWidth: 0 }}>
              <span css={{ fontWeight: 600 }}>{role.real_name}</span>
              <code css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.xs, color: theme.colors.muted }}>
                #{role.id} · {role.name}
              </code>
            </span>
            {role.protected && <Badge tone="info">{t('roles.protected')}</Badge>}
          </span>
        ),
      },
      { id: 'permissions', header: t('roles.columns.permissions'), align: 'end', cell: (role) => t('common.count', { value: role.permissions.length }) },
      { id: 'users', header: t('roles.columns.users'), align: 'end', cell: (role) => t('common.count', { value: role.users }) },
    ];
    if (mayEdit || mayDelete || mayViewPermissions) {
      out.push({
        id: 'actions',
        header: t('common.actions'),
        align: 'end',
        cell: (role) => (
          <RowActions
            actions={[
              mayViewPermissions && { to: ADMIN_PATHS.rolePermissions(role.id), text: t('roles.permissions'), label: t('roles.permissionsOf', { name: role.real_name }) },
              mayEdit && { to: ADMIN_PATHS.roleEdit(role.id), text: t('common.edit'), label: t('roles.editRole', { name: role.real_name }) },
              mayDelete &&
                !role.protected && { to: ADMIN_PATHS.roleDelete(role.id), text: t('common.delete'), label: t('roles.deleteRole', { name: role.real_name }), variant: 'ghost' },
            ]}
          />
        ),
      });
    }
    return out;
  }, [t, mayEdit, mayDelete, mayViewPermissions]);

  return (
    <Page
      title={t('roles.title')}
      description={t('roles.description')}
      actions={
        <PermissionGate permission={ADMIN_PERMISSIONS.rolesCreate}>
          <Button icon="shield" to={ADMIN_PATHS.roleCreate}>
            {t('roles.create')}
          </Button>
        </PermissionGate>
      }
    >
      <Card flush>
        <DataTable
          caption={t('roles.title')}
          columns={columns}
          rows={roles.data?.data}
          rowKey={(role) => role.id}
          loading={roles.loading}
          error={roles.error}
          onRetry={roles.reload}
          empty={{ icon: 'shield', title: t('roles.empty') }}
        />
      </Card>
    </Page>
  );
}
