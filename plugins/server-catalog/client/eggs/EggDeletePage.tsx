// /mc-admin/eggs/:id/delete: asks first. The panel egg itself stays; only the link goes.
import { Button, ConfirmPanel, dialogs, http, Page, ResourceState, useApi, useNavigate, useParams, useTranslation } from '@orepanel/sdk';
import { adminPath, apiUrl, type Egg } from '../api';
import { NameCell } from '../CatalogMarkers';

export default function EggDeletePage() {
  const { t } = useTranslation('server-catalog');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ egg: Egg }>(apiUrl.egg(id));
  return (
    <Page
      title={t('eggs.titles.delete')}
      actions={
        <Button variant="secondary" to={adminPath.eggs.list}>
          {t('back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data?.egg} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('loadFailed')} lines={3}>
        {(egg) => (
          <ConfirmPanel
            title={t('deleteQuestion', { name: egg.name })}
            confirmText={t('deleteConfirm')}
            cancelTo={adminPath.eggs.list}
            onConfirm={async () => {
              await http.delete(apiUrl.egg(egg.id));
              void dialogs.toast(t('deleted', { name: egg.name }));
              navigate(adminPath.eggs.list, { replace: true });
            }}
          >
            <NameCell name={egg.name} image={egg.image} vipOnly={egg.vip_only} enabled={egg.enabled} icon="cpu" />
            <p css={{ margin: '12px 0 0' }}>{t('eggs.deleteExplain', { category: egg.category_name, panelId: egg.panel_egg_id })}</p>
          </ConfirmPanel>
        )}
      </ResourceState>
    </Page>
  );
}
