// /mc-admin/mail-templates/:id/edit: the form with a live preview beside it (unsaved edits included).
import { Button, dialogs, http, Page, PermissionGate, useApi, useParams, useTranslation, ResourceState } from '@orepanel/sdk';
import { useState } from 'react';
import { MailPreview } from './MailPreview';
import { MailTemplateForm } from './MailTemplateForm';
import type { MailTemplateFormValues } from './mail-template-form';
import { mailPath, mailUrl, type MailTemplate, MAIL_PERMISSIONS } from './mail-templates-api';

const formValues = (tpl: MailTemplate): MailTemplateFormValues => ({ name: tpl.name, description: tpl.description, subject: tpl.subject, html: tpl.html, text: tpl.text });

export default function MailTemplateEditPage() {
  const { t } = useTranslation('mail-templates');
  const { id = '' } = useParams();
  const loaded = useApi<{ template: MailTemplate }>(mailUrl.mailTemplate(id));
  const [saved, setSaved] = useState<MailTemplate | null>(null);
  const [draft, setDraft] = useState<MailTemplateFormValues | null>(null);
  const template = saved ?? loaded.data?.template;
  return (
    <Page
      title={template ? t('mailTemplates.form.editTitle', { name: template.name }) : t('titles.mailTemplateEdit')}
      actions={
        <>
          <Button variant="secondary" to={mailPath.mailTemplates}>
            {t('mailTemplates.back')}
          </Button>
          {template && !template.protected && (
            <PermissionGate permission={MAIL_PERMISSIONS.mailTemplatesDelete}>
              <Button variant="ghost" to={mailPath.mailTemplateDelete(template.id)}>
                {t('common.delete')}
              </Button>
            </PermissionGate>
          )}
        </>
      }
    >
      <ResourceState data={template} loading={loaded.loading} error={loaded.error} reload={loaded.reload} lines={8}>
        {(current) => (
          <MailTemplateForm
            key={current.updated_at}
            initial={formValues(current)}
            protectedName={current.protected}
            submitText={t('common.save')}
            onValuesChange={setDraft}
            onSubmit={async (changes) => {
              const answer = await http.patch<{ template: MailTemplate }>(mailUrl.mailTemplate(current.id), changes);
              setSaved(answer.template);
              setDraft(null);
              void dialogs.toast(t('mailTemplates.form.saved'));
            }}
            aside={<MailPreview templateId={current.id} parts={draft ?? formValues(current)} />}
          />
        )}
      </ResourceState>
    </Page>
  );
}
