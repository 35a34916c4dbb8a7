// /mc-admin: the admin dashboard. Each component shows only with its permission (spec §6 "dashboard
// components") — and its data comes from a server route guarded by the same permission
// (server/dashboard-routes.ts), so hiding it here is a courtesy, not the protection. Every figure is
// real: the system overview, updates (version, migrations), logs (security warnings), analytics
// (sign-ups and logins per day), support (the support PIN lookup; no ticket count until tickets
// exist), quick actions and the latest activity.
import { Card, EmptyState, Grid, Page, useSession, useTranslation } from '@orepanel/sdk';
import type { ComponentType } from 'react';
import { ActivityFeed } from './ActivityFeed';
import { AnalyticsCard } from './AnalyticsCard';
import { QuickActions } from './QuickActions';
import { SecurityLogCard } from './SecurityLogCard';
import { SupportCard } from './SupportCard';
import { SystemOverview } from './SystemOverview';
import { UpdatesCard } from './UpdatesCard';
import { DASHBOARD_COMPONENTS } from './dashboard-api';

interface DashboardComponent {
  id: string;
  permission: string;
  Component: ComponentType;
  /** takes the whole width (the others share a row when there is room) */
  wide?: boolean;
}

/** In the order they appear. */
const COMPONENTS: readonly DashboardComponent[] = [
  { id: 'overview', permission: DASHBOARD_COMPONENTS.systemOverview, Component: SystemOverview, wide: true },
  { id: 'quick-actions', permission: DASHBOARD_COMPONENTS.quickActions, Component: QuickActions, wide: true },
  { id: 'analytics', permission: DASHBOARD_COMPONENTS.analytics, Component: AnalyticsCard, wide: true },
  { id: 'updates', permission: DASHBOARD_COMPONENTS.updates, Component: UpdatesCard },
  { id: 'support', permission: DASHBOARD_COMPONENTS.support, Component: SupportCard },
  { id: 'logs', permission: DASHBOARD_COMPONENTS.logs, Component: SecurityLogCard, wide: true },
  { id: 'activity', permission: DASHBOARD_COMPONENTS.activity, Component: ActivityFeed, wide: true },
];

export default function AdminDashboardPage() {
  const { t } = useTranslation('admin-dashboard');
  const { hasPermission } = useSession();
  const shown = COMPONENTS.filter((c) => hasPermission(c.permission));
  return (
    <Page title={t('dashboard.title')} description={t('dashboard.description')}>
      {shown.length === 0 ? (
        <Card>
          <EmptyState icon="chart" title={t('dashboard.nothingTitle')} text={t('dashboard.nothingText')} />
        </Card>
      ) : (
        <Grid min={420} gap={16}>
          {shown.map(({ id, Component, wide }) => (
            <div key={id} data-dashboard-component={id} css={{ minWidth: 0, gridColumn: wide ? '1 / -1' : undefined }}>
              <Component />
            </div>
          ))}
        </Grid>
      )}
    </Page>
  );
}
