// /mc-admin/roles/:id/delete. The default role and roles holding admin.root are protected, and a role
// still held by accounts cannot go (the server answers 409; the page says so before asking).
import { Alert, Button, ConfirmPanel, dialogs, http, Page, useApi, useNavigate, useParams, useTranslation, ADMIN_PATHS, type AdminRole, ResourceState } from '@orepanel/sdk';
import { rolesUrl } from './roles-api';

export default function RoleDeletePage() {
  const { t } = useTranslation('admin-roles');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ role: AdminRole }>(rolesUrl.role(id));
  return (
    <Page
      title={t('roleDelete.title')}
      actions={
        <Button variant="secondary" to={ADMIN_PATHS.roles}>
          {t('roles.back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data?.role} loading={loaded.loading} error={loaded.error} reload={loaded.reload} lines={3}>
        {(role) =>
          role.protected ? (
            <Alert tone="warning" title={t('roleDelete.protectedTitle', { name: role.real_name })}>
              {t('roleDelete.protected')}
            </Alert>
          ) : (
            <ConfirmPanel
              title={t('roleDelete.question', { name: role.real_name })}
              confirmText={t('roleDelete.confirm')}
              cancelText={t('common.cancel')}
              cancelTo={ADMIN_PATHS.roles}
              onConfirm={async () => {
                await http.delete(rolesUrl.role(role.id));
                void dialogs.toast(t('roleDelete.done', { name: role.real_name }));
                navigate(ADMIN_PATHS.roles, { replace: true });
              }}
            >
              <p css={{ margin: 0 }}>{role.users > 0 ? t('roleDelete.inUse', { users: role.users }) : t('roleDelete.explain')}</p>
            </ConfirmPanel>
          )
        }
      </ResourceState>
    </Page>
  );
}
