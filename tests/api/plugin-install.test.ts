// Issue 16: a third-party plugin is installed, updated and removed at /mc-admin/plugins with no
// restart. An uploaded archive (the built folder as a .tgz, root only) is unpacked safely — links,
// escaping or absolute paths, devices, oversize and bad manifests are refused with nothing written —
// and arrives disabled; enabling runs its migrations and mounts its routes; an update swaps the whole
// version only once the new one started (the old client files stay served to pages that loaded
// them; a failed update leaves the old version in use); removal keeps or drops its tables.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../server/app';
import { pluginMigrationTable } from '../../server/db/migrate';
import { packPluginFolder } from '../../server/plugins/plugin-archive';
import { roleWith, secondInstance, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

const ID = 'fx-notes';

interface VersionSpec {
  version: string;
  /** the body of the server part's migrations object */
  migrations: string;
  sdk?: string;
  tables?: string[];
}

/** A built plugin folder (what `orepanel plugin build` writes), packed: one client file named after its version. */
function builtArchive(spec: VersionSpec): { archive: Buffer; clientFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'op-plugin-'));
  const tag = spec.version.replace(/\./g, '');
  const clientFile = `entry-v${tag}abcdefgh.js`;
  const manifest = {
    id: ID,
    name: 'Notes',
    version: spec.version,
    sdk: spec.sdk ?? '^2.0.0',
    client: true,
    server: true,
    tables: spec.tables ?? ['fx_notes_items'],
    permissions: [{ name: 'admin.fx_notes.edit', description: 'Edit notes' }],
    settings: [{ key: 'fx_notes_greeting', type: 'string', default: 'hello', label: 'Greeting' }],
  };
  writeFileSync(join(dir, 'plugin.json'), JSON.stringify(manifest));
  mkdirSync(join(dir, 'client'));
  writeFileSync(join(dir, 'client', clientFile), `System.register([], function () { return { execute: function () {} } }); // ${spec.version}`);
  writeFileSync(join(dir, 'build.json'), JSON.stringify({ entry: `/plugins/${ID}/${clientFile}`, files: [clientFile] }));
  writeFileSync(
    join(dir, 'server.js'),
    `export default Object.freeze({
  $$type: '@orepanel/server-plugin', apiVersion: 2, id: '${ID}',
  migrations: { ${spec.migrations} },
  register(app, ctx) {
    app.get('/version', async () => ({ version: '${spec.version}' }));
    // a job under a name one version at a time may hold: an update hands it over
    ctx.jobs.every('tick', 3600000, async () => '${spec.version}');
    app.get('/items', async () => ({ items: (await ctx.db.selectFrom('fx_notes_items').select('name').execute()).map((r) => r.name) }));
  },
});
`,
  );
  const archive = packPluginFolder(dir);
  rmSync(dir, { recursive: true, force: true });
  return { archive, clientFile };
}

const ITEMS = `'0001_items': { async up(_db, kit) { await kit.createTable('fx_notes_items').addColumn('id', 'integer', (c) => kit.autoId(c)).addColumn('name', 'varchar(40)').execute(); } }`;
const TAGS = `'0002_tags': { async up(_db, kit) { await kit.createTable('fx_notes_tags').addColumn('id', 'integer', (c) => kit.autoId(c)).execute(); } }`;
/** a migration the table boundary refuses: the table is not in its plugin.json */
const STRAY = `'0003_stray': { async up(_db, kit) { await kit.createTable('fx_stray').addColumn('id', 'integer').execute(); } }`;

/** One tar header block (ustar), for archives the panel's own packer would never make. */
function tarEntry(name: string, type: string, body = Buffer.alloc(0), link = ''): Buffer {
  const header = Buffer.alloc(512, 0);
  header.write(name.slice(0, 100), 0, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write(type, 156);
  header.write(link, 157);
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return Buffer.concat([header, body, Buffer.alloc((512 - (body.length % 512)) % 512, 0)]);
}
const tgz = (...entries: Buffer[]) => gzipSync(Buffer.concat([...entries, Buffer.alloc(1024, 0)]));
const goodManifest = Buffer.from(JSON.stringify({ id: 'fx-evil', name: 'Evil', version: '1.0.0', sdk: '^2.0.0', client: false, server: false }));

describe.each(testDialects().filter((d) => d !== 'mysql'))('installing, updating and removing a plugin with no restart, on %s', (dialect) => {
  let panel: TestPanel;
  let app: FastifyInstance;
  let root: SignedInUser;
  let pluginsDir: string;
  /** an instance on the same database and data folder, started before anything was installed */
  let other: FastifyInstance;
  const v1 = builtArchive({ version: '1.0.0', migrations: ITEMS });
  const v2 = builtArchive({ version: '1.1.0', migrations: `${ITEMS}, ${TAGS}`, tables: ['fx_notes_items', 'fx_notes_tags'] });

  beforeAll(async () => {
    panel = await startPanel(dialect);
    app = panel.app;
    root = await userWithRole(panel, 8);
    pluginsDir = join(panel.database.dataDir, 'plugins');
    other = await secondInstance(panel);
  }, 180_000);
  afterAll(async () => {
    await other?.close();
    await panel?.close();
  });

  const upload = (archive: Buffer, headers: Record<string, string> = { cookie: root.cookie }, type = 'application/gzip') =>
    app.inject({ method: 'POST', url: '/api/admin/plugins/install', payload: archive, headers: { 'content-type': type, ...headers } });
  const asRoot = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => app.inject({ method, url, payload, headers: { cookie: root.cookie } });
  const tables = async () => (await panel.services.database.db.introspection.getTables()).map((t) => t.name.toLowerCase());
  const served = async () => ((await app.inject({ url: '/api/system/plugins' })).json() as { id: string; version: string; entry?: string }[]).find((p) => p.id === ID);
  /** everything under DATA_DIR/plugins, hidden folders included: a refused upload must leave it as it was */
  const onDisk = (): string[] => (existsSync(pluginsDir) ? readdirSync(pluginsDir, { recursive: true }).map(String).sort() : []);
  /** what the plugin's job answers when run now: the version whose code holds the name */
  const tick = async () => {
    const { scheduler } = panel.services;
    if (!scheduler.statuses().some((job) => job.name === `${ID}.tick`)) return null;
    await scheduler.runNow(`${ID}.tick`);
    return scheduler.statuses().find((job) => job.name === `${ID}.tick`)?.lastMessage;
  };
  const audited = (action: string) => panel.services.database.db.selectFrom('audit_log').select('details').where('action', '=', action).execute();

  it('refuses an archive that is not plain files with safe paths, writing nothing', async () => {
    const before = onDisk();
    const refused: [string, Buffer, string][] = [
      ['a path escaping the folder', tgz(tarEntry('plugin.json', '0', goodManifest), tarEntry('../../escape.js', '0', Buffer.from('x'))), 'points outside'],
      ['an absolute path', tgz(tarEntry('plugin.json', '0', goodManifest), tarEntry('/etc/cron.d/evil', '0', Buffer.from('x'))), 'absolute path'],
      ['a symbolic link', tgz(tarEntry('plugin.json', '0', goodManifest), tarEntry('client', '2', Buffer.alloc(0), '/etc')), 'is a link'],
      ['a hard link', tgz(tarEntry('plugin.json', '0', goodManifest), tarEntry('server.js', '1', Buffer.alloc(0), '/etc/passwd')), 'is a link'],
      ['a device', tgz(tarEntry('plugin.json', '0', goodManifest), tarEntry('tty', '3')), 'not a plain file or folder'],
      ['a name twice', tgz(tarEntry('plugin.json', '0', goodManifest), tarEntry('plugin.json', '0', goodManifest)), 'appears twice'],
      ['no plugin.json', tgz(tarEntry('server.js', '0', Buffer.from('x'))), 'no plugin.json'],
      ['not gzip', Buffer.from('PK\u0003\u0004 a zip'), 'not a .tgz'],
      ['a gzip bomb', tgz(tarEntry('plugin.json', '0', goodManifest), tarEntry('big.bin', '0', Buffer.alloc(70 * 1024 * 1024))), 'more than 64 MB'],
    ];
    for (const [label, archive, why] of refused) {
      const res = await upload(archive);
      expect(res.statusCode, label).toBe(400);
      expect(res.json().error, label).toMatchObject({ code: 'PLUGIN_ARCHIVE_REFUSED' });
      expect(res.json().error.message, label).toContain(why);
    }
    const badJson = await upload(tgz(tarEntry('plugin.json', '0', Buffer.from('{ nope'))));
    expect(badJson.json().error.code).toBe('PLUGIN_MANIFEST_INVALID');
    const badManifest = await upload(tgz(tarEntry('plugin.json', '0', Buffer.from(JSON.stringify({ id: 'Bad Id', version: 'one' })))));
    expect(badManifest.statusCode).toBe(400);
    expect(badManifest.json().error.code).toBe('PLUGIN_MANIFEST_INVALID');
    const tooLarge = await upload(Buffer.alloc(21 * 1024 * 1024, 1));
    expect(tooLarge.statusCode).toBe(413);
    // a plugin.json that is fine alone but asks for what a third party may not have: checked before it is placed
    const core = await upload(tgz(tarEntry('plugin.json', '0', Buffer.from(JSON.stringify({ ...JSON.parse(goodManifest.toString()), core: true })))));
    expect(core.statusCode).toBe(422);
    expect(core.json().error.message).toContain('cannot be part of the core');
    // a third-party plugin's tables are named after it (the rule `plugin build` applies too)
    const stray = await upload(tgz(tarEntry('plugin.json', '0', Buffer.from(JSON.stringify({ ...JSON.parse(goodManifest.toString()), tables: ['users_extra'] })))));
    expect(stray.statusCode).toBe(422);
    expect(stray.json().error.message).toContain('users_extra');
    const builtIn = await upload(tgz(tarEntry('plugin.json', '0', Buffer.from(JSON.stringify({ ...JSON.parse(goodManifest.toString()), id: 'legal' })))));
    expect(builtIn.json().error.code).toBe('PLUGIN_BUILT_IN');
    expect(onDisk().filter((path) => !path.startsWith('.staging'))).toEqual(before.filter((path) => !path.startsWith('.staging')));
    expect(readdirSync(join(pluginsDir, '.staging'))).toEqual([]);
    expect(panel.services.plugins.get('fx-evil')).toBeUndefined();
    // the bomb alone is 70 MB to build and read: a loaded machine needs more than the default time
  }, 180_000);

  it('takes an upload only from a root administrator, same-site, as an archive', async () => {
    expect((await upload(v1.archive, {})).statusCode).toBe(401);
    const editor = await userWithRole(panel, await roleWith(panel, ['admin.plugins.list', 'admin.plugins.edit']));
    const denied = await upload(v1.archive, { cookie: editor.cookie });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('PERMISSION_DENIED');
    expect((await upload(v1.archive, { cookie: root.cookie, origin: 'https://evil.example' })).json().error.code).toBe('CROSS_SITE_REQUEST');
    const json = await app.inject({ method: 'POST', url: '/api/admin/plugins/install', payload: { archive: 'x' }, headers: { cookie: root.cookie } });
    expect(json.statusCode).toBe(415);
    expect(json.json().error.message).toContain('application/gzip');
    expect(panel.services.plugins.get(ID)).toBeUndefined();
  });

  it('installs an uploaded plugin disabled, showing what it asks for; none of its code runs', async () => {
    const res = await upload(v1.archive, { cookie: root.cookie }, 'application/octet-stream');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ action: 'installed', previous_version: null });
    expect(res.json().plugin).toMatchObject({
      id: ID,
      version: '1.0.0',
      origin: 'third-party',
      state: 'disabled',
      removable: true,
      asks: {
        permissions: [{ name: 'admin.fx_notes.edit', description: 'Edit notes' }],
        settings: ['fx_notes_greeting'],
        tables: ['fx_notes_items'],
        server: true,
      },
    });
    const current = readFileSync(join(pluginsDir, ID, 'current'), 'utf8').trim();
    expect(current).toMatch(/^1\.0\.0-[0-9a-f]{12}$/);
    expect(existsSync(join(pluginsDir, ID, 'versions', current, 'server.js'))).toBe(true);
    expect(await tables()).not.toContain('fx_notes_items');
    expect((await app.inject({ url: `/api/plugins/${ID}/version` })).statusCode).toBe(404);
    expect(await served()).toBeUndefined();
    expect(await audited('admin.plugin.install')).toHaveLength(1);
    // the same build again is not a new version
    expect((await upload(v1.archive)).json().error.code).toBe('PLUGIN_SAME_VERSION');
  });

  it('enabling it runs its migrations, mounts its routes and serves its manifest, with no restart', async () => {
    const res = await asRoot('POST', `/api/admin/plugins/${ID}/enable`);
    expect(res.statusCode).toBe(200);
    expect(await tables()).toContain('fx_notes_items');
    expect((await app.inject({ url: `/api/plugins/${ID}/version` })).json()).toEqual({ version: '1.0.0' });
    expect(await tick()).toBe('1.0.0');
    expect(await served()).toMatchObject({ version: '1.0.0', entry: `/plugins/${ID}/${v1.clientFile}` });
    expect((await app.inject({ url: `/plugins/${ID}/${v1.clientFile}` })).statusCode).toBe(200);
  });

  it('an update swaps the whole version once the new one started; the old client files stay served', async () => {
    const res = await upload(v2.archive);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      action: 'updated',
      previous_version: '1.0.0',
      plugin: { version: '1.1.0', state: 'enabled', asks: { tables: ['fx_notes_items', 'fx_notes_tags'] } },
    });
    expect((await app.inject({ url: `/api/plugins/${ID}/version` })).json()).toEqual({ version: '1.1.0' });
    expect(await tick()).toBe('1.1.0');
    expect(await tables()).toContain('fx_notes_tags');
    expect(await served()).toMatchObject({ version: '1.1.0', entry: `/plugins/${ID}/${v2.clientFile}` });
    // a page opened before the update still loads what it asked for
    const old = await app.inject({ url: `/plugins/${ID}/${v1.clientFile}` });
    expect(old.statusCode).toBe(200);
    expect(old.body).toContain('1.0.0');
    expect((await app.inject({ url: `/plugins/${ID}/${v2.clientFile}` })).body).toContain('1.1.0');
    // the index document's start-up data follows too
    expect(panel.services.plugins.servedJson()).toContain(v2.clientFile);
    expect(readdirSync(join(pluginsDir, ID, 'versions'))).toHaveLength(2);
    expect(await audited('admin.plugin.update')).toHaveLength(1);
  });

  it('a failed update (a migration the table boundary refuses, an sdk range this panel lacks) leaves the running version in place and says why', async () => {
    const current = readFileSync(join(pluginsDir, ID, 'current'), 'utf8');
    const versions = readdirSync(join(pluginsDir, ID, 'versions')).sort();
    const broken = builtArchive({ version: '1.2.0', migrations: `${ITEMS}, ${TAGS}, ${STRAY}`, tables: ['fx_notes_items', 'fx_notes_tags'] });
    const failed = await upload(broken.archive);
    expect(failed.statusCode).toBe(422);
    expect(failed.json().error).toMatchObject({ code: 'PLUGIN_UPDATE_FAILED' });
    expect(failed.json().error.message).toMatch(/^Plugin "fx-notes" was not updated \(1\.1\.0 stays in use\): its database migration 0003_stray failed/);
    const future = await upload(builtArchive({ version: '2.0.0', migrations: ITEMS, sdk: '^99.0.0' }).archive);
    expect(future.statusCode).toBe(422);
    expect(future.json().error.code).toBe('PLUGIN_INVALID');
    expect((await app.inject({ url: `/api/plugins/${ID}/version` })).json()).toEqual({ version: '1.1.0' });
    expect(readFileSync(join(pluginsDir, ID, 'current'), 'utf8')).toBe(current);
    // the running version got its job back from the one that failed to start
    expect(await tick()).toBe('1.1.0');
    expect(readdirSync(join(pluginsDir, ID, 'versions')).sort()).toEqual(versions);
    expect(await served()).toMatchObject({ version: '1.1.0' });
  });

  it('another instance on the same data folder follows: it finds the plugin and runs the version in use', async () => {
    // it was started before the install: it learns of it from the cache versions (its timer, or now)
    expect(servicesOf(other).plugins.installedVersionOf(ID)).not.toBe(undefined);
    await servicesOf(other).cacheSync.poll();
    expect(servicesOf(other).plugins.installedVersionOf(ID)).toBe(panel.services.plugins.installedVersionOf(ID));
    expect((await other.inject({ url: `/api/plugins/${ID}/version` })).json()).toEqual({ version: '1.1.0' });
  });

  it('Rescan takes a plugin folder that appeared in the data folder since start, disabled', async () => {
    const dropped = join(pluginsDir, 'fx-dropped');
    mkdirSync(dropped, { recursive: true });
    writeFileSync(join(dropped, 'plugin.json'), JSON.stringify({ id: 'fx-dropped', name: 'Dropped', version: '1.0.0', sdk: '^2.0.0', client: false, server: false }));
    cpSync(dropped, join(pluginsDir, 'fx-misnamed'), { recursive: true });
    expect(panel.services.plugins.get('fx-dropped')).toBeUndefined();
    const res = await asRoot('POST', '/api/admin/plugins/rescan');
    expect(res.statusCode).toBe(200);
    expect(res.json().added).toEqual(['fx-dropped']);
    expect(res.json().refused).toEqual([{ id: 'fx-misnamed', reason: 'its plugin.json says id "fx-dropped" but it lives in folder "fx-misnamed"' }]);
    expect((await asRoot('GET', '/api/admin/plugins/fx-dropped')).json().plugin).toMatchObject({ state: 'disabled', origin: 'third-party' });
    expect((await asRoot('POST', '/api/admin/plugins/rescan')).json().added).toEqual([]);
    expect(await audited('admin.plugin.rescan')).toHaveLength(2);
  });

  it('removal: never an enabled or built-in plugin; its tables kept or dropped as the administrator chooses', async () => {
    const remove = (id: string, drop: boolean) => asRoot('POST', `/api/admin/plugins/${id}/remove`, { drop_tables: drop });
    expect((await remove(ID, false)).json().error.code).toBe('PLUGIN_ENABLED');
    expect((await remove('legal', false)).json().error.code).toBe('PLUGIN_BUILT_IN');
    expect((await remove('fx-nothing', false)).statusCode).toBe(404);
    await asRoot('POST', `/api/admin/plugins/${ID}/disable`);
    const kept = await remove(ID, false);
    expect(kept.json()).toEqual({ id: ID, dropped_tables: [] });
    expect(await tables()).toEqual(expect.arrayContaining(['fx_notes_items', 'fx_notes_tags']));
    expect(existsSync(join(pluginsDir, ID))).toBe(false);
    expect((await asRoot('GET', `/api/admin/plugins/${ID}`)).statusCode).toBe(404);
    expect((await app.inject({ url: `/api/plugins/${ID}/version` })).statusCode).toBe(404);
    expect((await app.inject({ url: `/plugins/${ID}/${v2.clientFile}` })).statusCode).toBe(404);
    expect(panel.services.routes.list().filter((r) => r.url.startsWith(`/api/plugins/${ID}/`))).toEqual([]);
    expect(await tick()).toBeNull();
    // installed again it arrives disabled, finds its tables, and goes with them this time
    expect((await upload(v2.archive)).json().plugin.state).toBe('disabled');
    await asRoot('POST', `/api/admin/plugins/${ID}/enable`);
    expect((await app.inject({ url: `/api/plugins/${ID}/version` })).json()).toEqual({ version: '1.1.0' });
    await asRoot('POST', `/api/admin/plugins/${ID}/disable`);
    const dropped = await remove(ID, true);
    expect(dropped.json().dropped_tables.sort()).toEqual(['fx_notes_items', 'fx_notes_tags', pluginMigrationTable(ID)].sort());
    const left = await tables();
    expect(left).not.toContain('fx_notes_items');
    expect(left).not.toContain(pluginMigrationTable(ID).toLowerCase());
    expect(await audited('admin.plugin.remove')).toHaveLength(2);
    // the rescanned one goes too (a plugin with no tables)
    expect((await remove('fx-dropped', true)).json()).toEqual({ id: 'fx-dropped', dropped_tables: [] });
  });
});
