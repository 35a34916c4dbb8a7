// The shapes the image library's API answers, its addresses, the screens' addresses and permissions,
// and the error texts the screens share.
import { ADMIN_API, ApiError, useErrorText, useTranslation } from '@orepanel/sdk';
import { useCallback } from 'react';
import type { ImageUser } from '../shared/image-rules';

export type { ImageUser, LibraryImage } from '../shared/image-rules';

export interface UploadLimits {
  max_bytes: number;
  types: string[];
}

export const imagesUrl = {
  images: () => `${ADMIN_API}/images`,
  image: (id: string | number) => `${ADMIN_API}/images/${encodeURIComponent(String(id))}`,
  limits: () => `${ADMIN_API}/images/limits`,
};

export const imagesPath = {
  list: '/mc-admin/images',
  create: '/mc-admin/images/create',
  delete: (id: number | string) => `/mc-admin/images/${id}/delete`,
};

/** where each kind of user is edited (the server catalog's screens) */
export const userPath = (user: ImageUser): string =>
  ({ location: `/mc-admin/locations/${user.id}/edit`, category: `/mc-admin/egg-categories/${user.id}/edit`, egg: `/mc-admin/eggs/${user.id}/edit` })[user.kind];

export const IMAGE_PERMISSIONS = Object.freeze({
  create: 'admin.images.create',
  delete: 'admin.images.delete',
});

/** the full address of a picture, for copying into another site or a chat */
export const absoluteUrl = (url: string): string => new URL(url, window.location.origin).href;

/** The library's own refusals in words; the sdk's texts for the rest. */
export function useImageErrorText(): (error: unknown) => string {
  const fallback = useErrorText();
  const { t, i18n } = useTranslation('images');
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError) {
        const key = `errors.${error.code}`;
        if (i18n.exists(key, { ns: 'images' })) return t(key);
      }
      return fallback(error);
    },
    [fallback, t, i18n],
  );
}
