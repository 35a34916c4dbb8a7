// The system overview component: the running version, the database, the accounts and who is signed
// in, the plugins and the roles — counted by the server on each load.
import { Grid, StatCard, useApi, useTranslation, useDateTime } from '@orepanel/sdk';
import { ComponentCard } from './ComponentCard';
import { dashboardUrl, type DashboardOverview } from './dashboard-api';

export function SystemOverview() {
  const { t } = useTranslation('admin-dashboard');
  const state = useApi<DashboardOverview>(dashboardUrl.dashboardOverview());
  const dateTime = useDateTime();
  const n = (value: number) => t('common.count', { value });
  return (
    <ComponentCard title={t('dashboard.overview')} state={state}>
      {(o) => (
        <Grid min={200} gap={14}>
          <StatCard icon="gear" label={t('dashboard.version')} value={o.version} hint={t('dashboard.runtime', { node: o.node_version })} />
          <StatCard icon="database" label={t('dashboard.database')} value={o.dialect} hint={t('dashboard.startedAt', { when: dateTime(o.started_at) })} />
          <StatCard
            icon="users"
            label={t('dashboard.users')}
            value={n(o.accounts.total)}
            hint={t('dashboard.accountsHint', { banned: o.accounts.banned, unverified: o.accounts.unverified, twoFa: o.accounts.two_fa })}
          />
          <StatCard icon="clock" label={t('dashboard.sessions')} value={n(o.accounts.active_sessions)} />
          <StatCard
            icon="plug"
            label={t('dashboard.pluginsEnabled')}
            value={n(o.plugins.enabled)}
            hint={t('dashboard.pluginsHint', { total: o.plugins.installed, refused: o.plugins.refused })}
          />
          <StatCard icon="shield" label={t('dashboard.roles')} value={n(o.roles)} />
        </Grid>
      )}
    </ComponentCard>
  );
}
