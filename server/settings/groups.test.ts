// The settings screen's groups: the core's settings by their keys, a plugin's panel-wide settings in
// the group they name (a new group after the core's, named after the plugin), its other settings not
// at all (they are on its configuration screen).
import { describe, expect, it } from 'vitest';
import type { ManifestSetting } from '../../sdk/types';
import { groupOfSetting, onSettingsScreen, settingsScreen } from './groups';

const setting = (key: string, type: ManifestSetting['type'], group?: string): ManifestSetting => ({
  key,
  type,
  default: type === 'boolean' ? false : '',
  ...(group ? { group } : {}),
});

describe('settings screen', () => {
  it('holds the core’s settings and a plugin’s only when it names a group', () => {
    expect(onSettingsScreen('core', setting('app_name', 'string'))).toBe(true);
    expect(onSettingsScreen('store', setting('store_enabled', 'boolean', 'features'))).toBe(true);
    expect(onSettingsScreen('store', setting('store_price_ram', 'string'))).toBe(false);
  });

  it('groups the core’s settings by key and a plugin’s by the group it names', () => {
    const screen = settingsScreen(
      [
        { owner: 'core', def: setting('zero_trust_enabled', 'boolean') },
        { owner: 'core', def: setting('company_vat', 'string') },
        { owner: 'store', def: setting('store_enabled', 'boolean', 'features') },
        { owner: 'store', def: setting('store_price_ram', 'string') },
        { owner: 'servers', def: setting('server_renew_cost', 'number', 'server_defaults') },
        { owner: 'earn-afk', def: setting('afk_enabled', 'boolean', 'features') },
        { owner: 'tickets', def: setting('tickets_auto_close_days', 'number', 'support_desk') },
        { owner: 'tickets', def: setting('tickets_max_open', 'number', 'support_desk') },
      ],
      (id) => (id === 'tickets' ? 'Support desk' : id),
    );
    expect(screen.map(({ group, settings }) => [group.id, group.label, settings.map((s) => s.key)])).toEqual([
      ['company', 'Company', ['company_vat']],
      ['server_defaults', 'Server defaults', ['server_renew_cost']],
      // the feature switches by key, whoever declares them
      ['features', 'Features', ['afk_enabled', 'store_enabled', 'zero_trust_enabled']],
      ['support_desk', 'Support desk', ['tickets_auto_close_days', 'tickets_max_open']],
    ]);
  });

  it('knows no plugin’s keys', () => {
    expect(groupOfSetting('server_renew_days', 'number')).toBe('general');
    expect(groupOfSetting('rate_limit_per_minute', 'number')).toBe('security');
    expect(groupOfSetting('allow_tickets', 'boolean')).toBe('features');
  });
});
