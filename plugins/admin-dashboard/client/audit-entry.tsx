// How the dashboard names an audit entry: its action code, who did it and to whom.
import { theme, useTranslation } from '@orepanel/sdk';
import type { DashboardAuditEntry } from './dashboard-api';

export function ActionCode({ action }: { action: string }) {
  return <code css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>{action}</code>;
}

/** "alice → bob", "alice", "→ bob" or "System": the accounts an entry names. */
export function useEntryPeople(): (entry: DashboardAuditEntry) => string {
  const { t } = useTranslation('admin-dashboard');
  return (entry) => {
    const actor = entry.actor?.username;
    const target = entry.target?.username;
    if (actor && target && actor !== target) return t('dashboard.people.both', { actor, target });
    if (actor) return actor;
    if (target) return t('dashboard.people.target', { target });
    return t('activity.system');
  };
}
