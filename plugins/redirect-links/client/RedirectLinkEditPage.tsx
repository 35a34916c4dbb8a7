// /mc-admin/redirect-links/:id/edit: sends only what changed; the form starts again from the saved link.
import { Button, dialogs, http, Page, PermissionGate, useApi, useParams, useTranslation, ResourceState } from '@orepanel/sdk';
import { useState } from 'react';
import { announceLinksChanged } from './link-events';
import { RedirectLinkForm } from './RedirectLinkForm';
import { linksPath, linksUrl, type RedirectLink, LINK_PERMISSIONS } from './redirect-links-api';

export default function RedirectLinkEditPage() {
  const { t } = useTranslation('redirect-links');
  const { id = '' } = useParams();
  const loaded = useApi<{ link: RedirectLink }>(linksUrl.redirectLink(id));
  const [saved, setSaved] = useState<RedirectLink | null>(null);
  const link = saved ?? loaded.data?.link;
  return (
    <Page
      title={link ? t('redirectLinks.form.editTitle', { name: link.name }) : t('titles.redirectLinkEdit')}
      actions={
        <>
          <Button variant="secondary" to={linksPath.redirectLinks}>
            {t('redirectLinks.back')}
          </Button>
          {link && (
            <PermissionGate permission={LINK_PERMISSIONS.redirectLinksDelete}>
              <Button variant="ghost" to={linksPath.redirectLinkDelete(link.id)}>
                {t('common.delete')}
              </Button>
            </PermissionGate>
          )}
        </>
      }
    >
      <ResourceState data={link} loading={loaded.loading} error={loaded.error} reload={loaded.reload} lines={4}>
        {(current) => (
          <RedirectLinkForm
            key={current.updated_at}
            initial={current}
            submitText={t('common.save')}
            onSubmit={async (changes) => {
              const answer = await http.patch<{ link: RedirectLink }>(linksUrl.redirectLink(current.id), changes);
              setSaved(answer.link);
              announceLinksChanged();
              void dialogs.toast(t('redirectLinks.form.saved'));
            }}
          />
        )}
      </ResourceState>
    </Page>
  );
}
