// The activity component: the latest entries of the audit log across every account — sign-ins,
// sign-ups, account changes and every administrator action — newest first.
import { Button, theme, useApi, useTranslation, useDateTime } from '@orepanel/sdk';
import { ActionCode, useEntryPeople } from './audit-entry';
import { ComponentCard } from './ComponentCard';
import { dashboardUrl, type DashboardAuditEntry } from './dashboard-api';

const FEED_LENGTH = 15;

export function ActivityFeed() {
  const { t } = useTranslation('admin-dashboard');
  const state = useApi<{ data: DashboardAuditEntry[] }>(dashboardUrl.dashboardActivity(FEED_LENGTH));
  const dateTime = useDateTime();
  const people = useEntryPeople();
  return (
    <ComponentCard
      title={t('dashboard.activity.title')}
      state={state}
      lines={6}
      actions={
        <Button size="sm" variant="ghost" icon="clock" onClick={state.reload} loading={state.loading && state.data !== undefined}>
          {t('dashboard.refresh')}
        </Button>
      }
    >
      {({ data }) =>
        data.length === 0 ? (
          <p css={{ margin: 0, color: theme.colors.muted }}>{t('activity.empty')}</p>
        ) : (
          <ol aria-label={t('dashboard.activity.title')} css={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 2 }}>
            {data.map((entry) => (
              <li
                key={entry.id}
                css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '4px 10px', padding: '6px 0', borderBottom: `1px solid ${theme.colors.border}` }}
              >
                <ActionCode action={entry.action} />
                <span css={{ fontSize: theme.font.size.sm }}>{people(entry)}</span>
                <time dateTime={entry.created_at} css={{ marginLeft: 'auto', color: theme.colors.muted, fontSize: theme.font.size.sm }}>
                  {dateTime(entry.created_at)}
                </time>
              </li>
            ))}
          </ol>
        )
      }
    </ComponentCard>
  );
}
