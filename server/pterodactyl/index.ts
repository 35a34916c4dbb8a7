// ctx.pterodactyl: the host's Pterodactyl panel, built once per app from the core settings
// pterodactyl_base_url and pterodactyl_api_key (a secret, stored sealed), read on each call.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { CoreDatabase, PluginAudit } from '../../sdk/server';
import type { PterodactylPanel } from '../../sdk/pterodactyl';
import type { SettingsStore } from '../settings/store';
import { panelApi } from './panel-api';
import { PanelAccounts, type PanelAccountsTable } from './panel-accounts';
import { normaliseBaseUrl, PanelTransport, type PanelTuning } from './panel-transport';

export type { PanelTuning } from './panel-transport';
export { PanelAccounts, panelExternalIdFor, panelUsernameFor } from './panel-accounts';

export const PANEL_BASE_URL_SETTING = 'pterodactyl_base_url';
export const PANEL_API_KEY_SETTING = 'pterodactyl_api_key';

export interface Pterodactyl {
  panel: PterodactylPanel;
  accounts: PanelAccounts;
}

export function createPterodactyl(options: { db: Kysely<CoreDatabase>; settings: SettingsStore; audit: PluginAudit; log: FastifyBaseLogger; tuning?: PanelTuning }): Pterodactyl {
  const transport = new PanelTransport(async () => {
    const values = await options.settings.getMany([PANEL_BASE_URL_SETTING, PANEL_API_KEY_SETTING]);
    return { baseUrl: normaliseBaseUrl(String(values[PANEL_BASE_URL_SETTING] ?? '')), apiKey: String(values[PANEL_API_KEY_SETTING] ?? '').trim() };
  }, options.tuning);
  const api = panelApi(transport);
  const accounts = new PanelAccounts(options.db as Kysely<CoreDatabase & { panel_accounts: PanelAccountsTable }>, api, options.audit, options.log.child({ module: 'pterodactyl' }));
  const panel: PterodactylPanel = Object.freeze({ ...api, accountFor: (userId: number) => accounts.accountFor(userId) });
  return { panel, accounts };
}
