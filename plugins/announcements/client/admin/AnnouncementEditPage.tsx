// /mc-admin/announcements/:id/edit: change any field (only what changed is sent) and its images.
import { Badge, Button, dialogs, http, Page, PermissionGate, ResourceState, useApi, useParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { PERMISSIONS, path, statusBadge, url, type AdminAnnouncement } from '../api';
import { AnnouncementForm, valuesOf } from './AnnouncementForm';
import { AnnouncementImages } from './AnnouncementImages';

export default function AnnouncementEditPage() {
  const { t } = useTranslation('announcements');
  const { id = '' } = useParams();
  const loaded = useApi<{ announcement: AdminAnnouncement }>(url.adminOne(id));
  const [saved, setSaved] = useState<AdminAnnouncement | null>(null);
  const current = saved ?? loaded.data?.announcement;
  return (
    <Page
      title={current ? t('admin.editTitle', { title: current.title }) : t('admin.titles.edit')}
      description={current && <Badge tone={statusBadge[current.status]}>{t(`status.${current.status}`)}</Badge>}
      actions={
        <>
          <Button variant="secondary" to={path.admin}>
            {t('admin.back')}
          </Button>
          {current && (
            <PermissionGate permission={PERMISSIONS.delete}>
              <Button variant="ghost" to={path.delete(current.id)}>
                {t('admin.delete')}
              </Button>
            </PermissionGate>
          )}
        </>
      }
    >
      <ResourceState data={current} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('admin.loadFailed')} lines={6}>
        {(announcement) => (
          <AnnouncementForm
            key={announcement.updated_at}
            initial={valuesOf(announcement)}
            submitText={t('form.save')}
            images={(insert) => <AnnouncementImages id={announcement.id} initial={announcement.images} insert={insert} />}
            onSubmit={async (body) => {
              const answer = await http.patch<{ announcement: AdminAnnouncement }>(url.adminOne(announcement.id), body);
              setSaved(answer.announcement);
              void dialogs.toast(t('form.saved', { title: answer.announcement.title }));
            }}
          />
        )}
      </ResourceState>
    </Page>
  );
}
