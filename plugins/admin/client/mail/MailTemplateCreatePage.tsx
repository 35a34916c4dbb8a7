// /mc-admin/mail-templates/create: a new template; the preview needs a saved template, so the next
// stop is its edit screen.
import { Button, dialogs, http, Page, useHasPermission, useNavigate, useTranslation } from '@orepanel/sdk';
import { adminPath, adminUrl, type MailTemplate } from '../admin-api';
import { PERMISSIONS } from '../admin-permissions';
import { MailTemplateForm } from './MailTemplateForm';

export default function MailTemplateCreatePage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const mayEdit = useHasPermission(PERMISSIONS.mailTemplatesEdit);
  return (
    <Page
      title={t('titles.mailTemplateCreate')}
      description={t('mailTemplates.form.createHint')}
      actions={
        <Button variant="secondary" to={adminPath.mailTemplates}>
          {t('mailTemplates.back')}
        </Button>
      }
    >
      <MailTemplateForm
        initial={null}
        submitText={t('mailTemplates.form.create')}
        onSubmit={async (values) => {
          const { template } = await http.post<{ template: MailTemplate }>(adminUrl.mailTemplates(), values);
          void dialogs.toast(t('mailTemplates.form.created', { name: template.name }));
          navigate(mayEdit ? adminPath.mailTemplateEdit(template.id) : adminPath.mailTemplates, { replace: true });
        }}
      />
    </Page>
  );
}
