// What the server and the pages agree on about library images: the name rule, the types a picture
// may be, and the public address a picture is served at (what the catalog rows keep).

export const IMAGE_RULES = {
  name: { minLength: 1, maxLength: 64 },
  /** the setting images_max_mb is clamped to this range */
  maxMb: { minimum: 1, maximum: 25, default: 2 },
} as const;

/** SVG is never one (it can carry script); neither are PDF or text, which the file service also keeps. */
export const LIBRARY_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type LibraryImageType = (typeof LIBRARY_IMAGE_TYPES)[number];

const EXTENSIONS: Readonly<Record<LibraryImageType, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** where anyone fetches a library picture, under /api */
export const PUBLIC_IMAGE_PREFIX = '/library-images/';

/** The picture's public path: the file's random key with its type's extension (the key never changes its bytes). */
export function publicImagePath(fileKey: string, type: string): string {
  const extension = EXTENSIONS[type as LibraryImageType] ?? 'img';
  return `/api${PUBLIC_IMAGE_PREFIX}${fileKey}.${extension}`;
}

/** A name: trimmed, 1 to 64 characters, no control characters. null: not a name. */
export function cleanImageName(text: string): string | null {
  const name = text.trim();
  if (name.length < IMAGE_RULES.name.minLength || name.length > IMAGE_RULES.name.maxLength) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) return null;
  return name;
}

/**
 * The library file key an image address points at, or null: a path on this site or a full address
 * whose path is a library picture's (`…/api/library-images/<key>.<ext>`, query and fragment ignored).
 */
export function libraryKeyOf(address: string): string | null {
  const path =
    address
      .trim()
      .replace(/^https?:\/\/[^/?#]+/i, '')
      .split(/[?#]/)[0] ?? '';
  const match = /^\/api\/library-images\/([A-Za-z0-9_-]{22})(?:\.[a-z]{2,4})?$/.exec(path);
  return match?.[1] ?? null;
}

/** A picture of the library as the API answers it (/mc-admin/images, the catalog forms' picker). */
export interface LibraryImage {
  id: number;
  name: string;
  /** the public address customers' browsers fetch it at (what a catalog row keeps) */
  url: string;
  type: string;
  size: number;
  width: number | null;
  height: number | null;
  created_by: number | null;
  created_at: string;
}

export type ImageUserKind = 'location' | 'category' | 'egg';

/** A catalog row that shows a picture (a delete is refused while there is one). */
export interface ImageUser {
  kind: ImageUserKind;
  id: number;
  name: string;
}
