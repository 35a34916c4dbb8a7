// What the image host's API answers and takes, written once for the server and the pages.

/** A customer's image as their list shows it (the answer adds its public viewer link). */
export interface ImageView {
  id: number;
  name: string;
  original_name: string;
  type: string;
  size: number;
  created_at: string;
}

/** The Open Graph card a viewer link shows instead of the bare file, when the owner turns it on. */
export interface EmbedSettings {
  enabled: boolean;
  title: string;
  description: string;
  color: string;
}

export const REPORT_REASONS = ['inappropriate', 'copyright', 'spam', 'harassment', 'violence', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_STATUSES = ['pending', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
