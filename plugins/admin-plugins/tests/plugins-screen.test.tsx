// @vitest-environment jsdom
// /mc-admin/plugins and third-party plugins (issue 9 defect 7): one installed in the data folder is
// listed as such and says none of its code runs until enabled; a start that fails shows the server's
// answer and, from the fresh list, why the plugin stayed disabled.
import { cleanup } from '@orepanel/sdk/testing';
import { afterEach, expect, it } from 'vitest';
import { openPluginsScreen } from './screen-kit';
import en from '../locales/en.json';

afterEach(() => cleanup());

const REASON = 'its database migration 0001_items failed: no space left on device';

function thirdParty(failed_reason: string | null) {
  return {
    id: 'fx-late',
    name: 'Late fixture',
    description: '',
    version: '1.0.0',
    origin: 'third-party',
    core: false,
    state: 'disabled',
    enabled: false,
    active: false,
    refused_reason: null,
    failed_reason,
    requires: [],
    permissions: [],
    settings: [],
    asks: { permissions: [], settings: [], pages: [], tables: [], server: true },
    removable: true,
  };
}

it('shows why a third-party plugin could not be enabled', async () => {
  let failed = false;
  const app = await openPluginsScreen({
    http: {
      'GET /api/admin/plugins': () => ({ body: { data: [thirdParty(failed ? REASON : null)] } }),
      'POST /api/admin/plugins/fx-late/enable': () => {
        failed = true;
        return { status: 409, body: { error: { code: 'PLUGIN_START_FAILED', message: `Plugin "fx-late" could not be enabled: ${REASON}.` } } };
      },
    },
  });
  await app.findByText('Late fixture');
  expect(app.getByText(en.plugins.thirdParty)).toBeTruthy();
  expect(app.getByText(en.plugins.thirdPartyHint)).toBeTruthy();

  await app.click(app.getByRole('button', 'Enable Late fixture'));
  await app.findByText(`Plugin "fx-late" could not be enabled: ${REASON}.`);
  await app.findByText(`Could not be enabled: ${REASON}`);
  expect(app.queryByText(en.plugins.thirdPartyHint)).toBeNull();
  expect(app.getByRole('button', 'Enable Late fixture')).toBeTruthy();
});
