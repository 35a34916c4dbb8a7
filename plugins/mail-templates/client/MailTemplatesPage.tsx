// /mc-admin/mail-templates: every mail template, paged on the server; the seeded ones are marked
// protected (the panel sends them by name).
import { Badge, Button, Page, PagedList, PermissionGate, theme, useHasPermission, usePagedList, useTranslation, type DataColumn, useDateTime } from '@orepanel/sdk';
import { useMemo } from 'react';
import { RowActions } from '@orepanel/sdk';
import { mailPath, mailUrl, type MailTemplateSummary, MAIL_PERMISSIONS } from './mail-templates-api';

export default function MailTemplatesPage() {
  const { t } = useTranslation('mail-templates');
  // the server pages the list but does not search it
  const list = usePagedList<MailTemplateSummary>(mailUrl.mailTemplates(), { perPage: 20, searchable: false });
  const mayEdit = useHasPermission(MAIL_PERMISSIONS.mailTemplatesEdit);
  const mayDelete = useHasPermission(MAIL_PERMISSIONS.mailTemplatesDelete);
  const dateTime = useDateTime();

  const columns = useMemo<DataColumn<MailTemplateSummary>[]>(() => {
    const out: DataColumn<MailTemplateSummary>[] = [
      {
        id: 'template',
        header: t('mailTemplates.columns.template'),
        primary: true,
        cell: (tpl) => (
          <span css={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0, flexWrap: 'wrap' }}>
            <span css={{ display: 'grid', minWidth: 0 }}>
              <code css={{ fontFamily: theme.font.mono, fontWeight: 600 }}>{tpl.name}</code>
              {tpl.description !== '' && <span css={{ fontSize: theme.font.size.sm, color: theme.colors.muted }}>{tpl.description}</span>}
            </span>
            {tpl.protected && <Badge tone="info">{t('mailTemplates.protected')}</Badge>}
          </span>
        ),
      },
      { id: 'subject', header: t('mailTemplates.columns.subject'), cell: (tpl) => <span css={{ overflowWrap: 'anywhere' }}>{tpl.subject}</span> },
      { id: 'updated', header: t('mailTemplates.columns.updated'), cell: (tpl) => dateTime(tpl.updated_at) },
    ];
    if (mayEdit || mayDelete) {
      out.push({
        id: 'actions',
        header: t('common.actions'),
        align: 'end',
        cell: (tpl) => (
          <RowActions
            actions={[
              mayEdit && { to: mailPath.mailTemplateEdit(tpl.id), text: t('common.edit'), label: t('mailTemplates.editTemplate', { name: tpl.name }) },
              mayDelete &&
                !tpl.protected && {
                  to: mailPath.mailTemplateDelete(tpl.id),
                  text: t('common.delete'),
                  label: t('mailTemplates.deleteTemplate', { name: tpl.name }),
                  variant: 'ghost',
                },
            ]}
          />
        ),
      });
    }
    return out;
  }, [t, mayEdit, mayDelete, dateTime]);

  return (
    <Page
      title={t('mailTemplates.title')}
      description={t('mailTemplates.description')}
      actions={
        <PermissionGate permission={MAIL_PERMISSIONS.mailTemplatesCreate}>
          <Button icon="mail" to={mailPath.mailTemplateCreate}>
            {t('mailTemplates.create')}
          </Button>
        </PermissionGate>
      }
    >
      <PagedList list={list} caption={t('mailTemplates.title')} columns={columns} rowKey={(tpl) => tpl.id} empty={{ icon: 'mail', title: t('mailTemplates.empty') }} />
    </Page>
  );
}
