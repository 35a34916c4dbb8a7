// /mc-admin/locations/:id/delete: asks first. The panel location itself stays; only the link goes.
import { Button, ConfirmPanel, dialogs, http, Page, ResourceState, useApi, useNavigate, useParams, useTranslation } from '@orepanel/sdk';
import { adminPath, apiUrl, type Location } from '../api';
import { NameCell } from '../CatalogMarkers';

export default function LocationDeletePage() {
  const { t } = useTranslation('server-catalog');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ location: Location }>(apiUrl.location(id));
  return (
    <Page
      title={t('locations.titles.delete')}
      actions={
        <Button variant="secondary" to={adminPath.locations.list}>
          {t('back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data?.location} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('loadFailed')} lines={3}>
        {(location) => (
          <ConfirmPanel
            title={t('deleteQuestion', { name: location.name })}
            confirmText={t('deleteConfirm')}
            cancelTo={adminPath.locations.list}
            onConfirm={async () => {
              await http.delete(apiUrl.location(location.id));
              void dialogs.toast(t('deleted', { name: location.name }));
              navigate(adminPath.locations.list, { replace: true });
            }}
          >
            <NameCell name={location.name} image={location.image} vipOnly={location.vip_only} enabled={location.enabled} icon="database" />
            <p css={{ margin: '12px 0 0' }}>{t('locations.deleteExplain', { panelId: location.panel_location_id })}</p>
          </ConfirmPanel>
        )}
      </ResourceState>
    </Page>
  );
}
