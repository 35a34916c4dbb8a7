// /mc-admin/server-queue/:id/delete: asks first. A pending entry's resources go back to its owner;
// an entry being built cannot be deleted (the API answers QUEUE_ENTRY_BUSY).
import { Button, ConfirmPanel, dialogs, http, Page, ResourceState, useApi, useNavigate, useParams, useTranslation } from '@orepanel/sdk';
import type { AdminQueueEntryResponse, OkResponse } from '../../shared/api';
import { adminApi, paths } from '../paths';

export default function AdminQueueDeletePage() {
  const { t } = useTranslation('servers');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<AdminQueueEntryResponse>(id ? adminApi.entry(id) : null);
  return (
    <Page
      title={t('admin.titles.queueDelete')}
      actions={
        <Button variant="secondary" to={paths.adminQueue}>
          {t('admin.back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data?.entry} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('admin.entry.loadFailed')} lines={3}>
        {(entry) => (
          <ConfirmPanel
            title={t('admin.deleteEntry.question', { name: entry.name, owner: entry.owner.username })}
            confirmText={t('admin.deleteEntry.confirm')}
            cancelText={t('common.cancel')}
            cancelTo={paths.adminEntry(entry.id)}
            onConfirm={async () => {
              await http.post<OkResponse>(adminApi.removeEntry(entry.id));
              void dialogs.toast(t('admin.deleteEntry.done', { name: entry.name }));
              navigate(paths.adminQueue, { replace: true });
            }}
          >
            <p css={{ margin: 0 }}>{t(`admin.deleteEntry.explain.${entry.status}`)}</p>
          </ConfirmPanel>
        )}
      </ResourceState>
    </Page>
  );
}
