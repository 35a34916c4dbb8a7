// /mc-admin/egg-categories/:id/delete: asks first; a category that still holds eggs cannot go (the
// server refuses too), so the page says so and points at its eggs instead of offering the button.
import { Alert, Button, ConfirmPanel, dialogs, http, Page, PermissionGate, ResourceState, useApi, useNavigate, useParams, useTranslation } from '@orepanel/sdk';
import { adminPath, apiUrl, PERMISSIONS, type Category } from '../api';
import { NameCell } from '../CatalogMarkers';

export default function CategoryDeletePage() {
  const { t } = useTranslation('server-catalog');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ category: Category }>(apiUrl.category(id));
  return (
    <Page
      title={t('categories.titles.delete')}
      actions={
        <Button variant="secondary" to={adminPath.categories.list}>
          {t('back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data?.category} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('loadFailed')} lines={3}>
        {(category) =>
          category.eggs > 0 ? (
            <Alert tone="warning" title={t('categories.hasEggsTitle', { name: category.name })}>
              <div css={{ display: 'grid', gap: 10, justifyItems: 'start' }}>
                <span>{t('categories.hasEggs', { count: category.eggs })}</span>
                <PermissionGate permission={PERMISSIONS.eggs.list}>
                  <Button size="sm" variant="secondary" to={`${adminPath.eggs.list}?category=${category.id}`}>
                    {t('categories.showEggs')}
                  </Button>
                </PermissionGate>
              </div>
            </Alert>
          ) : (
            <ConfirmPanel
              title={t('deleteQuestion', { name: category.name })}
              confirmText={t('deleteConfirm')}
              cancelTo={adminPath.categories.list}
              onConfirm={async () => {
                await http.delete(apiUrl.category(category.id));
                void dialogs.toast(t('deleted', { name: category.name }));
                navigate(adminPath.categories.list, { replace: true });
              }}
            >
              <NameCell name={category.name} image={category.image} vipOnly={category.vip_only} enabled={category.enabled} icon="archive" />
              <p css={{ margin: '12px 0 0' }}>{t('categories.deleteExplain', { panelId: category.panel_nest_id })}</p>
            </ConfirmPanel>
          )
        }
      </ResourceState>
    </Page>
  );
}
