// /mc-admin/redirect-links/create: a new link; back to the list, where it shows in its place.
import { Button, dialogs, http, Page, useNavigate, useTranslation } from '@orepanel/sdk';
import { announceLinksChanged } from './link-events';
import { RedirectLinkForm } from './RedirectLinkForm';
import { linksPath, linksUrl, type RedirectLink } from './redirect-links-api';

export default function RedirectLinkCreatePage() {
  const { t } = useTranslation('redirect-links');
  const navigate = useNavigate();
  return (
    <Page
      title={t('titles.redirectLinkCreate')}
      description={t('redirectLinks.form.createHint')}
      actions={
        <Button variant="secondary" to={linksPath.redirectLinks}>
          {t('redirectLinks.back')}
        </Button>
      }
    >
      <RedirectLinkForm
        initial={null}
        submitText={t('redirectLinks.form.create')}
        onSubmit={async (values) => {
          const { link } = await http.post<{ link: RedirectLink }>(linksUrl.redirectLinks(), values);
          announceLinksChanged();
          void dialogs.toast(t('redirectLinks.form.created', { name: link.name }));
          navigate(linksPath.redirectLinks, { replace: true });
        }}
      />
    </Page>
  );
}
