// The `orepanel` command: serve, migrate, user create, settings set, plugin build. Exit codes: 0 done,
// 1 failed, 2 wrong usage.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isHttpError, type SettingValue } from '../sdk/server';
import type { ManifestSetting } from '../sdk/types';
import { buildApp, openMigratedDatabase, servicesOf } from './app';
import { Accounts } from './auth/accounts';
import { ConfigError, loadConfig, type Config } from './config';
import { findPackageRoot } from './paths';
import { serve } from './serve';
import { CORE_SETTINGS } from './settings/catalogue';
import { SettingsStore } from './settings/store';

const USAGE = `Usage:
  orepanel serve                 start the panel (PORT, HOST, DATA_DIR, DATABASE_URL, … from the environment)
  orepanel migrate               apply the database migrations of the core and every plugin, then exit
  orepanel user create --username U --email E --password P [--role 8] [--first-name F] [--last-name L]
                                 create an account (role 8 = Administrator: the first administrator)
  orepanel settings set <key> <value>
                                 change an application setting (core or an installed plugin's), e.g.
                                 orepanel settings set rate_limit_per_minute 300; a running panel
                                 sees the change within a few seconds
  orepanel plugin build <dir> [--out <DATA_DIR>/plugins/<id>] [--development]
                                 build a plugin folder written against the SDK (plugin.json,
                                 client/index.tsx, server/index.ts, locales/) into an installable
                                 folder (client/, build.json, server.js); in place without --out.
                                 Restart the panel to load it, then enable it at /mc-admin/plugins.
  orepanel help                  show this text`;

class UsageError extends Error {}

export interface CliIO {
  out: (text: string) => void;
  err: (text: string) => void;
}

const defaultIO: CliIO = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

async function migrate(config: Config, io: CliIO): Promise<number> {
  const app = await buildApp({ config, logger: false });
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
  if (args.length !== 2) throw new UsageError(`settings set takes a key and a value (got ${args.length} argument${args.length === 1 ? '' : 's'})`);
  const [key, text] = args;
  // the whole app: plugins' settings are declared by their manifests
  const app = await buildApp({ config, logger: false });
  try {
    const { settings } = servicesOf(app);
    const def = settings.definition(key);
    if (!def) {
      io.err(`error: there is no setting "${key}" (neither the core nor an installed plugin declares it)`);
      return 1;
    }
    try {
      await settings.set(key, parseSettingValue(def, text));
    } catch (error) {
      if (isHttpError(error)) {
        io.err(`error: ${error.message}`);
        return 1;
      }
      throw error;
    }
    const shown = def.secret ? '(secret, not shown)' : JSON.stringify(await settings.get(key));
    io.out(`Set ${key} = ${shown}.`);
    return 0;
  } finally {
    await app.close();
  }
}

async function buildPluginFolder(args: string[], io: CliIO): Promise<number> {
  let values: { out?: string; development?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { out: { type: 'string' }, development: { type: 'boolean' } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (positionals.length !== 1) throw new UsageError('plugin build takes one plugin folder');
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
  // a third-party plugin arrives disabled: none of its code runs before an administrator says so
  io.out('Restart the panel to load it (plugins are discovered at start-up), then enable it at /mc-admin/plugins.');
  return 0;
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
      case 'plugin':
        if (rest[0] !== 'build') throw new UsageError(`unknown plugin command "${rest[0] ?? ''}" (expected: plugin build)`);
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
