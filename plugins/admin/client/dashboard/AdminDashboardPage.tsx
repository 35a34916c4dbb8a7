// /mc-admin: the admin dashboard. Each component shows only with its permission (spec §6 "dashboard
// components"), and only with real data: the system overview (running version, plugins, users,
// roles — each figure only when the administrator may read its list) and quick actions (the screens
// this administrator may open). Components without a data source yet (updates, logs, analytics,
// activity across accounts) are not shown rather than shown empty.
import { Button, Card, EmptyState, Grid, Page, PermissionGate, StatCard, useApi, useHasPermission, useSession, useSetting, useTranslation, type IconName, type PageMeta } from '@orepanel/sdk';
import { adminPath, adminUrl, type AdminPlugin, type AdminRole } from '../admin-api';
import { DASHBOARD_COMPONENTS, PERMISSIONS } from '../admin-permissions';

function SystemOverview() {
  const { t } = useTranslation('admin');
  const version = useSetting('app_version');
  const mayListUsers = useHasPermission(PERMISSIONS.usersList);
  const mayListPlugins = useHasPermission(PERMISSIONS.pluginsList);
  const mayListRoles = useHasPermission(PERMISSIONS.rolesList);
  // one row is enough: the total is in meta
  const users = useApi<{ meta: PageMeta }>(mayListUsers ? `${adminUrl.users()}?page=1&per_page=1` : null);
  const plugins = useApi<{ data: AdminPlugin[] }>(mayListPlugins ? adminUrl.plugins() : null);
  const roles = useApi<{ data: AdminRole[] }>(mayListRoles ? adminUrl.roles() : null);

  const figure = (loading: boolean, failed: boolean, value: number | undefined) =>
    value !== undefined ? t('common.count', { value }) : failed ? t('dashboard.unavailable') : loading ? '…' : '—';
  const pluginList = plugins.data?.data;
  const refused = pluginList?.filter((p) => p.state === 'refused').length;

  return (
    <section aria-labelledby="admin-overview" css={{ display: 'grid', gap: 12 }}>
      <h2 id="admin-overview" css={{ margin: 0, fontSize: 16, fontWeight: 600 }}>
        {t('dashboard.overview')}
      </h2>
      <Grid min={200} gap={14}>
        <StatCard icon="gear" label={t('dashboard.version')} value={typeof version === 'string' && version ? version : '—'} />
        {mayListUsers && <StatCard icon="users" label={t('dashboard.users')} value={figure(users.loading, users.error !== null, users.data?.meta.total)} />}
        {mayListPlugins && (
          <StatCard
            icon="plug"
            label={t('dashboard.pluginsEnabled')}
            value={figure(plugins.loading, plugins.error !== null, pluginList?.filter((p) => p.state === 'enabled').length)}
            hint={pluginList ? t('dashboard.pluginsHint', { total: pluginList.length, refused: refused ?? 0 }) : undefined}
          />
        )}
        {mayListRoles && <StatCard icon="shield" label={t('dashboard.roles')} value={figure(roles.loading, roles.error !== null, roles.data?.data.length)} />}
      </Grid>
    </section>
  );
}

interface QuickAction {
  to: string;
  label: string;
  icon: IconName;
  permission: string;
}

function QuickActions() {
  const { t } = useTranslation('admin');
  const { hasPermission } = useSession();
  const actions: QuickAction[] = [
    { to: adminPath.users, label: t('dashboard.actions.users'), icon: 'users', permission: PERMISSIONS.usersList },
    { to: adminPath.roles, label: t('dashboard.actions.roles'), icon: 'shield', permission: PERMISSIONS.rolesList },
    { to: adminPath.roleCreate, label: t('dashboard.actions.roleCreate'), icon: 'shield', permission: PERMISSIONS.rolesCreate },
    { to: adminPath.settings, label: t('dashboard.actions.settings'), icon: 'settings', permission: PERMISSIONS.settingsView },
    { to: adminPath.plugins, label: t('dashboard.actions.plugins'), icon: 'plug', permission: PERMISSIONS.pluginsList },
  ];
  const shown = actions.filter((a) => hasPermission(a.permission));
  return (
    <Card title={t('dashboard.quickActions')}>
      {shown.length === 0 ? (
        <EmptyState icon="lock" title={t('dashboard.noActions')} />
      ) : (
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          {shown.map((action) => (
            <Button key={action.to} variant="secondary" icon={action.icon} to={action.to}>
              {action.label}
            </Button>
          ))}
        </div>
      )}
    </Card>
  );
}

export default function AdminDashboardPage() {
  const { t } = useTranslation('admin');
  const anyComponent = [useHasPermission(DASHBOARD_COMPONENTS.systemOverview), useHasPermission(DASHBOARD_COMPONENTS.quickActions)].some(Boolean);
  return (
    <Page title={t('dashboard.title')} description={t('dashboard.description')}>
      <PermissionGate permission={DASHBOARD_COMPONENTS.systemOverview}>
        <SystemOverview />
      </PermissionGate>
      <PermissionGate permission={DASHBOARD_COMPONENTS.quickActions}>
        <QuickActions />
      </PermissionGate>
      {!anyComponent && (
        <Card>
          <EmptyState icon="chart" title={t('dashboard.nothingTitle')} text={t('dashboard.nothingText')} />
        </Card>
      )}
    </Page>
  );
}
