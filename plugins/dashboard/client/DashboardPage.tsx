// /dashboard: a greeting, the coin balance and activity, the resources the customer owns (all from the
// session, which the kernel refreshes every 60 s: spec §4), the latest coin movements (paged), then
// what other plugins contribute: an ad (dashboard.ads), announcements, widgets.
import { Alert, Card, EmptyState, Grid, LedgerList, Page, Skeleton, Slot, StatCard, useSession, useSlotEntries, useTranslation } from '@orepanel/sdk';
import { DashboardSection } from './DashboardSection';
import { activityStats, resourceStats, type DashboardStat } from './dashboard-stats';

function StatGrid({ stats }: { stats: DashboardStat[] }) {
  return (
    <Grid min={150} gap={12}>
      {stats.map((stat) => (
        <StatCard key={stat.id} label={stat.label} value={stat.value} icon={stat.icon} hint={stat.hint} />
      ))}
    </Grid>
  );
}

function DashboardSkeleton({ title }: { title: string }) {
  const { t } = useTranslation('dashboard');
  return (
    <Page title={title}>
      <div aria-busy="true" css={{ display: 'grid', gap: 20 }}>
        <Grid min={150} gap={12}>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} height={78} radius="14px" label={t('loading')} />
          ))}
        </Grid>
        <Skeleton height={20} width="200px" label={t('loading')} />
        <Grid min={150} gap={12}>
          {Array.from({ length: 7 }, (_, i) => (
            <Skeleton key={i} height={78} radius="14px" label={t('loading')} />
          ))}
        </Grid>
      </div>
    </Page>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const { status, user, billing, stats } = useSession();
  const widgets = useSlotEntries('dashboard.widgets');

  if (!user) {
    if (status === 'idle' || status === 'loading') return <DashboardSkeleton title={t('title')} />;
    return (
      <Page title={t('title')}>
        <Alert tone="error">{t('unavailable')}</Alert>
      </Page>
    );
  }

  const name = user.first_name.trim() || user.username;
  const greeting = name ? t('greeting.named', { name }) : t('greeting.anonymous');

  return (
    <Page title={greeting} description={t('greeting.subtitle')}>
      <DashboardSection title={t('sections.overview')}>
        <StatGrid stats={activityStats(t, billing, stats)} />
      </DashboardSection>

      {/* an ad, when the panel shows ads (the ads plugin; nothing at all while they are off) */}
      <Slot name="dashboard.ads" loading={false} />

      {billing && (
        <DashboardSection title={t('sections.resources')} hint={t('sections.resourcesHint')}>
          <StatGrid stats={resourceStats(t, billing)} />
        </DashboardSection>
      )}

      <DashboardSection title={t('sections.transactions')} hint={t('sections.transactionsHint')}>
        {/* keyed on the balance: when a refresh brings a new balance, the list shows what moved it */}
        <LedgerList key={String(billing?.coins ?? '')} url="/api/user/wallet/transactions" perPage={5} caption={t('sections.transactions')} />
      </DashboardSection>

      <DashboardSection title={t('sections.announcements')}>
        <div css={{ display: 'grid', gap: 14 }}>
          <Slot
            name="dashboard.announcements"
            fallback={
              <Card>
                <EmptyState icon="mail" title={t('announcements.emptyTitle')} text={t('announcements.emptyText')} />
              </Card>
            }
          />
        </div>
      </DashboardSection>

      {widgets.length > 0 && (
        <DashboardSection title={t('sections.widgets')}>
          <Grid min={280} gap={14}>
            <Slot name="dashboard.widgets" />
          </Grid>
        </DashboardSection>
      )}
    </Page>
  );
}
