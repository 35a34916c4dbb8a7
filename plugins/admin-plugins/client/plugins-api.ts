// The shapes the plugins admin API answers (server/admin/plugins) and its addresses.
import { ADMIN_API, type SettingDescriptor } from '@orepanel/sdk';

export type PluginState = 'enabled' | 'disabled' | 'inactive' | 'refused';

export interface AdminPlugin {
  id: string;
  name: string;
  description: string;
  version: string;
  origin: string;
  core: boolean;
  state: PluginState;
  enabled: boolean;
  active: boolean;
  refused_reason: string | null;
  /** why its server part could not be started when it was last enabled (it stayed disabled) */
  failed_reason: string | null;
  requires: string[];
  permissions: string[];
  settings: SettingDescriptor[];
}

export const pluginsUrl = {
  plugins: () => `${ADMIN_API}/plugins`,
  pluginSwitch: (id: string, action: 'enable' | 'disable') => `${ADMIN_API}/plugins/${encodeURIComponent(id)}/${action}`,
  pluginConfig: (id: string) => `${ADMIN_API}/plugins/${encodeURIComponent(id)}/config`,
};
