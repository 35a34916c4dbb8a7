// /mc-admin/users/:uuid/delete: the question as a page; deleting ends the account's sessions, and
// the audit log keeps its history.
import { Button, ConfirmPanel, dialogs, http, Page, useApi, useNavigate, useParams, useTranslation, ADMIN_PATHS, ResourceState } from '@orepanel/sdk';
import { usersUrl, type AdminUser } from './users-api';

export default function UserDeletePage() {
  const { t } = useTranslation('admin-users');
  const { uuid = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ user: AdminUser }>(usersUrl.user(uuid));

  return (
    <Page
      title={t('userDelete.title')}
      actions={
        <Button variant="secondary" to={ADMIN_PATHS.users}>
          {t('userEdit.back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data?.user} loading={loaded.loading} error={loaded.error} reload={loaded.reload} lines={3}>
        {(user) => (
          <ConfirmPanel
            title={t('userDelete.question', { name: user.username })}
            confirmText={t('userDelete.confirm')}
            cancelText={t('common.cancel')}
            cancelTo={ADMIN_PATHS.userEdit(user.uuid)}
            onConfirm={async () => {
              await http.delete(usersUrl.user(user.uuid));
              void dialogs.toast(t('userDelete.done', { name: user.username }));
              navigate(ADMIN_PATHS.users, { replace: true });
            }}
          >
            <p css={{ margin: 0 }}>{t('userDelete.explain', { name: user.username, email: user.email })}</p>
          </ConfirmPanel>
        )}
      </ResourceState>
    </Page>
  );
}
