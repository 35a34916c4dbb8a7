// The link shorteners a user can earn with (reference: Linkvertise, ShareUs, LinkPays, GyaniLinks),
// in the order the page lists them. Each one's settings are `l4r_<id>_…` in plugin.json.

export const LINK_PROVIDER_IDS = ['linkvertise', 'shareus', 'linkpays', 'gyanilinks'] as const;

export type LinkProviderId = (typeof LINK_PROVIDER_IDS)[number];

export const LINK_PROVIDER_NAMES: Readonly<Record<LinkProviderId, string>> = {
  linkvertise: 'Linkvertise',
  shareus: 'ShareUs',
  linkpays: 'LinkPays',
  gyanilinks: 'GyaniLinks',
};

export function isLinkProviderId(value: string): value is LinkProviderId {
  return (LINK_PROVIDER_IDS as readonly string[]).includes(value);
}

/** A single-use link token as it travels in the callback address: 32 random bytes, base64url. */
export const LINK_TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';
