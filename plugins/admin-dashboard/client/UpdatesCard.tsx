// The updates component: the running version, every migration set (the core's and each plugin's) with
// what is pending or was applied by a newer release, and the plugins the panel refused, with why.
import { Alert, Badge, Button, PermissionGate, theme, useApi, useTranslation, ADMIN_PATHS, ADMIN_PERMISSIONS, useDateTime } from '@orepanel/sdk';
import { ComponentCard } from './ComponentCard';
import { dashboardUrl, type DashboardUpdates } from './dashboard-api';

const code = { fontFamily: theme.font.mono, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' } as const;

export function UpdatesCard() {
  const { t } = useTranslation('admin-dashboard');
  const state = useApi<DashboardUpdates>(dashboardUrl.dashboardUpdates());
  const dateTime = useDateTime();
  return (
    <ComponentCard title={t('dashboard.updates.title')} state={state}>
      {(u) => {
        const unknown = u.migrations.reduce((sum, set) => sum + set.unknown.length, 0);
        return (
          <div css={{ display: 'grid', gap: 14 }}>
            <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 10 }}>
              <span>
                {t('dashboard.updates.running')} <strong css={code}>{u.version}</strong>
              </span>
              {u.pending === 0 ? <Badge tone="success">{t('dashboard.updates.upToDate')}</Badge> : <Badge tone="warning">{t('dashboard.updates.pending', { n: u.pending })}</Badge>}
            </div>
            {unknown > 0 && <Alert tone="warning">{t('dashboard.updates.newerRelease', { n: unknown })}</Alert>}
            <ul aria-label={t('dashboard.updates.sets')} css={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 8 }}>
              {u.migrations.map((set) => (
                <li key={set.owner} css={{ display: 'grid', gap: 2, padding: '8px 10px', borderRadius: theme.radii.md, background: theme.colors.surfaceRaised }}>
                  <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
                    <strong>{set.owner === 'core' ? t('dashboard.updates.core') : set.owner}</strong>
                    <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('dashboard.updates.applied', { n: set.applied })}</span>
                  </div>
                  {set.latest && (
                    <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>
                      {t('dashboard.updates.latest', { when: dateTime(set.latest.applied_at) })} <span css={code}>{set.latest.name}</span>
                    </span>
                  )}
                  {set.pending.map((name) => (
                    <span key={name} css={{ color: theme.colors.warning, fontSize: theme.font.size.sm }}>
                      {t('dashboard.updates.pendingOne')} <span css={code}>{name}</span>
                    </span>
                  ))}
                  {set.unknown.map((name) => (
                    <span key={name} css={{ color: theme.colors.warning, fontSize: theme.font.size.sm }}>
                      {t('dashboard.updates.unknownOne')} <span css={code}>{name}</span>
                    </span>
                  ))}
                </li>
              ))}
            </ul>
            {u.refused.length > 0 && (
              <div css={{ display: 'grid', gap: 6 }}>
                <strong>{t('dashboard.updates.refused', { n: u.refused.length })}</strong>
                <ul css={{ margin: 0, paddingLeft: 18, display: 'grid', gap: 4 }}>
                  {u.refused.map((plugin) => (
                    <li key={plugin.id} css={{ fontSize: theme.font.size.sm }}>
                      <span css={code}>{plugin.id}</span>: {plugin.reason}
                    </li>
                  ))}
                </ul>
                <PermissionGate permission={ADMIN_PERMISSIONS.pluginsList}>
                  <div>
                    <Button size="sm" variant="secondary" icon="plug" to={ADMIN_PATHS.plugins}>
                      {t('dashboard.actions.plugins')}
                    </Button>
                  </div>
                </PermissionGate>
              </div>
            )}
          </div>
        );
      }}
    </ComponentCard>
  );
}
