// /mc-admin/departments/:id/delete: asks first. A department that has tickets cannot be deleted (the
// server answers 409 DEPARTMENT_HAS_TICKETS, so its tickets keep their history); the page says so and
// offers to disable it instead, which stops new tickets while the old ones stay readable.
import { Alert, ApiError, Button, ConfirmPanel, dialogs, http, Page, PermissionGate, ResourceState, useApi, useNavigate, useParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { staffPath, staffUrl, STAFF_PERMISSIONS, type Department } from './staff-api';

export default function DepartmentDeletePage() {
  const { t } = useTranslation('tickets');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ department: Department }>(staffUrl.department(id));
  const [hasTickets, setHasTickets] = useState(false);
  const [disabling, setDisabling] = useState(false);

  const disable = async (department: Department) => {
    setDisabling(true);
    try {
      await http.patch(staffUrl.department(department.id), { enabled: false });
      void dialogs.toast(t('staff.departments.disabledDone', { name: department.name }));
      navigate(staffPath.departments, { replace: true });
    } catch {
      void dialogs.toast(t('staff.departments.disableFailed'));
      setDisabling(false);
    }
  };

  return (
    <Page
      title={t('staff.titles.departmentDelete')}
      actions={
        <Button variant="secondary" to={staffPath.departments}>
          {t('staff.departments.back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data?.department} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('staff.departments.loadFailed')} lines={3}>
        {(department) =>
          hasTickets ? (
            <Alert tone="warning" title={t('staff.departments.hasTicketsTitle', { name: department.name })}>
              <p css={{ margin: '0 0 12px' }}>{department.enabled ? t('staff.departments.hasTickets') : t('staff.departments.hasTicketsDisabled')}</p>
              <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
                {department.enabled && (
                  <PermissionGate permission={STAFF_PERMISSIONS.departmentsEdit}>
                    <Button onClick={() => void disable(department)} loading={disabling}>
                      {t('staff.departments.disableInstead')}
                    </Button>
                  </PermissionGate>
                )}
                <Button variant="secondary" to={staffPath.departments}>
                  {t('staff.departments.back')}
                </Button>
              </div>
            </Alert>
          ) : (
            <ConfirmPanel
              title={t('staff.departments.deleteQuestion', { name: department.name })}
              confirmText={t('staff.departments.deleteConfirm')}
              cancelTo={staffPath.departments}
              onConfirm={async () => {
                try {
                  await http.delete(staffUrl.department(department.id));
                } catch (error) {
                  if (error instanceof ApiError && error.code === 'DEPARTMENT_HAS_TICKETS') {
                    setHasTickets(true);
                    return;
                  }
                  throw error;
                }
                void dialogs.toast(t('staff.departments.deleted', { name: department.name }));
                navigate(staffPath.departments, { replace: true });
              }}
            >
              <p css={{ margin: 0 }}>{t('staff.departments.deleteExplain')}</p>
            </ConfirmPanel>
          )
        }
      </ResourceState>
    </Page>
  );
}
