// The guild form's values, its checks (the same limits as the admin API's schema, from
// shared/guild-rules.ts) and the body it sends: every field for a new guild, the changed ones for
// an edit (the Discord id never changes).
import { changedFields } from '@orepanel/sdk';
import { GUILD_LIMITS, ICON_URL_PATTERN, INVITE_URL_PATTERN, isGuildId, isWebAddress } from '../../shared/guild-rules';
import type { AdminGuild } from '../api';

export interface GuildFormValues {
  guild_id: string;
  name: string;
  invite_url: string;
  icon_url: string;
  coins: string;
  enabled: boolean;
}

/** field → locale key of what is wrong with it */
export type GuildFormProblems = Partial<Record<keyof GuildFormValues, string>>;

export const EMPTY_GUILD_FORM: GuildFormValues = { guild_id: '', name: '', invite_url: '', icon_url: '', coins: '100', enabled: true };

export function formOf(guild: AdminGuild): GuildFormValues {
  return { guild_id: guild.guild_id, name: guild.name, invite_url: guild.invite_url, icon_url: guild.icon_url ?? '', coins: String(guild.coins), enabled: guild.enabled };
}

export function checkGuildForm(values: GuildFormValues, isNew: boolean): GuildFormProblems {
  const problems: GuildFormProblems = {};
  if (isNew && !isGuildId(values.guild_id.trim())) problems.guild_id = 'config.validation.guildId';
  if (values.name.trim() === '') problems.name = 'config.validation.required';
  else if (values.name.trim().length > GUILD_LIMITS.nameMaxLength) problems.name = 'config.validation.nameLength';
  if (!isWebAddress(values.invite_url.trim(), INVITE_URL_PATTERN) || values.invite_url.trim().length > GUILD_LIMITS.inviteMaxLength)
    problems.invite_url = 'config.validation.invite';
  const icon = values.icon_url.trim();
  if (icon !== '' && (!isWebAddress(icon, ICON_URL_PATTERN) || icon.length > GUILD_LIMITS.iconMaxLength)) problems.icon_url = 'config.validation.icon';
  const coins = Number(values.coins);
  if (values.coins.trim() === '' || !Number.isInteger(coins) || coins < 1 || coins > GUILD_LIMITS.maxCoins) problems.coins = 'config.validation.coins';
  return problems;
}

export type GuildBody = Partial<{ guild_id: string; name: string; invite_url: string; icon_url: string | null; coins: number; enabled: boolean }>;

/** What to send: everything for a new guild (initial null), only what changed for an edit. */
export function guildBody(initial: GuildFormValues | null, values: GuildFormValues): GuildBody {
  const sent = (v: GuildFormValues) => ({
    name: v.name.trim(),
    invite_url: v.invite_url.trim(),
    icon_url: v.icon_url.trim() === '' ? null : v.icon_url.trim(),
    coins: Number(v.coins),
    enabled: v.enabled,
  });
  if (!initial) return { guild_id: values.guild_id.trim(), ...sent(values) };
  return changedFields(sent(initial), sent(values));
}
