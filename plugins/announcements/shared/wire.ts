// What the announcements API answers and takes, written once for the server that answers and the
// pages that read it, so a field added on one side cannot silently go missing on the other.

export const SEVERITIES = ['info', 'success', 'warning', 'danger'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** draft: no publish time; scheduled: publishes later; live; expired */
export const STATUSES = ['draft', 'scheduled', 'live', 'expired'] as const;
export type AnnouncementStatus = (typeof STATUSES)[number];

export interface AnnouncementImage {
  key: string;
  name: string;
  url: string;
  size: number;
}

/** What an administrator writes (create and edit). */
export interface AnnouncementInput {
  title: string;
  summary: string;
  body: string;
  tags: string[];
  severity: Severity;
  pinned: boolean;
  /** also mail it to the audience (those who accept announcement mail) once it is live */
  mail: boolean;
  /** empty: everyone */
  role_ids: number[];
  publish_at: string | null;
  expire_at: string | null;
}

/** An announcement as the administrators' pages see it. */
export interface AdminAnnouncement extends AnnouncementInput {
  id: number;
  status: AnnouncementStatus;
  author: string | null;
  images: AnnouncementImage[];
  created_at: string;
  updated_at: string;
}

/** An announcement as a reader's list shows it. */
export interface AnnouncementCard {
  id: number;
  title: string;
  summary: string;
  tags: string[];
  severity: Severity;
  pinned: boolean;
  publish_at: string;
  /** the first image, for the card */
  image: string | null;
  read: boolean;
}

export interface AnnouncementDetail extends AnnouncementCard {
  body_html: string;
  images: AnnouncementImage[];
  expire_at: string | null;
}
