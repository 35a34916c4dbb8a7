// /mc-admin/redirect-links/:id/delete: asks, deletes, and the navigation loses the link at once.
import { Button, ConfirmPanel, dialogs, http, Page, theme, useApi, useNavigate, useParams, useTranslation } from '@orepanel/sdk';
import { adminPath, adminUrl, type RedirectLink } from '../admin-api';
import { ResourceState } from '../common/ResourceState';
import { announceLinksChanged } from './link-events';

export default function RedirectLinkDeletePage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ link: RedirectLink }>(adminUrl.redirectLink(id));
  return (
    <Page
      title={t('titles.redirectLinkDelete')}
      actions={
        <Button variant="secondary" to={adminPath.redirectLinks}>
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
            cancelTo={adminPath.redirectLinks}
            onConfirm={async () => {
              await http.delete(adminUrl.redirectLink(link.id));
              announceLinksChanged();
              void dialogs.toast(t('redirectLinks.delete.done', { name: link.name }));
              navigate(adminPath.redirectLinks, { replace: true });
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
