// The permissions the admin screens check (the server's catalogue, spec §6). The routes carry theirs
// in plugin.json; these decide what a page shows inside (buttons, dashboard components).
export const PERMISSIONS = Object.freeze({
  dashboardView: 'admin.dashboard.view',
  usersList: 'admin.users.list',
  usersEdit: 'admin.users.edit',
  usersDelete: 'admin.users.delete',
  rolesList: 'admin.roles.list',
  rolesCreate: 'admin.roles.create',
  rolesEdit: 'admin.roles.edit',
  rolesDelete: 'admin.roles.delete',
  permissionsList: 'admin.permissions.list',
  settingsView: 'admin.settings.view',
  settingsEdit: 'admin.settings.edit',
  pluginsList: 'admin.plugins.list',
  pluginsEdit: 'admin.plugins.edit',
  healthView: 'admin.health.view',
  mailTemplatesList: 'admin.mail.templates.list',
  mailTemplatesCreate: 'admin.mail.templates.create',
  mailTemplatesEdit: 'admin.mail.templates.edit',
  mailTemplatesDelete: 'admin.mail.templates.delete',
  redirectLinksList: 'admin.redirect.links.list',
  redirectLinksCreate: 'admin.redirect.links.create',
  redirectLinksEdit: 'admin.redirect.links.edit',
  redirectLinksDelete: 'admin.redirect.links.delete',
});

/** spec §6 "dashboard components": each component of /mc-admin shows only with its permission. */
export const DASHBOARD_COMPONENTS = Object.freeze({
  systemOverview: 'admin.dashboard.components.system.overview',
  updates: 'admin.dashboard.components.system.updates',
  logs: 'admin.dashboard.components.system.logs',
  analytics: 'admin.dashboard.components.ataglanceanalytics.view',
  support: 'admin.dashboard.components.support.view',
  quickActions: 'admin.dashboard.components.quickactions.view',
  activity: 'admin.dashboard.components.activity.view',
});
