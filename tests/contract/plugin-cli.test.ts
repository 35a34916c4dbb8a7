// `orepanel plugin build` and `orepanel settings set`, run in-process (server/cli.ts main): a plugin
// folder written against the SDK becomes the folder the host installs from DATA_DIR/plugins/<id>
// (client/, build.json, server.js), which the real plugin host then loads and serves; a rebuild
// leaves no stale hashed files, in place or not; and settings can be changed from outside.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, servicesOf } from '../../server/app';
import { main, parseSettingValue, type CliIO } from '../../server/cli';
import { loadConfig } from '../../server/config';
import { unpackPluginArchive } from '../../server/plugins/plugin-archive';
import { REPO } from './support/fixtures';

const SOURCES = join(REPO, 'tests/fixtures/third-party-src');
const work = mkdtempSync(join(tmpdir(), 'orepanel-plugin-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function run(argv: string[], env: Record<string, string> = { DATA_DIR: join(work, 'data'), DATABASE_URL: '', LOG_LEVEL: 'silent' }) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIO = { out: (t) => stdout.push(t), err: (t) => stderr.push(t) };
  const code = await main(argv, io, env);
  return { code, out: stdout.join('\n'), err: stderr.join('\n') };
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]))
    .sort();
}

// each build type-checks the plugin first (tsc): longer than the default on a busy machine
describe('orepanel plugin build', { timeout: 120_000 }, () => {
  const dataDir = join(work, 'data');
  const out = join(dataDir, 'plugins', 'fixture-healthy');

  it('builds an SDK plugin folder into an installable one: client/, build.json, server.js', async () => {
    const res = await run(['plugin', 'build', join(SOURCES, 'fixture-healthy'), '--out', out]);
    expect(res.err).toBe('');
    expect(res.code).toBe(0);
    expect(res.out).toContain('Built plugin "fixture-healthy" 1.2.0 into');
    expect(res.out).toContain('Install it at /mc-admin/plugins (Rescan finds a folder in DATA_DIR/plugins; no restart), then enable it there.');

    const build = JSON.parse(readFileSync(join(out, 'build.json'), 'utf8')) as { entry: string; integrity: string; localeFiles: Record<string, string>; files: string[] };
    expect(build.entry).toMatch(/^\/plugins\/fixture-healthy\/fixture-healthy-[\w-]+\.js$/);
    const entry = readFileSync(join(out, 'client', build.entry.slice('/plugins/fixture-healthy/'.length)));
    expect(entry.toString()).toMatch(/^System\.register\(\[/);
    expect(build.integrity).toBe(`sha384-${createHash('sha384').update(entry).digest('base64')}`);
    expect(build.localeFiles).toEqual({ en: expect.stringMatching(/^\/plugins\/fixture-healthy\/locales\/en-[\w-]+\.json$/) });
    expect(JSON.parse(readFileSync(join(out, 'client', build.localeFiles.en.slice('/plugins/fixture-healthy/'.length)), 'utf8')).hello.title).toBe(
      'Hello from a third-party plugin',
    );
    expect(listFiles(join(out, 'client'))).toEqual(build.files);
    expect(JSON.parse(readFileSync(join(out, 'plugin.json'), 'utf8')).id).toBe('fixture-healthy');
    // the declared mail template's texts, as they are
    expect(listFiles(join(out, 'mail'))).toEqual(['fixture_hello.html', 'fixture_hello.subject.txt', 'fixture_hello.txt']);
    expect(readFileSync(join(out, 'mail', 'fixture_hello.html'))).toEqual(readFileSync(join(SOURCES, 'fixture-healthy', 'mail', 'fixture_hello.html')));
    // the server part is self-contained: only node builtins may stay imports
    const server = readFileSync(join(out, 'server.js'), 'utf8');
    expect(server).not.toMatch(/from ['"](?!node:)[^'"]+['"]/);
    expect(server).toContain('Hello from the fixture server');
  });

  it('the plugin host loads the built folder from DATA_DIR/plugins and serves its manifest, files and route', async () => {
    const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' }), logger: false, builtPlugins: false, pluginDirs: [] });
    try {
      const { plugins } = servicesOf(app);
      expect(plugins.refused).toEqual([]);
      // a third-party plugin arrives disabled (issue 9): the administrator's switch starts it
      expect(plugins.isActive('fixture-healthy')).toBe(false);
      const greeting = () => servicesOf(app).database.db.selectFrom('mail_templates').select(['subject', 'html']).where('name', '=', 'fixture_hello').executeTakeFirst();
      expect(await greeting()).toBeUndefined();
      await plugins.setEnabled('fixture-healthy', true);
      // its mail template is stored once it is enabled
      expect(await greeting()).toEqual({ subject: 'Hello from ${app_name}', html: '<p>Hello ${first_name}, the fixture says hello.</p>' });
      const served = (await app.inject({ url: '/api/system/plugins' })).json() as { id: string; entry?: string; integrity?: string }[];
      const build = JSON.parse(readFileSync(join(out, 'build.json'), 'utf8')) as { entry: string; integrity: string };
      expect(served.find((m) => m.id === 'fixture-healthy')).toMatchObject({ entry: build.entry, integrity: build.integrity });
      const bundle = await app.inject({ url: build.entry });
      expect(bundle.statusCode).toBe(200);
      expect(bundle.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await app.inject({ url: '/api/plugins/fixture-healthy/greeting' })).json()).toEqual({ greeting: 'Hello from the fixture server' });
    } finally {
      await app.close();
    }
  });

  it('a rebuild replaces the previous hashed files instead of piling them up', async () => {
    const before = JSON.parse(readFileSync(join(out, 'build.json'), 'utf8')).files as string[];
    writeFileSync(join(out, 'client', 'stale-Abcdefgh.js'), 'old');
    expect((await run(['plugin', 'build', join(SOURCES, 'fixture-healthy'), '--out', out, '--development'])).code).toBe(0);
    const after = JSON.parse(readFileSync(join(out, 'build.json'), 'utf8')).files as string[];
    expect(listFiles(join(out, 'client'))).toEqual(after);
    expect(after).not.toEqual(before); // the development build has other bytes, so other hashes
  });

  it('builds in place, keeping the sources and removing only what the last build wrote', async () => {
    const dir = join(work, 'in-place', 'fixture-healthy');
    cpSync(join(SOURCES, 'fixture-healthy'), dir, { recursive: true });
    expect((await run(['plugin', 'build', dir])).code).toBe(0);
    const first = JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8')).files as string[];
    expect(existsSync(join(dir, 'server.js'))).toBe(true);
    expect((await run(['plugin', 'build', dir, '--development'])).code).toBe(0);
    const second = JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8')).files as string[];
    const sources = ['FixtureAdminPage.tsx', 'FixtureWidget.tsx', 'HelloPage.tsx', 'index.tsx'];
    expect(listFiles(join(dir, 'client'))).toEqual([...sources, ...second].sort());
    expect(first.filter((f) => !second.includes(f)).some((f) => existsSync(join(dir, 'client', f)))).toBe(false);
  });

  it('refuses an installed folder not named after the plugin id, and a folder without plugin.json', async () => {
    const wrong = await run(['plugin', 'build', join(SOURCES, 'fixture-healthy'), '--out', join(work, 'plugins', 'other-name')]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('the installed folder must be named after the plugin id');
    expect(wrong.err).toContain(join(work, 'plugins', 'fixture-healthy'));
    const none = await run(['plugin', 'build', work]);
    expect(none.code).toBe(1);
    expect(none.err).toContain('has no plugin.json');
  });

  it('refuses a plugin whose declared mail template has a file missing, naming it', async () => {
    const dir = join(work, 'mail-missing', 'fixture-healthy');
    cpSync(join(SOURCES, 'fixture-healthy'), dir, { recursive: true });
    rmSync(join(dir, 'mail', 'fixture_hello.txt'));
    const res = await run(['plugin', 'build', dir]);
    expect(res.code).toBe(1);
    expect(res.err).toContain('plugin.json declares a mail template whose mail/fixture_hello.txt is missing');
  });

  it('names every problem of an invalid plugin.json', async () => {
    const dir = join(work, 'broken-manifest');
    cpSync(join(SOURCES, 'fixture-setup-fails'), dir, { recursive: true });
    writeFileSync(join(dir, 'plugin.json'), JSON.stringify({ id: 'broken-manifest', version: 'x', sdk: '^2.0.0' }));
    const res = await run(['plugin', 'build', dir]);
    expect(res.code).toBe(1);
    expect(res.err).toContain('is not a valid plugin manifest');
    expect(res.err).toContain("must have required property 'name'");
  });

  it('packs the built folder into the archive /mc-admin/plugins takes (--pack, with --out only)', async () => {
    const packOut = join(work, 'packed', 'fixture-healthy');
    const res = await run(['plugin', 'build', join(SOURCES, 'fixture-healthy'), '--out', packOut, '--pack', '--development']);
    expect(res.code).toBe(0);
    expect(res.out).toContain('fixture-healthy-1.2.0.tgz: upload it at /mc-admin/plugins.');
    const archive = unpackPluginArchive(readFileSync(join(work, 'packed', 'fixture-healthy-1.2.0.tgz')));
    expect([...archive.files.keys()].sort()).toEqual(listFiles(packOut));
    // in place, the folder holds the sources too: no archive of that
    const refused = await run(['plugin', 'build', join(SOURCES, 'fixture-healthy'), '--pack']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--pack needs --out');
  });

  it('explains its usage on a wrong call', async () => {
    expect((await run(['plugin', 'build'])).code).toBe(2);
    expect((await run(['plugin', 'make', 'x'])).err).toContain('unknown plugin command "make"');
    expect((await run(['plugin', 'build', 'a', '--outt', 'b'])).code).toBe(2);
  });
});

describe('orepanel settings set', () => {
  const env = { DATA_DIR: join(work, 'settings-data'), DATABASE_URL: '', LOG_LEVEL: 'silent' };

  it('sets a core setting with its type, which the panel then uses', async () => {
    const res = await run(['settings', 'set', 'rate_limit_per_minute', '600'], env);
    expect(res).toMatchObject({ code: 0, err: '' });
    expect(res.out).toBe('Set rate_limit_per_minute = 600.');
    expect((await run(['settings', 'set', 'app_name', 'My <Panel>'], env)).out).toBe('Set app_name = "My <Panel>".');
    const app = await buildApp({ config: loadConfig(env), logger: false, builtPlugins: false, pluginDirs: [] });
    try {
      expect(await servicesOf(app).settings.get('rate_limit_per_minute')).toBe(600);
      expect(((await app.inject({ url: '/api/system/settings' })).json() as Record<string, unknown>).app_name).toBe('My <Panel>');
    } finally {
      await app.close();
    }
  });

  it('refuses an unknown key and a value of the wrong type, readably', async () => {
    const unknown = await run(['settings', 'set', 'no_such_key', '1'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('error: there is no setting "no_such_key" (neither the core nor an installed plugin declares it)');
    const wrong = await run(['settings', 'set', 'rate_limit_per_minute', 'lots'], env);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toBe('error: rate_limit_per_minute must be a number.');
    expect((await run(['settings', 'set', 'rate_limit_per_minute'], env)).code).toBe(2);
  });

  it('sets several pairs in one call, and changes nothing when one of them is refused', async () => {
    const env2 = { ...env, DATA_DIR: join(work, 'settings-pairs') };
    const both = await run(['settings', 'set', 'rate_limit_per_minute', '700', 'app_name', 'Pairs'], env2);
    expect(both).toMatchObject({ code: 0, err: '' });
    expect(both.out).toBe('Set rate_limit_per_minute = 700.\nSet app_name = "Pairs".');
    const refused = await run(['settings', 'set', 'app_name', 'Changed', 'rate_limit_per_minute', 'lots'], env2);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('error: rate_limit_per_minute must be a number.');
    expect((await run(['settings', 'set', 'app_name', 'x', 'no_such_key', '1'], env2)).code).toBe(1);
    expect((await run(['settings', 'set', 'app_name', 'x', 'rate_limit_per_minute'], env2)).code).toBe(2);
    const app = await buildApp({ config: loadConfig(env2), logger: false, builtPlugins: false, pluginDirs: [] });
    try {
      expect(await servicesOf(app).settings.getMany(['rate_limit_per_minute', 'app_name'])).toEqual({ rate_limit_per_minute: 700, app_name: 'Pairs' });
    } finally {
      await app.close();
    }
  });

  it('parses values by the declared type', () => {
    const flag = { key: 'f', type: 'boolean', default: false } as const;
    expect(parseSettingValue(flag, 'on')).toBe(true);
    expect(parseSettingValue(flag, 'false')).toBe(false);
    expect(parseSettingValue(flag, 'maybe')).toBe('maybe');
    expect(parseSettingValue({ key: 'n', type: 'number', default: 0 }, ' 12 ')).toBe(12);
    expect(parseSettingValue({ key: 'n', type: 'number', default: 0 }, '')).toBe('');
    expect(parseSettingValue({ key: 's', type: 'string', default: '' }, '042')).toBe('042');
  });
});
