#!/usr/bin/env node
// `npx @orepanel/sdk …` (or `orepanel-sdk …` in a plugin project): the plugin author's commands, with
// the panel's own build preset and checks. Exit codes: 0 done, 1 failed, 2 wrong usage.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = `Usage:
  orepanel-sdk init <id> [--dir <folder>] [--sdk <version or file:…tgz>]
        a new plugin project in ./<id> (or --dir): plugin.json, a page that reads and writes, a server
        route with its own table, six languages, a client and a server test, a README
  orepanel-sdk build [<plugin folder>] [--out <folder>] [--pack] [--development] [--skip-typecheck]
        check (types, translation keys in every language, table names) and build the plugin into an
        installable folder (default <plugin folder>/dist/<id>); --pack also writes <id>-<version>.tgz
        next to it, the archive to upload at /mc-admin/plugins
  orepanel-sdk help`;

const packageRoot = new URL('..', import.meta.url);
const ownPackage = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8'));

class UsageError extends Error {}

function parse(args, options) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error.message);
  }
}

async function init(args) {
  const { values, positionals } = parse(args, { dir: { type: 'string' }, sdk: { type: 'string' } });
  if (positionals.length !== 1) throw new UsageError('init takes one plugin id, e.g. orepanel-sdk init notes');
  const { scaffoldPlugin } = await import('../kernel/build/scaffold.mjs');
  const id = positionals[0];
  const made = scaffoldPlugin({
    id,
    dir: values.dir,
    sdk: values.sdk ?? `^${ownPackage.version}`,
    sdkVersion: ownPackage.version,
    devDependencies: ownPackage.orepanel.pluginDevDependencies,
  });
  process.stdout.write(`Created plugin "${id}" in ${made.dir}:\n${made.files.map((f) => `  ${f}`).join('\n')}\n`);
  process.stdout.write(`Next:\n  cd ${values.dir ?? id}\n  npm install\n  npm test\n  npm run build\nthen install dist/${id}-1.0.0.tgz at /mc-admin/plugins and enable it.\n`);
  return 0;
}

async function build(args) {
  const { values, positionals } = parse(args, {
    out: { type: 'string' },
    pack: { type: 'boolean' },
    development: { type: 'boolean' },
    'skip-typecheck': { type: 'boolean' },
  });
  if (positionals.length > 1) throw new UsageError('build takes one plugin folder');
  const pluginDir = resolve(positionals[0] ?? '.');
  const { readPluginManifest } = await import('../kernel/build/plugin-preset.mjs');
  const { buildInstallablePlugin, displayPath } = await import('../kernel/build/installable-plugin.mjs');
  const manifest = readPluginManifest(pluginDir, { checkFolderName: false });
  const outDir = resolve(values.out ?? join(pluginDir, 'dist', manifest.id));
  const built = await buildInstallablePlugin({ pluginDir, outDir, production: values.development !== true, typeCheck: values['skip-typecheck'] !== true });
  process.stdout.write(`Built plugin "${built.id}" ${built.version} into ${displayPath(built.outDir)}:\n${built.files.map((f) => `  ${f}`).join('\n')}\n`);
  if (values.pack) {
    const { packPluginFolder } = await import('../dist/plugin-archive.js');
    const archive = join(outDir, '..', `${built.id}-${built.version}.tgz`);
    writeFileSync(archive, packPluginFolder(outDir));
    process.stdout.write(`Packed ${displayPath(archive)}: upload it at /mc-admin/plugins, then enable the plugin there.\n`);
  } else {
    process.stdout.write('Install it at /mc-admin/plugins (upload it packed with --pack, or copy the folder into DATA_DIR/plugins and press Rescan), then enable it.\n');
  }
  return 0;
}

async function main(argv) {
  const [command, ...rest] = argv;
  try {
    if (!command || command === 'help' || command === '--help' || command === '-h') {
      process.stdout.write(`${USAGE}\n`);
      return command ? 0 : 2;
    }
    if (command === 'init') return await init(rest);
    if (command === 'build') return await build(rest);
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
