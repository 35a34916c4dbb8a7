// The `orepanel` command: serve, migrate, user create, settings set, backup, plugin build. Exit codes: 0 done,
// 1 failed, 2 wrong usage.
import { createReadStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { BackupArchiveError, isHttpError, type BackupManifest, type BackupProgress, type SettingValue } from '../sdk/server';
import type { ManifestSetting } from '../sdk/types';
import { SDK_VERSION } from '../sdk/version';
import { buildApp, openMigratedDatabase, servicesOf } from './app';
import { Accounts } from './auth/accounts';
import { archiveName, isArchiveName } from './backup/archive-name';
import type { PanelBackups } from './backup/panel-backups';
import { ConfigError, loadConfig, type Config } from './config';
import { findPackageRoot } from './paths';
import { packPluginFolder } from './plugins/plugin-archive';
import { serve } from './serve';
import { CORE_SETTINGS } from './settings/catalogue';
import { SettingsStore, settingValueProblem } from './settings/store';

const USAGE = `Usage:
  orepanel serve                 start the panel (PORT, HOST, DATA_DIR, DATABASE_URL, … from the environment)
  orepanel migrate               apply the database migrations of the core and every plugin, then exit
  orepanel user create --username U --email E --password P [--role 8] [--first-name F] [--last-name L]
                                 create an account (role 8 = Administrator: the first administrator)
  orepanel settings set <key> <value> [<key> <value> …]
                                 change application settings (core or an installed plugin's), e.g.
                                 orepanel settings set rate_limit_per_minute 300; a running panel
                                 sees the change within a few seconds
  orepanel plugin init <id> [--dir <folder>] [--sdk <version or file:…tgz>]
                                 a new plugin project outside the panel (docs/plugins.md): a page
                                 that reads and writes, a server route with its own table, six
                                 languages, client and server tests; depends on @orepanel/sdk
  orepanel plugin build <dir> [--out <DATA_DIR>/plugins/<id>] [--pack] [--development]
                                 check a plugin folder written against the SDK (types, the same
                                 translation keys in every language, tables named after the
                                 plugin) and build it (plugin.json, client/index.tsx,
                                 server/index.ts, locales/) into an installable folder (client/,
                                 build.json, server.js); in place without --out. --pack also
                                 writes <id>-<version>.tgz beside the --out folder. Install it at
                                 /mc-admin/plugins (Rescan finds a folder copied into
                                 DATA_DIR/plugins; no restart), then enable it there.
  orepanel backup create         archive the whole panel (every table and file) into
                                 DATA_DIR/backups, encrypted with this install's key (or
                                 BACKUP_PASSPHRASE); the panel may keep running
  orepanel backup list           the archives in DATA_DIR/backups, newest first
  orepanel backup verify NAME|FILE
                                 decrypt an archive and check every checksum; changes nothing
  orepanel backup restore NAME|FILE [--yes]
                                 replace every table and file with the archive's (a FILE from
                                 elsewhere is copied into DATA_DIR/backups first); takes a
                                 before-restore archive first. Works across databases: an archive
                                 from SQLite restores into the DATABASE_URL's PostgreSQL or MariaDB,
                                 and back. Asks first unless --yes
  orepanel help                  show this text`;

class UsageError extends Error {}

export interface CliIO {
  out: (text: string) => void;
  err: (text: string) => void;
  /** asks a yes/no question (default: on the terminal; no terminal answers no) */
  confirm?: (question: string) => Promise<boolean>;
}

async function askTerminal(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(`${question} [y/N] `)).trim());
  } finally {
    prompt.close();
  }
}

const defaultIO: CliIO = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  confirm: askTerminal,
};

async function migrate(config: Config, io: CliIO): Promise<number> {
  const app = await buildApp({ config, logger: false, instance: false });
  try {
    const { database, plugins } = servicesOf(app);
    io.out(`Database (${database.dialect}) is up to date: core and ${plugins.list().length} plugin(s).`);
    for (const refused of plugins.refused) io.err(`plugin "${refused.id}" refused: ${refused.reason}`);
    return 0;
  } finally {
    await app.close();
  }
}

async function createUser(config: Config, args: string[], io: CliIO): Promise<number> {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        username: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        role: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }) as { values: Record<string, string | undefined> });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const missing = ['username', 'email', 'password'].filter((name) => !values[name]);
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((m) => `--${m}`).join(', ')}`);
  const roleText = values.role ?? '1';
  if (!/^\d{1,4}$/.test(roleText)) throw new UsageError(`--role must be a role number (1 Default … 8 Administrator), not "${roleText}"`);

  const database = await openMigratedDatabase(config);
  try {
    const settings = new SettingsStore(database.db);
    settings.declare('core', CORE_SETTINGS);
    await settings.ensureDefaults();
    const accounts = new Accounts(database.db, settings);
    const user = await accounts.create({
      username: values.username!,
      email: values.email!,
      password: values.password!,
      role: Number(roleText),
      firstName: values['first-name'] ?? values.username!,
      lastName: values['last-name'] ?? values.username!,
    });
    // the host typed this address on the server itself: there is no one to send a verify link to
    await database.db.updateTable('users').set({ verified: 1 }).where('id', '=', user.id).execute();
    io.out(`Created user ${user.username} (uuid ${user.uuid}, role ${roleText}).`);
    return 0;
  } catch (error) {
    if (isHttpError(error)) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

/** A command-line value as the setting's type: booleans and numbers parsed, the rest as text. */
export function parseSettingValue(def: ManifestSetting, text: string): SettingValue {
  if (def.type === 'boolean') {
    const word = text.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(word)) return true;
    if (['false', '0', 'no', 'off'].includes(word)) return false;
    return text; // refused by the store with "must be true or false"
  }
  if (def.type === 'number') {
    const n = Number(text);
    return text.trim() !== '' && Number.isFinite(n) ? n : text;
  }
  return text;
}

async function setSetting(config: Config, args: string[], io: CliIO): Promise<number> {
  if (args.length === 0 || args.length % 2 !== 0) {
    throw new UsageError(`settings set takes a key and a value, or several key value pairs (got ${args.length} argument${args.length === 1 ? '' : 's'})`);
  }
  const pairs: [string, string][] = [];
  for (let i = 0; i < args.length; i += 2) pairs.push([args[i]!, args[i + 1]!]);
  // the whole app: plugins' settings are declared by their manifests
  const app = await buildApp({ config, logger: false, instance: false });
  try {
    const { settings } = servicesOf(app);
    // every pair is checked before the first is written: one bad pair changes nothing
    const changes: { key: string; def: ManifestSetting; value: SettingValue }[] = [];
    for (const [key, text] of pairs) {
      const def = settings.definition(key);
      if (!def) {
        io.err(`error: there is no setting "${key}" (neither the core nor an installed plugin declares it)`);
        return 1;
      }
      const value = parseSettingValue(def, text);
      const problem = settingValueProblem(def, value);
      if (problem) {
        io.err(`error: ${key} ${problem}.`);
        return 1;
      }
      changes.push({ key, def, value });
    }
    for (const { key, def, value } of changes) {
      try {
        await settings.set(key, value);
      } catch (error) {
        if (isHttpError(error)) {
          io.err(`error: ${error.message}`);
          return 1;
        }
        throw error;
      }
      const shown = def.secret ? '(secret, not shown)' : JSON.stringify(await settings.get(key));
      io.out(`Set ${key} = ${shown}.`);
    }
    return 0;
  } finally {
    await app.close();
  }
}

async function buildPluginFolder(args: string[], io: CliIO): Promise<number> {
  let values: { out?: string; development?: boolean; pack?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { out: { type: 'string' }, development: { type: 'boolean' }, pack: { type: 'boolean' } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (positionals.length !== 1) throw new UsageError('plugin build takes one plugin folder');
  // an archive of a folder built in place would carry the plugin's sources along
  if (values.pack && !values.out) throw new UsageError('--pack needs --out: the archive holds the built folder only');
  // the build tools (rollup, esbuild) are loaded only for this command, from the panel's own folder,
  // both when running from the sources and from dist/
  const builder = pathToFileURL(join(findPackageRoot(), 'kernel', 'build', 'installable-plugin.mjs')).href;
  let tools: typeof import('../kernel/build/installable-plugin.mjs');
  try {
    tools = (await import(builder)) as typeof import('../kernel/build/installable-plugin.mjs');
  } catch (error) {
    io.err(`error: the plugin build tools could not be loaded (${(error as Error).message}); run npm install in the panel's folder`);
    return 1;
  }
  const built = await tools.buildInstallablePlugin({ pluginDir: positionals[0], outDir: values.out, production: values.development !== true });
  io.out(`Built plugin "${built.id}" ${built.version} into ${tools.displayPath(built.outDir)}${built.inPlace ? ' (in place)' : ''}:`);
  for (const file of built.files) io.out(`  ${file}`);
  if (built.record.entry) io.out(`entry ${built.record.entry} (${built.record.integrity})`);
  if (values.pack) {
    const archive = join(dirname(built.outDir), `${built.id}-${built.version}.tgz`);
    writeFileSync(archive, packPluginFolder(built.outDir));
    io.out(`Packed ${tools.displayPath(archive)}: upload it at /mc-admin/plugins.`);
  }
  // a third-party plugin arrives disabled: none of its code runs before an administrator says so
  io.out('Install it at /mc-admin/plugins (Rescan finds a folder in DATA_DIR/plugins; no restart), then enable it there.');
  return 0;
}

/** `orepanel plugin init <id>`: the sdk package's `init`, with the panel's own versions. */
async function initPluginProject(args: string[], io: CliIO): Promise<number> {
  let values: { dir?: string; sdk?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, options: { dir: { type: 'string' }, sdk: { type: 'string' } }, strict: true, allowPositionals: true }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (positionals.length !== 1) throw new UsageError('plugin init takes one plugin id, e.g. orepanel plugin init notes');
  const root = findPackageRoot();
  const scaffold = (await import(pathToFileURL(join(root, 'kernel', 'build', 'scaffold.mjs')).href)) as typeof import('../kernel/build/scaffold.mjs');
  const panel = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const id = positionals[0];
  try {
    const made = scaffold.scaffoldPlugin({
      id,
      dir: values.dir,
      sdk: values.sdk ?? `^${SDK_VERSION}`,
      sdkVersion: SDK_VERSION,
      devDependencies: scaffold.pluginDevDependencies(panel),
    });
    io.out(`Created plugin "${id}" in ${made.dir}:`);
    for (const file of made.files) io.out(`  ${file}`);
    io.out(`Next: cd ${values.dir ?? id} && npm install && npm test && npm run build, then upload dist/${id}-1.0.0.tgz at /mc-admin/plugins and enable it.`);
    return 0;
  } catch (error) {
    io.err(`error: ${(error as Error).message}`);
    return 1;
  }
}

// ---- backup ----------------------------------------------------------------------------------

const UNITS: Partial<Record<BackupProgress['phase'], string>> = { tables: 'rows', restore: 'rows', files: 'files', migrate: 'migrations' };

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Progress as lines on stderr: at each new phase, then at most once a second. */
function progressLines(io: CliIO): (progress: BackupProgress) => void {
  let phase = '';
  let last = 0;
  return (progress) => {
    const now = Date.now();
    if (progress.phase === phase && now - last < 1000) return;
    phase = progress.phase;
    last = now;
    if (progress.phase === 'done') return;
    const unit = UNITS[progress.phase];
    const amount =
      progress.total === 0
        ? ''
        : progress.phase === 'verify'
          ? ` ${megabytes(progress.done)} of ${megabytes(progress.total)}`
          : ` ${progress.done}/${progress.total}${unit ? ` ${unit}` : ''}`;
    io.err(`${progress.phase}${amount}`);
  };
}

/** The database a command works on, without a password: for the restore's question. */
function describeDatabase(config: Config): string {
  if (config.database.dialect === 'sqlite') return `SQLite ${config.database.file}`;
  const url = new URL(config.database.url);
  return `${config.database.dialect === 'postgres' ? 'PostgreSQL' : 'MariaDB/MySQL'} ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

/** NAME of an archive in the folder, or the path of a FILE elsewhere. */
function whichArchive(backups: PanelBackups, argument: string): { name: string } | { path: string } {
  if (isArchiveName(argument) && existsSync(join(backups.directory, argument))) return { name: argument };
  const path = resolve(argument);
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new BackupArchiveError('BACKUP_NOT_FOUND', `There is no backup ${argument} in ${backups.directory}, and no such file.`);
  }
  if (dirname(path) === backups.directory && isArchiveName(basename(path))) return { name: basename(path) };
  return { path };
}

function summary(manifest: BackupManifest): string {
  const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
  return `taken ${manifest.createdAt} on ${manifest.dialect} by panel ${manifest.panelVersion}: ${manifest.tables.length} tables, ${rows} rows, ${manifest.files.count} files (${megabytes(manifest.files.bytes)})`;
}

async function backup(config: Config, args: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = args;
  let values: { yes?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: rest, options: { yes: { type: 'boolean' } }, strict: true, allowPositionals: true }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const takes = command === 'verify' || command === 'restore' ? 1 : 0;
  if (!['create', 'list', 'verify', 'restore'].includes(command ?? '')) throw new UsageError(`unknown backup command "${command ?? ''}" (expected: create, list, verify, restore)`);
  if (positionals.length !== takes) throw new UsageError(takes === 1 ? `backup ${command} takes one backup name or file` : `backup ${command} takes no arguments`);
  if (values.yes && command !== 'restore') throw new UsageError('--yes goes with backup restore');
  // the panel as the server would build it (every plugin's migrations), without its scheduled jobs
  const app = await buildApp({ config, logger: false, jobs: false, instance: false });
  try {
    const backups = servicesOf(app).panelBackup;
    const progress = progressLines(io);
    switch (command) {
      case 'create': {
        const made = await backups.create('manual', { onProgress: progress });
        io.out(`Created ${made.name} (${megabytes(made.size)}) in ${backups.directory}.`);
        return 0;
      }
      case 'list': {
        const list = await backups.list();
        if (list.length === 0) io.out(`No backups in ${backups.directory}.`);
        for (const item of list) io.out(`${item.name}  ${item.kind}  ${item.createdAt}  ${megabytes(item.size)}  panel ${item.panelVersion}`);
        return 0;
      }
      case 'verify': {
        const target = whichArchive(backups, positionals[0]);
        const manifest = 'name' in target ? await backups.verify(target.name, { onProgress: progress }) : await backups.verifyFile(target.path, { onProgress: progress });
        io.out(`${positionals[0]} is intact: ${summary(manifest)}.`);
        return 0;
      }
      default: {
        const target = whichArchive(backups, positionals[0]);
        const archive = 'name' in target ? await backups.openNamed(target.name) : await backups.openFile(target.path);
        await backups.checkCompatible(archive.manifest);
        io.err(`Restore ${positionals[0]} into ${describeDatabase(config)}:`);
        io.err(`  ${summary(archive.manifest)}.`);
        io.err("  Every table and file of this panel is replaced by the backup's; a before-restore backup is taken first.");
        if (!values.yes) {
          const confirm = io.confirm ?? askTerminal;
          if (!(await confirm('Restore now?'))) {
            io.err('Nothing was changed (add --yes to restore without being asked).');
            return 1;
          }
        }
        let name: string;
        if ('name' in target) name = target.name;
        else {
          name = (await backups.receive(archiveName('imported', new Date()), createReadStream(target.path))).name;
          io.err(`Copied into ${backups.directory} as ${name}.`);
        }
        const { beforeRestore } = await backups.restore(name, { onProgress: progress });
        io.out(`Restored ${name}. The panel as it was is in ${beforeRestore.name}.`);
        return 0;
      }
    }
  } catch (error) {
    if (error instanceof BackupArchiveError) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await app.close();
  }
}

/** Runs one command; resolves to the exit code (serve resolves once the server listens). */
export async function main(argv: string[], io: CliIO = defaultIO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === 'help' || command === '--help' || command === '-h') {
      io.out(USAGE);
      return command ? 0 : 2;
    }
    const config = loadConfig(env);
    switch (command) {
      case 'serve':
        if (rest.length > 0) throw new UsageError(`serve takes no arguments (got ${rest.join(' ')})`);
        await serve(config);
        return 0;
      case 'migrate':
        if (rest.length > 0) throw new UsageError(`migrate takes no arguments (got ${rest.join(' ')})`);
        return await migrate(config, io);
      case 'user':
        if (rest[0] !== 'create') throw new UsageError(`unknown user command "${rest[0] ?? ''}" (expected: user create)`);
        return await createUser(config, rest.slice(1), io);
      case 'settings':
        if (rest[0] !== 'set') throw new UsageError(`unknown settings command "${rest[0] ?? ''}" (expected: settings set)`);
        return await setSetting(config, rest.slice(1), io);
      case 'backup':
        return await backup(config, rest, io);
      case 'plugin':
        if (rest[0] === 'init') return await initPluginProject(rest.slice(1), io);
        if (rest[0] !== 'build') throw new UsageError(`unknown plugin command "${rest[0] ?? ''}" (expected: plugin init, plugin build)`);
        return await buildPluginFolder(rest.slice(1), io);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    io.err(`error: ${(error as Error).message ?? String(error)}`);
    return 1;
  }
}
