// What a location, an egg category and an egg may hold, shared by the API's schemas and the forms so
// the two never disagree. The panel links (panel_location_id, panel_nest_id, panel_egg_id) are the
// Pterodactyl panel's own ids: unique here, so one panel object is offered once.

export const LOCATION_STATUSES = ['online', 'offline', 'maintenance'] as const;
export type LocationStatusName = (typeof LOCATION_STATUSES)[number];

export const CATALOG_LIMITS = {
  nameMaxLength: 100,
  descriptionMaxLength: 1000,
  imageMaxLength: 500,
  /** the panel's ids are unsigned 32-bit in its database; ours are signed integer columns */
  maxPanelId: 2_147_483_647,
  maxSlots: 1_000_000,
} as const;

/**
 * An image: an http(s) address, or a path on this site (spec §5: lazy-loaded image sources are read
 * relative to the site origin). No other schemes — a javascript: or data: address is refused.
 */
export const IMAGE_PATTERN = /^(https?:\/\/[^\s/?#]+[^\s]*|\/(?!\/)[^\s]*)$/i;

export function isImageAddress(text: string): boolean {
  if (!IMAGE_PATTERN.test(text)) return false;
  if (text.startsWith('/')) return true;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
