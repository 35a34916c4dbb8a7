// /mc-admin/departments/:id/edit: change any field; only what changed is sent.
import { Button, dialogs, http, Page, PermissionGate, ResourceState, useApi, useParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { DepartmentForm, departmentValuesOf } from './DepartmentForm';
import { DepartmentWebhookForm } from './DepartmentWebhookForm';
import { staffPath, staffUrl, STAFF_PERMISSIONS, type Department } from './staff-api';

export default function DepartmentEditPage() {
  const { t } = useTranslation('tickets');
  const { id = '' } = useParams();
  const loaded = useApi<{ department: Department }>(staffUrl.department(id));
  const [saved, setSaved] = useState<Department | null>(null);
  const department = saved ?? loaded.data?.department;
  return (
    <Page
      title={department ? t('staff.departments.form.editTitle', { name: department.name }) : t('staff.titles.departmentEdit')}
      actions={
        <>
          <Button variant="secondary" to={staffPath.departments}>
            {t('staff.departments.back')}
          </Button>
          {department && (
            <PermissionGate permission={STAFF_PERMISSIONS.departmentsDelete}>
              <Button variant="ghost" to={staffPath.departmentDelete(department.id)}>
                {t('staff.departments.delete')}
              </Button>
            </PermissionGate>
          )}
        </>
      }
    >
      <ResourceState data={department} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('staff.departments.loadFailed')} lines={5}>
        {(current) => (
          <>
            <DepartmentForm
              key={current.updated_at}
              initial={departmentValuesOf(current)}
              submitText={t('staff.departments.form.save')}
              onSubmit={async (body) => {
                const answer = await http.patch<{ department: Department }>(staffUrl.department(current.id), body);
                setSaved(answer.department);
                void dialogs.toast(t('staff.departments.form.saved', { name: answer.department.name }));
              }}
            />
            <DepartmentWebhookForm departmentId={current.id} />
          </>
        )}
      </ResourceState>
    </Page>
  );
}
