// The shapes the settings admin API answers (server/admin/settings) and its addresses.
import { ADMIN_API, type SettingDescriptor } from '@orepanel/sdk';

export interface SettingGroup {
  id: string;
  label: string;
  settings: SettingDescriptor[];
}

export const settingsUrl = {
  settings: () => `${ADMIN_API}/settings`,
  pterodactylTest: () => `${ADMIN_API}/pterodactyl/test`,
};
