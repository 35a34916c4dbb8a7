// /mc-admin/mail-templates/:id/delete. The seeded templates are sent by the panel by name: the server
// refuses to delete them (MAIL_TEMPLATE_PROTECTED), and the page says so before asking.
import { Alert, Button, ConfirmPanel, dialogs, http, Page, useApi, useNavigate, useParams, useTranslation, ResourceState } from '@orepanel/sdk';
import { mailPath, mailUrl, type MailTemplate } from './mail-templates-api';

export default function MailTemplateDeletePage() {
  const { t } = useTranslation('mail-templates');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ template: MailTemplate }>(mailUrl.mailTemplate(id));
  return (
    <Page
      title={t('titles.mailTemplateDelete')}
      actions={
        <Button variant="secondary" to={mailPath.mailTemplates}>
          {t('mailTemplates.back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data?.template} loading={loaded.loading} error={loaded.error} reload={loaded.reload} lines={3}>
        {(tpl) =>
          tpl.protected ? (
            <Alert tone="warning" title={t('mailTemplates.delete.protectedTitle', { name: tpl.name })}>
              {t('mailTemplates.delete.protected')}
            </Alert>
          ) : (
            <ConfirmPanel
              title={t('mailTemplates.delete.question', { name: tpl.name })}
              confirmText={t('mailTemplates.delete.confirm')}
              cancelText={t('common.cancel')}
              cancelTo={mailPath.mailTemplates}
              onConfirm={async () => {
                await http.delete(mailUrl.mailTemplate(tpl.id));
                void dialogs.toast(t('mailTemplates.delete.done', { name: tpl.name }));
                navigate(mailPath.mailTemplates, { replace: true });
              }}
            >
              <p css={{ margin: 0 }}>{t('mailTemplates.delete.explain')}</p>
            </ConfirmPanel>
          )
        }
      </ResourceState>
    </Page>
  );
}
