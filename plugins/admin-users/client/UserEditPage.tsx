// /mc-admin/users/:uuid/edit: role, names, username, e-mail and resource limits; ban with a reason
// or unban; the balance with adjustments through the wallet ledger and the ledger itself; and the
// account's activity. Only what changed is sent; the server's field errors land on their fields.
import { Button, LedgerList, Page, PermissionGate, theme, useApi, useHasPermission, useParams, useTranslation, ADMIN_PATHS, ADMIN_PERMISSIONS, ResourceState } from '@orepanel/sdk';
import { useState } from 'react';
import { BanCard } from './BanCard';
import { ReviewFlagsCard } from './ReviewFlagsCard';
import { CoinsCard } from './CoinsCard';
import { UserAccountForm } from './UserAccountForm';
import { UserActivity } from './UserActivity';
import { usersUrl, type AdminUser } from './users-api';

export default function UserEditPage() {
  const { t } = useTranslation('admin-users');
  const { uuid = '' } = useParams();
  const loaded = useApi<{ user: AdminUser }>(usersUrl.user(uuid));
  // the newest copy: what the last save answered, else what was loaded
  const [saved, setSaved] = useState<AdminUser | null>(null);
  const user = saved ?? loaded.data?.user;
  const canEdit = useHasPermission(ADMIN_PERMISSIONS.usersEdit);
  // bumped by an adjustment: the ledger list reloads from its first page
  const [ledgerVersion, setLedgerVersion] = useState(0);
  const adjusted = (balance: number) => {
    if (user) setSaved({ ...user, coins: balance });
    setLedgerVersion((v) => v + 1);
  };

  return (
    <Page
      title={user ? t('userEdit.title', { name: user.username }) : t('titles.userEdit')}
      description={user ? user.email : undefined}
      actions={
        <>
          <Button variant="secondary" to={ADMIN_PATHS.users}>
            {t('userEdit.back')}
          </Button>
          {user && (
            <PermissionGate permission={ADMIN_PERMISSIONS.usersDelete}>
              <Button variant="danger" to={ADMIN_PATHS.userDelete(user.uuid)}>
                {t('common.delete')}
              </Button>
            </PermissionGate>
          )}
        </>
      }
    >
      <ResourceState data={user} loading={loaded.loading} error={loaded.error} reload={loaded.reload}>
        {(current) => (
          <div
            css={{
              display: 'grid',
              gap: 20,
              gridTemplateColumns: 'minmax(0, 1fr)',
              '@media (min-width: 1100px)': { gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1fr)', alignItems: 'start' },
            }}
          >
            <UserAccountForm key={current.updated_at} user={current} onSaved={setSaved} />
            <div css={{ display: 'grid', gap: 20, minWidth: 0 }}>
              <CoinsCard uuid={current.uuid} coins={current.coins} editable={canEdit} onAdjusted={adjusted} />
              <BanCard user={current} onSaved={setSaved} />
              <ReviewFlagsCard uuid={current.uuid} />
            </div>
            <div css={{ '@media (min-width: 1100px)': { gridColumn: '1 / -1' } }}>
              <section css={{ display: 'grid', gap: 10 }}>
                <h2 css={{ margin: 0, fontSize: theme.font.size.lg, fontWeight: theme.font.weight.semibold }}>{t('transactions.title')}</h2>
                <LedgerList key={ledgerVersion} url={usersUrl.userTransactions(current.uuid)} caption={t('transactions.title')} />
              </section>
            </div>
            <div css={{ '@media (min-width: 1100px)': { gridColumn: '1 / -1' } }}>
              <UserActivity uuid={current.uuid} />
            </div>
          </div>
        )}
      </ResourceState>
    </Page>
  );
}
