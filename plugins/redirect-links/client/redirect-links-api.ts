// The shape the redirect links API answers, its addresses, the screens' addresses and permissions.
import { ADMIN_API } from '@orepanel/sdk';

/** A link of the navigation (/mc-admin/redirect-links). */
export interface RedirectLink {
  id: number;
  name: string;
  url: string;
  /** an icon name of the UI kit, or null for the plain link icon */
  icon: string | null;
  /** smaller first in the navigation */
  order: number;
  created_at: string;
  updated_at: string;
}

export const linksUrl = {
  redirectLinks: () => `${ADMIN_API}/redirect-links`,
  redirectLink: (id: string | number) => `${ADMIN_API}/redirect-links/${encodeURIComponent(String(id))}`,
};

export const linksPath = {
  redirectLinks: '/mc-admin/redirect-links',
  redirectLinkCreate: '/mc-admin/redirect-links/create',
  redirectLinkEdit: (id: number | string) => `/mc-admin/redirect-links/${id}/edit`,
  redirectLinkDelete: (id: number | string) => `/mc-admin/redirect-links/${id}/delete`,
};

/** The permissions the screens check inside (the routes carry theirs in plugin.json). */
export const LINK_PERMISSIONS = Object.freeze({
  redirectLinksList: 'admin.redirect.links.list',
  redirectLinksCreate: 'admin.redirect.links.create',
  redirectLinksEdit: 'admin.redirect.links.edit',
  redirectLinksDelete: 'admin.redirect.links.delete',
});
