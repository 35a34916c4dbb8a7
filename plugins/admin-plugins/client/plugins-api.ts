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
  /** what its plugin.json asks for: read before enabling it */
  asks: PluginAsks;
  /** a third-party plugin: a root administrator may remove it once disabled */
  removable: boolean;
}

export interface PluginAsks {
  permissions: { name: string; description: string }[];
  settings: string[];
  pages: { path: string; permission: string | null }[];
  tables: string[];
  server: boolean;
}

export interface InstallAnswer {
  plugin: AdminPlugin;
  action: 'installed' | 'updated';
  previous_version: string | null;
}

export interface RescanAnswer {
  added: string[];
  refused: { id: string; reason: string }[];
}

/** the largest archive the server takes (server/plugins/plugin-archive.ts) */
export const MAX_ARCHIVE_BYTES = 20 * 1024 * 1024;

export const pluginsUrl = {
  plugins: () => `${ADMIN_API}/plugins`,
  pluginSwitch: (id: string, action: 'enable' | 'disable') => `${ADMIN_API}/plugins/${encodeURIComponent(id)}/${action}`,
  pluginConfig: (id: string) => `${ADMIN_API}/plugins/${encodeURIComponent(id)}/config`,
  install: () => `${ADMIN_API}/plugins/install`,
  rescan: () => `${ADMIN_API}/plugins/rescan`,
  remove: (id: string) => `${ADMIN_API}/plugins/${encodeURIComponent(id)}/remove`,
};
