// The announcements API as the pages use it: addresses, answer shapes, and the severity's colours.
import type { BadgeTone, Tone } from '@orepanel/sdk';
import type { AnnouncementStatus, Severity } from '../shared/wire';

export { SEVERITIES, STATUSES } from '../shared/wire';
export type { AdminAnnouncement, AnnouncementCard, AnnouncementDetail, AnnouncementImage, AnnouncementStatus, Severity } from '../shared/wire';

export const PERMISSIONS = {
  list: 'admin.announcements.list',
  create: 'admin.announcements.create',
  edit: 'admin.announcements.edit',
  delete: 'admin.announcements.delete',
} as const;

export const LIMITS = { titleMaxLength: 160, summaryMaxLength: 300, bodyMaxLength: 50_000, tags: 10 } as const;
/** the server's tag rule (schemas.ts TAG_PATTERN) */
export const TAG = /^[a-z0-9][a-z0-9-]{0,31}$/;

export const url = {
  mine: '/api/user/announcements',
  one: (id: number | string) => `/api/user/announcements/${id}`,
  read: (id: number) => `/api/user/announcements/${id}/read`,
  banners: '/api/user/announcements/banners',
  dismiss: (id: number) => `/api/user/announcements/${id}/dismiss`,
  admin: '/api/admin/announcements',
  adminOne: (id: number | string) => `/api/admin/announcements/${id}`,
  preview: '/api/admin/announcements/preview',
  images: (id: number) => `/api/admin/announcements/${id}/images`,
  image: (id: number, key: string) => `/api/admin/announcements/${id}/images/${key}`,
} as const;

export const path = {
  list: '/announcements',
  detail: (id: number) => `/announcements?id=${id}`,
  admin: '/mc-admin/announcements',
  create: '/mc-admin/announcements/create',
  edit: (id: number) => `/mc-admin/announcements/${id}/edit`,
  delete: (id: number) => `/mc-admin/announcements/${id}/delete`,
} as const;

export interface Banner {
  id: number;
  title: string;
  summary: string;
  severity: Severity;
}

export const severityBadge: Record<Severity, BadgeTone> = { info: 'info', success: 'success', warning: 'warning', danger: 'danger' };
export const severityAlert: Record<Severity, Tone> = { info: 'info', success: 'success', warning: 'warning', danger: 'error' };
export const statusBadge: Record<AnnouncementStatus, BadgeTone> = { draft: 'neutral', scheduled: 'info', live: 'success', expired: 'warning' };
