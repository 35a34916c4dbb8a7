// ctx.panelBackup is a power of the core: only a plugin shipped with the panel that lists
// "panel-backup" in plugin.json's `privileges` gets it. Any other plugin gets null, a third-party
// plugin asking for a privilege is refused, and an unknown privilege is refused by name.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_PLUGINS, startPanel, type TestPanel } from './harness';

/** A plugin folder: a first-party one's server part is server/index.ts, a third-party one's server.js. */
function writePlugin(dir: string, id: string, manifest: Record<string, unknown>, server: { file: 'server/index.ts' | 'server.js'; source: string }): void {
  mkdirSync(join(dir, id, 'server'), { recursive: true });
  writeFileSync(join(dir, id, 'plugin.json'), JSON.stringify({ id, name: id, version: '1.0.0', sdk: '^2.0.0', client: false, server: true, ...manifest }));
  writeFileSync(join(dir, id, server.file), server.source);
}

const probe = (id: string) => ({
  file: 'server/index.ts' as const,
  source: `import { defineServerPlugin } from '@orepanel/sdk/server';
export default defineServerPlugin({
  id: '${id}',
  register(app, ctx) {
    app.get('/${id}/backup', async () => ({ given: ctx.panelBackup !== null, directory: ctx.panelBackup?.directory ?? null }));
  },
});
`,
});

describe('the panel-backup privilege', () => {
  let panel: TestPanel;
  let bundled: string;
  beforeAll(async () => {
    bundled = mkdtempSync(join(tmpdir(), 'orepanel-privilege-'));
    writePlugin(bundled, 'fx-keeper', { privileges: ['panel-backup'] }, probe('fx-keeper'));
    writePlugin(bundled, 'fx-plain', {}, probe('fx-plain'));
    writePlugin(bundled, 'fx-greedy', { privileges: ['panel-backup', 'root-shell'] }, probe('fx-greedy'));
    panel = await startPanel('sqlite', {
      jobs: false,
      pluginDirs: [REPO_PLUGINS, bundled],
      prepareDataDir: (dataDir) => {
        const thirdParty = join(dataDir, 'plugins');
        writePlugin(thirdParty, 'fx-thief', { privileges: ['panel-backup'] }, { file: 'server.js', source: 'export default {};\n' });
      },
    });
  });
  afterAll(async () => {
    await panel?.close();
    rmSync(bundled, { recursive: true, force: true });
  });

  const refusedBecause = (id: string) => panel.services.plugins.refused.find((r) => r.id === id)?.reason;

  it('is handed to a first-party plugin that lists it, and to no other', async () => {
    const keeper = await panel.app.inject({ url: '/api/fx-keeper/backup' });
    expect(keeper.json()).toEqual({ given: true, directory: join(panel.database.dataDir, 'backups') });
    expect((await panel.app.inject({ url: '/api/fx-plain/backup' })).json()).toEqual({ given: false, directory: null });
  });

  it('refuses a third-party plugin asking for it, and an unknown privilege by name', () => {
    expect(refusedBecause('fx-thief')).toBe('a third-party plugin cannot hold the privilege "panel-backup"');
    expect(refusedBecause('fx-greedy')).toBe('its plugin.json is invalid: /privileges/1: unknown privilege "root-shell" (known: panel-backup)');
  });
});
