// The rules a redirect link (a link of the navigation) follows. One browser-safe copy: the API's
// route schema and check use it, the admin form checks it before a round trip, and the navigation
// checks every link it is about to render (the server stays the authority).
export const REDIRECT_LINK_RULES = Object.freeze({
  name: { minLength: 1, maxLength: 64, pattern: '\\S' },
  url: { maxLength: 2048 },
  /** an icon name of the UI kit; an unknown one is drawn as the link icon */
  icon: { maxLength: 32, pattern: '^[a-z][a-z0-9-]*$' },
  order: { minimum: -1_000_000, maximum: 1_000_000 },
} as const);

/**
 * spec §5: an http or https address — the only kind a link in the navigation may open (no
 * javascript:, data: or relative addresses). Surrounding spaces make it invalid: trim first.
 */
export function isHttpUrl(value: string): boolean {
  if (value === '' || value.trim() !== value || value.length > REDIRECT_LINK_RULES.url.maxLength) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}
