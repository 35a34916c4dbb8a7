// The logs component: the security warnings of the audit log — failed logins and 2FA codes, banned
// accounts knocking, refused and failed account changes — with how many of each came in the last day.
// The audit log is shared by every instance and survives restarts, unlike one process's output.
import { Badge, Button, DataTable, theme, useApi, useTranslation, type DataColumn, useDateTime } from '@orepanel/sdk';
import { useMemo } from 'react';
import { ActionCode, useEntryPeople } from './audit-entry';
import { ComponentCard } from './ComponentCard';
import { dashboardUrl, type DashboardAuditEntry, type DashboardLogs } from './dashboard-api';

export function SecurityLogCard() {
  const { t } = useTranslation('admin-dashboard');
  const state = useApi<DashboardLogs>(dashboardUrl.dashboardLogs());
  const dateTime = useDateTime();
  const people = useEntryPeople();
  const columns = useMemo<DataColumn<DashboardAuditEntry>[]>(
    () => [
      { id: 'action', header: t('activity.columns.action'), primary: true, cell: (e) => <ActionCode action={e.action} /> },
      { id: 'who', header: t('dashboard.logs.account'), cell: (e) => people(e) },
      { id: 'ip', header: t('activity.columns.ip'), cell: (e) => e.ip ?? '—' },
      { id: 'when', header: t('activity.columns.when'), align: 'end', cell: (e) => dateTime(e.created_at) },
    ],
    [t, dateTime, people],
  );
  return (
    <ComponentCard
      title={t('dashboard.logs.title')}
      state={state}
      actions={
        <Button size="sm" variant="ghost" icon="clock" onClick={state.reload} loading={state.loading && state.data !== undefined}>
          {t('dashboard.refresh')}
        </Button>
      }
    >
      {(logs) => (
        <div css={{ display: 'grid', gap: 12 }}>
          <div css={{ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'center' }}>
            <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('dashboard.logs.lastDay')}</span>
            {logs.last_24h.length === 0 ? (
              <Badge tone="success">{t('dashboard.logs.quiet')}</Badge>
            ) : (
              logs.last_24h.map((c) => (
                <Badge key={c.action} tone="warning">
                  {t('dashboard.logs.count', { action: c.action, n: c.count })}
                </Badge>
              ))
            )}
          </div>
          <DataTable caption={t('dashboard.logs.title')} columns={columns} rows={logs.data} rowKey={(e) => e.id} empty={{ icon: 'shield', title: t('dashboard.logs.empty') }} />
        </div>
      )}
    </ComponentCard>
  );
}
