// The image host's settings as numbers and types: read at each request, so an administrator's change
// applies to the next upload without a restart.
import { MAX_STORED_FILE_BYTES, type StoredFileType } from '@orepanel/sdk/server';

/** the names an administrator lists in image_hosting_types, and the type each one means */
export const IMAGE_TYPE_NAMES: Readonly<Record<string, StoredFileType>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export const LIMIT_SETTINGS = [
  'image_hosting_types',
  'image_hosting_max_mb',
  'image_hosting_quota_mb',
  'image_hosting_coins_per_upload',
  'rate_limit_image_hosting_uploads_per_minute',
] as const;

export const MB = 1024 * 1024;

export interface HostingLimits {
  types: StoredFileType[];
  maxBytes: number;
  quotaBytes: number;
  coinsPerUpload: number;
  uploadsPerMinute: number;
}

function whole(value: unknown, fallback: number, min: number, max: number): number {
  const n = Number(value);
  return Math.min(max, Math.max(min, Number.isFinite(n) ? Math.floor(n) : fallback));
}

/** The settings as limits: unknown type names are ignored (none known: no upload is accepted). */
export function hostingLimits(values: Record<string, unknown>): HostingLimits {
  const types = String(values.image_hosting_types ?? '')
    .split(/[\s,;]+/)
    .map((name) => name.trim().toLowerCase().replace(/^\./, ''))
    .filter((name) => Object.hasOwn(IMAGE_TYPE_NAMES, name))
    .map((name) => IMAGE_TYPE_NAMES[name] as StoredFileType);
  return {
    types: [...new Set(types)],
    maxBytes: Math.min(MAX_STORED_FILE_BYTES, whole(values.image_hosting_max_mb, 10, 1, 25) * MB),
    quotaBytes: whole(values.image_hosting_quota_mb, 250, 1, 1_000_000) * MB,
    coinsPerUpload: whole(values.image_hosting_coins_per_upload, 0, 0, 1_000_000),
    uploadsPerMinute: whole(values.rate_limit_image_hosting_uploads_per_minute, 20, 1, 100_000),
  };
}
