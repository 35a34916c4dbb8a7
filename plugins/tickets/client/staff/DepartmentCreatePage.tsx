// /mc-admin/departments/create: a new department; then back to the list.
import { Button, dialogs, http, Page, useNavigate, useTranslation } from '@orepanel/sdk';
import { DepartmentForm } from './DepartmentForm';
import { staffPath, staffUrl, type Department } from './staff-api';

export default function DepartmentCreatePage() {
  const { t } = useTranslation('tickets');
  const navigate = useNavigate();
  return (
    <Page
      title={t('staff.titles.departmentCreate')}
      actions={
        <Button variant="secondary" to={staffPath.departments}>
          {t('staff.departments.back')}
        </Button>
      }
    >
      <DepartmentForm
        initial={null}
        submitText={t('staff.departments.form.create')}
        onSubmit={async (body) => {
          const { department } = await http.post<{ department: Department }>(staffUrl.departments(), body);
          void dialogs.toast(t('staff.departments.form.created', { name: department.name }));
          navigate(staffPath.departments, { replace: true });
        }}
      />
    </Page>
  );
}
