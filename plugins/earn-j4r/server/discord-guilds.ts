// Which guilds the user is in, from Discord's GET /users/@me/guilds with the user's access token
// (scope `guilds`): https://discord.com/developers/docs/resources/user#get-current-user-guilds.
// The address is the discord_base_url setting (through the grant), so tests use a local stand-in.
// One page holds 200 guilds — as many as a Discord account can join — but the loop follows `after`
// so a larger answer is still read whole.

const TIMEOUT_MS = 10_000;
const PAGE_SIZE = 200;
const MAX_PAGES = 5;
const SNOWFLAKE = /^\d{1,32}$/;

/** unauthorized: the token does not allow reading guilds; rate_limited: Discord said 429; unavailable: anything else */
export type GuildsFailure = 'unauthorized' | 'rate_limited' | 'unavailable';

export class DiscordGuildsError extends Error {
  constructor(
    readonly failure: GuildsFailure,
    detail: string,
  ) {
    super(detail);
    this.name = 'DiscordGuildsError';
  }
}

async function page(apiUrl: string, accessToken: string, after: string | null): Promise<unknown[]> {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (after) query.set('after', after);
  let response: Response;
  try {
    response = await fetch(`${apiUrl}/api/users/@me/guilds?${query}`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new DiscordGuildsError('unavailable', `Discord could not be reached: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (response.status === 401 || response.status === 403) throw new DiscordGuildsError('unauthorized', `Discord's guilds endpoint answered ${response.status}`);
  if (response.status === 429) throw new DiscordGuildsError('rate_limited', 'Discord rate-limited the guilds request');
  if (response.status !== 200) throw new DiscordGuildsError('unavailable', `Discord's guilds endpoint answered ${response.status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DiscordGuildsError('unavailable', "Discord's guilds endpoint answered with something other than JSON");
  }
  if (!Array.isArray(body)) throw new DiscordGuildsError('unavailable', "Discord's guilds endpoint answered without a list");
  return body;
}

/** The ids of the guilds the token's user is a member of. The token is only used, never kept. */
export async function joinedGuildIds(apiUrl: string, accessToken: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let after: string | null = null;
  for (let n = 0; n < MAX_PAGES; n++) {
    const guilds = await page(apiUrl, accessToken, after);
    for (const guild of guilds) {
      const id = guild && typeof guild === 'object' ? (guild as { id?: unknown }).id : undefined;
      if (typeof id === 'string' && SNOWFLAKE.test(id)) ids.add(id);
    }
    if (guilds.length < PAGE_SIZE) break;
    const last = (guilds[guilds.length - 1] as { id?: unknown }).id;
    if (typeof last !== 'string' || !SNOWFLAKE.test(last)) break;
    after = last;
  }
  return ids;
}
