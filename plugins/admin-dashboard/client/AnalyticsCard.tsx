// The analytics at a glance component: sign-ups and logins per day over the last 14 or 30 days (UTC),
// with the period's totals — counted from the accounts and the audit log.
import { Button, Grid, StatCard, theme, useApi, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { ComponentCard } from './ComponentCard';
import { DailyChart } from './DailyChart';
import { dashboardUrl, ANALYTICS_PERIODS, type AnalyticsPeriod, type DashboardAnalytics } from './dashboard-api';

export function AnalyticsCard() {
  const { t } = useTranslation('admin-dashboard');
  const [days, setDays] = useState<AnalyticsPeriod>(14);
  const state = useApi<DashboardAnalytics>(dashboardUrl.dashboardAnalytics(days));
  const n = (value: number) => t('common.count', { value });
  return (
    <ComponentCard
      title={t('dashboard.analytics.title')}
      state={state}
      lines={6}
      actions={
        <div role="group" aria-label={t('dashboard.analytics.period')} css={{ display: 'inline-flex', gap: 6 }}>
          {ANALYTICS_PERIODS.map((period) => (
            <Button key={period} size="sm" variant={period === days ? 'primary' : 'secondary'} aria-current={period === days ? 'true' : undefined} onClick={() => setDays(period)}>
              {t('dashboard.analytics.days', { n: period })}
            </Button>
          ))}
        </div>
      }
    >
      {(a) => (
        <div css={{ display: 'grid', gap: 16 }}>
          <Grid min={160} gap={12}>
            <StatCard icon="user" label={t('dashboard.analytics.signups')} value={n(a.totals.signups)} />
            <StatCard icon="lock" label={t('dashboard.analytics.logins')} value={n(a.totals.logins)} />
            <StatCard icon="users" label={t('dashboard.analytics.activeUsers')} value={n(a.totals.active_users)} />
            <StatCard icon="database" label={t('dashboard.analytics.accounts')} value={n(a.totals.accounts)} />
          </Grid>
          <DailyChart
            title={t('dashboard.analytics.chartTitle', { n: a.days })}
            dates={a.series.map((p) => p.date)}
            series={[
              { id: 'signups', label: t('dashboard.analytics.signups'), color: theme.colors.success, values: a.series.map((p) => p.signups) },
              { id: 'logins', label: t('dashboard.analytics.logins'), color: theme.colors.primary, values: a.series.map((p) => p.logins) },
            ]}
          />
        </div>
      )}
    </ComponentCard>
  );
}
