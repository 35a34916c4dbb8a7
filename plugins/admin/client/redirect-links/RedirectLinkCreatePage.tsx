// /mc-admin/redirect-links/create: a new link; back to the list, where it shows in its place.
import { Button, dialogs, http, Page, useNavigate, useTranslation } from '@orepanel/sdk';
import { adminPath, adminUrl, type RedirectLink } from '../admin-api';
import { announceLinksChanged } from './link-events';
import { RedirectLinkForm } from './RedirectLinkForm';

export default function RedirectLinkCreatePage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  return (
    <Page
      title={t('titles.redirectLinkCreate')}
      description={t('redirectLinks.form.createHint')}
      actions={
        <Button variant="secondary" to={adminPath.redirectLinks}>
          {t('redirectLinks.back')}
        </Button>
      }
    >
      <RedirectLinkForm
        initial={null}
        submitText={t('redirectLinks.form.create')}
        onSubmit={async (values) => {
          const { link } = await http.post<{ link: RedirectLink }>(adminUrl.redirectLinks(), values);
          announceLinksChanged();
          void dialogs.toast(t('redirectLinks.form.created', { name: link.name }));
          navigate(adminPath.redirectLinks, { replace: true });
        }}
      />
    </Page>
  );
}
