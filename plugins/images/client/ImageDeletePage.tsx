// /mc-admin/images/:id/delete: asks first, showing the picture. A picture that a location, egg
// category or egg shows cannot be deleted (the server answers 409 IMAGE_IN_USE): the page lists
// them, each linked to its edit screen, so the administrator picks another picture there first.
import { Alert, ApiError, Button, ConfirmPanel, dialogs, http, Link, Page, ResourceState, theme, useApi, useNavigate, useParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { imagesPath, imagesUrl, userPath, type ImageUser, type LibraryImage } from './images-api';

function UsersList({ users }: { users: readonly ImageUser[] }) {
  const { t } = useTranslation('images');
  return (
    <ul css={{ margin: '0 0 12px', paddingLeft: 20 }}>
      {users.map((user) => (
        <li key={`${user.kind}-${user.id}`}>
          <Link to={userPath(user)} css={{ color: theme.colors.primaryHover }}>
            {t(`delete.kind.${user.kind}`, { name: user.name })}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export default function ImageDeletePage() {
  const { t } = useTranslation('images');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ image: LibraryImage; used_by: ImageUser[] }>(imagesUrl.image(id));
  // set when the delete itself was refused (something started using the picture meanwhile)
  const [refusedFor, setRefusedFor] = useState<ImageUser[] | null>(null);

  return (
    <Page
      title={t('titles.delete')}
      actions={
        <Button variant="secondary" to={imagesPath.list}>
          {t('back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('delete.loadFailed')} lines={3}>
        {({ image, used_by: usedBy }) => {
          const users = refusedFor ?? usedBy;
          return (
            <div css={{ display: 'grid', gap: 16 }}>
              <img src={image.url} alt={image.name} css={{ maxWidth: 'min(320px, 100%)', maxHeight: 240, objectFit: 'contain', borderRadius: theme.radii.md }} />
              {users.length > 0 ? (
                <Alert tone="warning" title={t('delete.inUseTitle', { name: image.name })}>
                  <p css={{ margin: '0 0 8px' }}>{t('delete.inUse')}</p>
                  <UsersList users={users} />
                  <Button variant="secondary" to={imagesPath.list}>
                    {t('back')}
                  </Button>
                </Alert>
              ) : (
                <ConfirmPanel
                  title={t('delete.question', { name: image.name })}
                  confirmText={t('delete.confirm')}
                  cancelTo={imagesPath.list}
                  onConfirm={async () => {
                    try {
                      await http.delete(imagesUrl.image(image.id));
                    } catch (error) {
                      if (error instanceof ApiError && error.code === 'IMAGE_IN_USE') {
                        const fresh = await http.get<{ used_by: ImageUser[] }>(imagesUrl.image(image.id));
                        setRefusedFor(fresh.used_by);
                        return;
                      }
                      throw error;
                    }
                    void dialogs.toast(t('delete.done', { name: image.name }));
                    navigate(imagesPath.list, { replace: true });
                  }}
                >
                  <p css={{ margin: 0 }}>{t('delete.explain')}</p>
                </ConfirmPanel>
              )}
            </div>
          );
        }}
      </ResourceState>
    </Page>
  );
}
