// A provider's settings as one object: whether it is offered, its rules (coins, daily limit, minimum
// time, expiry, cooldown — reference defaults 100 / 5 / 60 s / 3600 s / 3600 s) and how its
// shortener is reached. Read per request, so an administrator's change applies at once.
import type { PluginSettings } from '@orepanel/sdk/server';
import { LINK_PROVIDER_IDS, LINK_PROVIDER_NAMES, type LinkProviderId } from '../shared/providers';

export interface LinkRules {
  coins: number;
  dailyLimit: number;
  minTimeSeconds: number;
  expireSeconds: number;
  cooldownSeconds: number;
}

export interface ProviderConfig extends LinkRules {
  id: LinkProviderId;
  name: string;
  enabled: boolean;
  /** the shortener's base address */
  apiUrl: string;
  /** the API key (Linkvertise: the publisher account id); '' when not set */
  credential: string;
}

const whole = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fallback);

/** Linkvertise identifies the publisher by account id in the link itself; the others take an API key. */
export function credentialKey(id: LinkProviderId): string {
  return id === 'linkvertise' ? 'l4r_linkvertise_user_id' : `l4r_${id}_api_key`;
}

export async function providerConfig(settings: PluginSettings, id: LinkProviderId): Promise<ProviderConfig> {
  const key = (what: string) => `l4r_${id}_${what}`;
  const values = await settings.getMany([
    key('enabled'),
    key('coins_per_link'),
    key('daily_limit'),
    key('min_time_to_complete'),
    key('time_to_expire'),
    key('cooldown'),
    key('api_url'),
    credentialKey(id),
  ]);
  const credential = values[credentialKey(id)];
  const apiUrl = values[key('api_url')];
  return {
    id,
    name: LINK_PROVIDER_NAMES[id],
    enabled: values[key('enabled')] === true,
    coins: Math.max(1, whole(values[key('coins_per_link')], 100)),
    dailyLimit: Math.max(1, whole(values[key('daily_limit')], 5)),
    minTimeSeconds: whole(values[key('min_time_to_complete')], 60),
    expireSeconds: Math.max(1, whole(values[key('time_to_expire')], 3600)),
    cooldownSeconds: whole(values[key('cooldown')], 3600),
    apiUrl: typeof apiUrl === 'string' ? apiUrl.trim() : '',
    credential: typeof credential === 'string' ? credential.trim() : '',
  };
}

/** The providers an administrator switched on, in the page's order. */
export async function enabledProviders(settings: PluginSettings): Promise<ProviderConfig[]> {
  const all = await Promise.all(LINK_PROVIDER_IDS.map((id) => providerConfig(settings, id)));
  return all.filter((p) => p.enabled);
}
