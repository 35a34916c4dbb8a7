// /mc-admin/mail-templates/:id/edit: the form with a live preview beside it (unsaved edits included).
import { Button, dialogs, http, Page, PermissionGate, useApi, useParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { adminPath, adminUrl, type MailTemplate } from '../admin-api';
import { PERMISSIONS } from '../admin-permissions';
import { ResourceState } from '../common/ResourceState';
import { MailPreview } from './MailPreview';
import { MailTemplateForm } from './MailTemplateForm';
import type { MailTemplateFormValues } from './mail-template-form';

const formValues = (tpl: MailTemplate): MailTemplateFormValues => ({ name: tpl.name, description: tpl.description, subject: tpl.subject, html: tpl.html, text: tpl.text });

export default function MailTemplateEditPage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const loaded = useApi<{ template: MailTemplate }>(adminUrl.mailTemplate(id));
  const [saved, setSaved] = useState<MailTemplate | null>(null);
  const [draft, setDraft] = useState<MailTemplateFormValues | null>(null);
  const template = saved ?? loaded.data?.template;
  return (
    <Page
      title={template ? t('mailTemplates.form.editTitle', { name: template.name }) : t('titles.mailTemplateEdit')}
      actions={
        <>
          <Button variant="secondary" to={adminPath.mailTemplates}>
            {t('mailTemplates.back')}
          </Button>
          {template && !template.protected && (
            <PermissionGate permission={PERMISSIONS.mailTemplatesDelete}>
              <Button variant="ghost" to={adminPath.mailTemplateDelete(template.id)}>
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
              const answer = await http.patch<{ template: MailTemplate }>(adminUrl.mailTemplate(current.id), changes);
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
