// /mc-admin/mail-templates/create: a new template; the preview needs a saved template, so the next
// stop is its edit screen.
import { Button, dialogs, http, Page, useHasPermission, useNavigate, useTranslation } from '@orepanel/sdk';
import { MailTemplateForm } from './MailTemplateForm';
import { mailPath, mailUrl, type MailTemplate, MAIL_PERMISSIONS } from './mail-templates-api';

export default function MailTemplateCreatePage() {
  const { t } = useTranslation('mail-templates');
  const navigate = useNavigate();
  const mayEdit = useHasPermission(MAIL_PERMISSIONS.mailTemplatesEdit);
  return (
    <Page
      title={t('titles.mailTemplateCreate')}
      description={t('mailTemplates.form.createHint')}
      actions={
        <Button variant="secondary" to={mailPath.mailTemplates}>
          {t('mailTemplates.back')}
        </Button>
      }
    >
      <MailTemplateForm
        initial={null}
        submitText={t('mailTemplates.form.create')}
        onSubmit={async (values) => {
          const { template } = await http.post<{ template: MailTemplate }>(mailUrl.mailTemplates(), values);
          void dialogs.toast(t('mailTemplates.form.created', { name: template.name }));
          navigate(mayEdit ? mailPath.mailTemplateEdit(template.id) : mailPath.mailTemplates, { replace: true });
        }}
      />
    </Page>
  );
}
