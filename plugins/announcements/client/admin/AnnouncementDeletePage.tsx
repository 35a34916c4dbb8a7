// /mc-admin/announcements/:id/delete: asks first; deleting takes its images and read marks with it.
import { Button, ConfirmPanel, dialogs, http, Page, ResourceState, useApi, useNavigate, useParams, useTranslation } from '@orepanel/sdk';
import { path, url, type AdminAnnouncement } from '../api';

export default function AnnouncementDeletePage() {
  const { t } = useTranslation('announcements');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ announcement: AdminAnnouncement }>(url.adminOne(id));
  return (
    <Page
      title={t('admin.titles.delete')}
      actions={
        <Button variant="secondary" to={path.admin}>
          {t('admin.back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data?.announcement} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('admin.loadFailed')} lines={3}>
        {(announcement) => (
          <ConfirmPanel
            title={t('admin.deleteQuestion', { title: announcement.title })}
            confirmText={t('admin.deleteConfirm')}
            cancelTo={path.admin}
            onConfirm={async () => {
              await http.delete(url.adminOne(announcement.id));
              void dialogs.toast(t('admin.deleted', { title: announcement.title }));
              navigate(path.admin, { replace: true });
            }}
          >
            <p css={{ margin: 0 }}>{t('admin.deleteExplain', { count: announcement.images.length })}</p>
          </ConfirmPanel>
        )}
      </ResourceState>
    </Page>
  );
}
