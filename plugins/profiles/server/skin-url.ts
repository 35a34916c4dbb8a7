// Where a profile's Minecraft skin comes from. An administrator may name a skin service by an address
// template (profile_skin_url_template, e.g. https://mc-heads.net/skin/{username}); it is used only for
// usernames that can be Minecraft names, and only when it holds the {username} placeholder — anything
// else shows the skin bundled with the panel, so a profile never depends on the internet.
import { MINECRAFT_NAME } from '../shared/people';

export const SKIN_URL_PLACEHOLDER = '{username}';

export function skinUrlFor(template: unknown, username: string): string | null {
  if (typeof template !== 'string' || !template.includes(SKIN_URL_PLACEHOLDER)) return null;
  if (!MINECRAFT_NAME.test(username)) return null;
  return template.split(SKIN_URL_PLACEHOLDER).join(encodeURIComponent(username));
}
