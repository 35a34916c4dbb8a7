// The announcements plugin's API: administrators write Markdown announcements (scheduled, expiring,
// for everyone or chosen roles) with images; readers see the published ones meant for them, with an
// unread count on the sidebar and pinned warnings as banners.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { registerAdminRoutes } from './admin-routes';
import { AnnouncementMail, MAIL_JOB, MAIL_JOB_INTERVAL_MS } from './announcement-mail';
import { Announcements } from './announcements';
import { ANNOUNCEMENT_MIGRATIONS, type AnnouncementTables } from './tables';
import { registerUserRoutes } from './user-routes';

export const UNREAD_BADGE = 'unread';

export default defineServerPlugin({
  id: 'announcements',
  migrations: ANNOUNCEMENT_MIGRATIONS,
  register(app, ctx) {
    const db = ctx.db.withTables<AnnouncementTables>();
    const announcements = new Announcements(db, ctx);
    const mail = new AnnouncementMail(db, ctx);
    ctx.jobs.every(MAIL_JOB, MAIL_JOB_INTERVAL_MS, () => mail.run());
    registerAdminRoutes(app, ctx, announcements);
    registerUserRoutes(app, ctx, announcements);
    ctx.nav.badge(UNREAD_BADGE, (user) => announcements.unreadCount(user));
  },
});
