// The quick actions component: a button for each admin screen this administrator may open — no link
// to a screen the guards would refuse, nor to one whose plugin an administrator switched off.
import { ADMIN_PATHS, ADMIN_PERMISSIONS, Button, Card, EmptyState, type IconName, useRouteAvailable, useSession, useTranslation } from '@orepanel/sdk';

interface QuickAction {
  to: string;
  label: string;
  icon: IconName;
  /** the permission of the route it opens (plugin.json) */
  permission: string;
}

// The screens of the switchable admin plugins (their own plugin.json routes and permissions).
const MAIL_TEMPLATES = { path: '/mc-admin/mail-templates', permission: 'admin.mail.templates.list' };
const REDIRECT_LINK_CREATE = { path: '/mc-admin/redirect-links/create', permission: 'admin.redirect.links.create' };
const HEALTH = { path: '/mc-admin/health', permission: 'admin.health.view' };

export function QuickActions() {
  const { t } = useTranslation('admin-dashboard');
  const { hasPermission } = useSession();
  const actions: QuickAction[] = [
    { to: ADMIN_PATHS.users, label: t('dashboard.actions.users'), icon: 'users', permission: ADMIN_PERMISSIONS.usersList },
    { to: ADMIN_PATHS.roles, label: t('dashboard.actions.roles'), icon: 'shield', permission: ADMIN_PERMISSIONS.rolesList },
    { to: ADMIN_PATHS.roleCreate, label: t('dashboard.actions.roleCreate'), icon: 'shield', permission: ADMIN_PERMISSIONS.rolesCreate },
    { to: ADMIN_PATHS.settings, label: t('dashboard.actions.settings'), icon: 'settings', permission: ADMIN_PERMISSIONS.settingsView },
    { to: ADMIN_PATHS.plugins, label: t('dashboard.actions.plugins'), icon: 'plug', permission: ADMIN_PERMISSIONS.pluginsList },
    { to: MAIL_TEMPLATES.path, label: t('dashboard.actions.mailTemplates'), icon: 'mail', permission: MAIL_TEMPLATES.permission },
    { to: REDIRECT_LINK_CREATE.path, label: t('dashboard.actions.redirectLinkCreate'), icon: 'link', permission: REDIRECT_LINK_CREATE.permission },
    { to: HEALTH.path, label: t('dashboard.actions.health'), icon: 'chart', permission: HEALTH.permission },
  ];
  const shown = actions.filter((a) => hasPermission(a.permission));
  return (
    <Card title={t('dashboard.quickActions')}>
      {shown.length === 0 ? (
        <EmptyState icon="lock" title={t('dashboard.noActions')} />
      ) : (
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          {shown.map((action) => (
            <QuickActionButton key={action.to} action={action} />
          ))}
        </div>
      )}
    </Card>
  );
}

/** Nothing when the screen's plugin is switched off (its route is then not there). */
function QuickActionButton({ action }: { action: QuickAction }) {
  if (!useRouteAvailable(action.to)) return null;
  return (
    <Button variant="secondary" icon={action.icon} to={action.to}>
      {action.label}
    </Button>
  );
}
