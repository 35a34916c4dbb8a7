// What a join-for-rewards guild may hold: the admin API's JSON schema and the config form's checks
// read the same limits, so the two can never disagree.

export const GUILD_LIMITS = {
  nameMaxLength: 100,
  inviteMaxLength: 255,
  iconMaxLength: 500,
  maxCoins: 1_000_000,
} as const;

/** a Discord snowflake: a 64-bit integer in decimal (17–20 digits for every guild made since 2015) */
export const GUILD_ID_PATTERN = '^[0-9]{17,20}$';
/** where the invite sends people: any web address (discord.gg/…, discord.com/invite/…, a vanity page) */
export const INVITE_URL_PATTERN = '^https?://[^\\s]+$';
/** shown on /earn/j4r: the page's Content-Security-Policy loads images over https only */
export const ICON_URL_PATTERN = '^https://[^\\s]+$';

export function isGuildId(value: string): boolean {
  return new RegExp(GUILD_ID_PATTERN).test(value);
}

/** True for an address the pattern accepts that is also a well-formed URL. */
export function isWebAddress(value: string, pattern: string): boolean {
  if (!new RegExp(pattern).test(value)) return false;
  try {
    return Boolean(new URL(value).hostname);
  } catch {
    return false;
  }
}
