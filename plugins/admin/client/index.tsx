// The admin plugin: the /mc-admin area. Every route is guarded by the kernel from plugin.json (admin
// role + permission) before any of these chunks is fetched; the server checks every call again.
import { definePlugin } from '@orepanel/sdk';
import { connectLinkEvents } from './redirect-links/link-events';

export default definePlugin({
  id: 'admin',
  setup(ctx) {
    ctx.routes.provide('AdminDashboardPage', () => import('./dashboard/AdminDashboardPage'));
    ctx.routes.provide('UsersPage', () => import('./users/UsersPage'));
    ctx.routes.provide('UserEditPage', () => import('./users/UserEditPage'));
    ctx.routes.provide('UserDeletePage', () => import('./users/UserDeletePage'));
    ctx.routes.provide('RolesPage', () => import('./roles/RolesPage'));
    ctx.routes.provide('RoleCreatePage', () => import('./roles/RoleCreatePage'));
    ctx.routes.provide('RoleEditPage', () => import('./roles/RoleEditPage'));
    ctx.routes.provide('RoleDeletePage', () => import('./roles/RoleDeletePage'));
    ctx.routes.provide('RolePermissionsPage', () => import('./roles/RolePermissionsPage'));
    ctx.routes.provide('SettingsPage', () => import('./settings/SettingsPage'));
    ctx.routes.provide('PluginsPage', () => import('./plugins/PluginsPage'));
    ctx.routes.provide('PluginConfigPage', () => import('./plugins/PluginConfigPage'));
    ctx.routes.provide('HealthPage', () => import('./health/HealthPage'));
    ctx.routes.provide('MailTemplatesPage', () => import('./mail/MailTemplatesPage'));
    ctx.routes.provide('MailTemplateCreatePage', () => import('./mail/MailTemplateCreatePage'));
    ctx.routes.provide('MailTemplateEditPage', () => import('./mail/MailTemplateEditPage'));
    ctx.routes.provide('MailTemplateDeletePage', () => import('./mail/MailTemplateDeletePage'));
    ctx.routes.provide('RedirectLinksPage', () => import('./redirect-links/RedirectLinksPage'));
    ctx.routes.provide('RedirectLinkCreatePage', () => import('./redirect-links/RedirectLinkCreatePage'));
    ctx.routes.provide('RedirectLinkEditPage', () => import('./redirect-links/RedirectLinkEditPage'));
    ctx.routes.provide('RedirectLinkDeletePage', () => import('./redirect-links/RedirectLinkDeletePage'));
    connectLinkEvents(ctx.events);
  },
});
