// The quick actions component: a button for each admin screen this administrator may open — no link
// to a screen the guards would refuse.
import { Button, Card, EmptyState, useSession, useTranslation, type IconName } from '@orepanel/sdk';
import { adminPath } from '../admin-api';
import { PERMISSIONS } from '../admin-permissions';

interface QuickAction {
  to: string;
  label: string;
  icon: IconName;
  /** the permission of the route it opens (plugin.json) */
  permission: string;
}

export function QuickActions() {
  const { t } = useTranslation('admin');
  const { hasPermission } = useSession();
  const actions: QuickAction[] = [
    { to: adminPath.users, label: t('dashboard.actions.users'), icon: 'users', permission: PERMISSIONS.usersList },
    { to: adminPath.roles, label: t('dashboard.actions.roles'), icon: 'shield', permission: PERMISSIONS.rolesList },
    { to: adminPath.roleCreate, label: t('dashboard.actions.roleCreate'), icon: 'shield', permission: PERMISSIONS.rolesCreate },
    { to: adminPath.settings, label: t('dashboard.actions.settings'), icon: 'settings', permission: PERMISSIONS.settingsView },
    { to: adminPath.plugins, label: t('dashboard.actions.plugins'), icon: 'plug', permission: PERMISSIONS.pluginsList },
    { to: adminPath.mailTemplates, label: t('dashboard.actions.mailTemplates'), icon: 'mail', permission: PERMISSIONS.mailTemplatesList },
    { to: adminPath.redirectLinkCreate, label: t('dashboard.actions.redirectLinkCreate'), icon: 'link', permission: PERMISSIONS.redirectLinksCreate },
    { to: adminPath.health, label: t('dashboard.actions.health'), icon: 'chart', permission: PERMISSIONS.healthView },
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
