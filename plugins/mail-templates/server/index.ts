// The mail-templates plugin's API: the editor of the mails the panel sends (/api/admin/mail-templates).
// Only the editor is the plugin's: the templates and the sending stay the core mail transport's
// (ctx.mail), so the panel's own mails still go out while this plugin is disabled.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { registerAdminRoutes } from './admin-routes';

export default defineServerPlugin({
  id: 'mail-templates',
  register(app, ctx) {
    registerAdminRoutes(app, ctx);
  },
});
