// /mc-admin/redirect-links/:id/delete: asks, deletes, and the navigation loses the link at once.
import { Button, ConfirmPanel, dialogs, http, Page, theme, useApi, useNavigate, useParams, useTranslation, ResourceState } from '@orepanel/sdk';
import { announceLinksChanged } from './link-events';
import { linksPath, linksUrl, type RedirectLink } from './redirect-links-api';

export default function RedirectLinkDeletePage() {
  const { t } = useTranslation('redirect-links');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ link: RedirectLink }>(linksUrl.redirectLink(id));
  return (
    <Page
      title={t('titles.redirectLinkDelete')}
      actions={
        <Button variant="secondary" to={linksPath.redirectLinks}>
          {t('redirectLinks.back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data?.link} loading={loaded.loading} error={loaded.error} reload={loaded.reload} lines={3}>
        {(link) => (
          <ConfirmPanel
            title={t('redirectLinks.delete.question', { name: link.name })}
            confirmText={t('redirectLinks.delete.confirm')}
            cancelText={t('common.cancel')}
            cancelTo={linksPath.redirectLinks}
            onConfirm={async () => {
              await http.delete(linksUrl.redirectLink(link.id));
              announceLinksChanged();
              void dialogs.toast(t('redirectLinks.delete.done', { name: link.name }));
              navigate(linksPath.redirectLinks, { replace: true });
            }}
          >
            <p css={{ margin: 0 }}>{t('redirectLinks.delete.explain')}</p>
            <p css={{ margin: '8px 0 0', fontFamily: theme.font.mono, fontSize: theme.font.size.sm, overflowWrap: 'anywhere', color: theme.colors.muted }}>{link.url}</p>
          </ConfirmPanel>
        )}
      </ResourceState>
    </Page>
  );
}
