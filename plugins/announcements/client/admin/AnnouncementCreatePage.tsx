// /mc-admin/announcements/create: a new announcement; images are added on its edit page, where the
// save leads (an image belongs to an announcement, so it needs one first).
import { Alert, Button, dialogs, http, Page, useNavigate, useTranslation } from '@orepanel/sdk';
import { path, url, type AdminAnnouncement } from '../api';
import { AnnouncementForm } from './AnnouncementForm';

export default function AnnouncementCreatePage() {
  const { t } = useTranslation('announcements');
  const navigate = useNavigate();
  return (
    <Page
      title={t('admin.titles.create')}
      actions={
        <Button variant="secondary" to={path.admin}>
          {t('admin.back')}
        </Button>
      }
    >
      <div css={{ display: 'grid', gap: 14 }}>
        <Alert tone="info">{t('form.imagesAfterSave')}</Alert>
        <AnnouncementForm
          initial={null}
          submitText={t('form.create')}
          onSubmit={async (body) => {
            const answer = await http.post<{ announcement: AdminAnnouncement }>(url.admin, body);
            void dialogs.toast(t('form.created', { title: answer.announcement.title }));
            navigate(path.edit(answer.announcement.id), { replace: true });
          }}
        />
      </div>
    </Page>
  );
}
