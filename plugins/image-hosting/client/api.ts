// The image host's API as the pages use it (server/user-routes.ts, viewer.ts, report-routes.ts).
import type { PageMeta } from '@orepanel/sdk';
import type { ImageView, ReportReason, ReportStatus } from '../shared/wire';

export { REPORT_REASONS, REPORT_STATUSES } from '../shared/wire';
export type { EmbedSettings, ReportReason, ReportStatus } from '../shared/wire';

export interface HostedImage extends ImageView {
  /** the public viewer link */
  url: string;
}

export interface Usage {
  used_bytes: number;
  quota_bytes: number;
  max_bytes: number;
  types: string[];
  coins_per_upload: number;
}

export interface ImagesAnswer {
  data: HostedImage[];
  meta: PageMeta;
  usage: Usage;
}

export interface ImageReport {
  id: number;
  image_name: string;
  image_url: string | null;
  image_present: boolean;
  owner: string | null;
  reason: ReportReason;
  details: string;
  status: ReportStatus;
  created_at: string;
  handled_at: string | null;
}

export const PER_PAGE = 24;

export const imagesUrl = {
  list: (page: number) => `/api/user/images?page=${page}&per_page=${PER_PAGE}`,
  upload: '/api/user/images',
  image: (id: number) => `/api/user/images/${id}`,
  key: '/api/user/images/key',
  rotate: '/api/user/images/key/rotate',
  embed: '/api/user/images/embed',
  sharex: '/api/user/images/sharex',
  report: (name: string) => `/api/i/${encodeURIComponent(name)}/report`,
  raw: (name: string) => `/api/i/${encodeURIComponent(name)}?raw=true`,
  reports: (status: ReportStatus) => `/api/admin/image-reports?status=${status}`,
  resolve: (id: number) => `/api/admin/image-reports/${id}/resolve`,
  dismiss: (id: number) => `/api/admin/image-reports/${id}/dismiss`,
};

/** the names the file picker accepts for the types the server allows */
export function extensionsFor(types: readonly string[]): string[] {
  return types.flatMap((type) => (type === 'image/jpeg' ? ['jpg', 'jpeg'] : [type.replace('image/', '')]));
}
