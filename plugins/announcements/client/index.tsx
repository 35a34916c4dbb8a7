// The announcements plugin's pages and slots; setup only hands the kernel lazy loaders.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'announcements',
  setup(ctx) {
    ctx.routes.provide('AnnouncementsPage', () => import('./AnnouncementsPage'));
    ctx.routes.provide('AdminAnnouncementsPage', () => import('./admin/AdminAnnouncementsPage'));
    ctx.routes.provide('AnnouncementCreatePage', () => import('./admin/AnnouncementCreatePage'));
    ctx.routes.provide('AnnouncementEditPage', () => import('./admin/AnnouncementEditPage'));
    ctx.routes.provide('AnnouncementDeletePage', () => import('./admin/AnnouncementDeletePage'));
    ctx.slots.provide('DashboardAnnouncements', () => import('./DashboardAnnouncements'));
    ctx.slots.provide('AnnouncementBanners', () => import('./AnnouncementBanners'));
  },
});
