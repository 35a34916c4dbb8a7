// /mc-admin/departments: every department, its opening hours in short, whether it takes new tickets,
// and the roles limited to it.
import {
  ADMIN_API,
  ADMIN_PERMISSIONS,
  Badge,
  Button,
  Card,
  DataTable,
  Page,
  PermissionGate,
  RowActions,
  useApi,
  useHasPermission,
  useTranslation,
  type AdminRole,
  type DataColumn,
} from '@orepanel/sdk';
import { useMemo } from 'react';
import { useHoursSummary } from '../opening-hours-text';
import { staffPath, staffUrl, STAFF_PERMISSIONS, type Department } from './staff-api';

export default function DepartmentsPage() {
  const { t } = useTranslation('tickets');
  const departments = useApi<{ data: Department[] }>(staffUrl.departments());
  const mayListRoles = useHasPermission(ADMIN_PERMISSIONS.rolesList);
  const roles = useApi<{ data: AdminRole[] }>(mayListRoles ? `${ADMIN_API}/roles` : null);
  const mayEdit = useHasPermission(STAFF_PERMISSIONS.departmentsEdit);
  const mayDelete = useHasPermission(STAFF_PERMISSIONS.departmentsDelete);
  const hoursSummary = useHoursSummary();

  const columns = useMemo<DataColumn<Department>[]>(() => {
    const roleName = (id: number) => roles.data?.data.find((r) => r.id === id)?.real_name ?? `#${id}`;
    const out: DataColumn<Department>[] = [
      {
        id: 'name',
        header: t('staff.departments.columns.name'),
        primary: true,
        cell: (d) => (
          <span css={{ display: 'grid', gap: 2, minWidth: 0 }}>
            <span css={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{d.name}</span>
            {d.description && <span css={{ opacity: 0.75, overflowWrap: 'anywhere' }}>{d.description}</span>}
          </span>
        ),
      },
      {
        id: 'hours',
        header: t('staff.departments.columns.hours'),
        cell: (d) =>
          d.hours ? (
            <span css={{ display: 'grid', gap: 2, minWidth: 0 }}>
              <span css={{ overflowWrap: 'anywhere' }}>{hoursSummary(d.hours) || t('hours.closedEveryDay')}</span>
              <span css={{ opacity: 0.75, fontSize: '0.875em', overflowWrap: 'anywhere' }}>{d.hours.time_zone}</span>
            </span>
          ) : (
            <span css={{ opacity: 0.75 }}>{t('hours.none')}</span>
          ),
      },
      {
        id: 'enabled',
        header: t('staff.departments.columns.enabled'),
        cell: (d) => <Badge tone={d.enabled ? 'success' : 'neutral'}>{d.enabled ? t('staff.departments.enabled') : t('staff.departments.disabled')}</Badge>,
      },
      {
        id: 'roles',
        header: t('staff.departments.columns.roles'),
        cell: (d) => (d.role_ids.length === 0 ? t('staff.departments.noRoles') : d.role_ids.map(roleName).join(', ')),
      },
    ];
    if (mayEdit || mayDelete) {
      out.push({
        id: 'actions',
        header: t('staff.departments.columns.actions'),
        align: 'end',
        cell: (d) => (
          <RowActions
            actions={[
              mayEdit && { to: staffPath.departmentEdit(d.id), text: t('staff.departments.edit'), label: t('staff.departments.editOne', { name: d.name }) },
              mayDelete && {
                to: staffPath.departmentDelete(d.id),
                text: t('staff.departments.delete'),
                label: t('staff.departments.deleteOne', { name: d.name }),
                variant: 'ghost',
              },
            ]}
          />
        ),
      });
    }
    return out;
  }, [t, mayEdit, mayDelete, roles.data, hoursSummary]);

  return (
    <Page
      title={t('staff.titles.departments')}
      description={t('staff.departments.description')}
      actions={
        <PermissionGate permission={STAFF_PERMISSIONS.departmentsCreate}>
          <Button icon="ticket" to={staffPath.departmentCreate}>
            {t('staff.departments.create')}
          </Button>
        </PermissionGate>
      }
    >
      <Card flush>
        <DataTable
          caption={t('staff.titles.departments')}
          columns={columns}
          rows={departments.data?.data}
          rowKey={(d) => d.id}
          loading={departments.loading}
          error={departments.error}
          onRetry={departments.reload}
          empty={{ icon: 'ticket', title: t('staff.departments.empty') }}
        />
      </Card>
    </Page>
  );
}
