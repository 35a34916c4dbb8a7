// /mc-admin/users: every account, searched by username, e-mail or uuid, paged on the server.
import {
  Badge,
  Checkbox,
  Page,
  PagedList,
  theme,
  useHasPermission,
  usePagedList,
  useTranslation,
  type DataColumn,
  ADMIN_PATHS,
  ADMIN_PERMISSIONS,
  useDateTime,
} from '@orepanel/sdk';
import { useMemo, useState } from 'react';
import { RowActions } from '@orepanel/sdk';
import { usersUrl, type AdminUser } from './users-api';

export default function UsersPage() {
  const { t } = useTranslation('admin-users');
  // the review queue: only accounts with an open anti-abuse flag
  const [flaggedOnly, setFlaggedOnly] = useState(false);
  const list = usePagedList<AdminUser>(flaggedOnly ? `${usersUrl.users()}?flagged=true` : usersUrl.users(), { perPage: 20 });
  const mayEdit = useHasPermission(ADMIN_PERMISSIONS.usersEdit);
  const mayDelete = useHasPermission(ADMIN_PERMISSIONS.usersDelete);
  const dateTime = useDateTime();

  const columns = useMemo<DataColumn<AdminUser>[]>(() => {
    const out: DataColumn<AdminUser>[] = [
      {
        id: 'user',
        header: t('users.columns.user'),
        primary: true,
        cell: (user) => (
          <div css={{ display: 'grid', gap: 2, minWidth: 0 }}>
            <span css={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{user.username}</span>
            <span css={{ fontSize: theme.font.size.sm, fontWeight: theme.font.weight.normal, color: theme.colors.muted, overflowWrap: 'anywhere' }}>{user.email}</span>
          </div>
        ),
      },
      { id: 'role', header: t('users.columns.role'), cell: (user) => <Badge tone={user.role >= 7 ? 'primary' : 'neutral'}>{user.role_name}</Badge> },
      {
        id: 'status',
        header: t('users.columns.status'),
        cell: (user) => (
          <div css={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
            {user.banned ? (
              <Badge tone="danger">{t('users.status.banned')}</Badge>
            ) : user.verified ? (
              <Badge tone="success">{t('users.status.active')}</Badge>
            ) : (
              <Badge tone="warning">{t('users.status.unverified')}</Badge>
            )}
            {(user.review_flags ?? []).length > 0 && <Badge tone="warning">{t('reviewFlags.badge')}</Badge>}
          </div>
        ),
      },
      { id: 'coins', header: t('users.columns.coins'), align: 'end', cell: (user) => t('common.count', { value: user.coins }) },
      { id: 'created', header: t('users.columns.created'), cell: (user) => dateTime(user.created_at) },
    ];
    if (mayEdit || mayDelete) {
      out.push({
        id: 'actions',
        header: t('common.actions'),
        align: 'end',
        cell: (user) => (
          <RowActions
            actions={[
              mayEdit && { to: ADMIN_PATHS.userEdit(user.uuid), text: t('common.edit'), label: t('users.editUser', { name: user.username }) },
              mayDelete && { to: ADMIN_PATHS.userDelete(user.uuid), text: t('common.delete'), label: t('users.deleteUser', { name: user.username }), variant: 'ghost' },
            ]}
          />
        ),
      });
    }
    return out;
  }, [t, mayEdit, mayDelete, dateTime]);

  return (
    <Page
      title={t('users.title')}
      description={t('users.description')}
      actions={<Checkbox label={t('reviewFlags.onlyFlagged')} name="flagged" checked={flaggedOnly} onChange={setFlaggedOnly} />}
    >
      <PagedList
        list={list}
        caption={t('users.title')}
        searchLabel={t('users.search')}
        columns={columns}
        rowKey={(user) => user.uuid}
        empty={{ icon: 'users', title: t('users.empty') }}
      />
    </Page>
  );
}
