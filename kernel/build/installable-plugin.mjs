// `orepanel plugin build <dir> [--out DATA_DIR/plugins/<id>]`: turns a plugin folder written against the
// SDK (plugin.json, client/index.tsx, optional server/index.ts, locales/) into the folder the panel
// installs from DATA_DIR/plugins/<id>/ (server/plugins/discover.ts):
//
//   plugin.json     the manifest (validated with the panel's own schema)
//   client/         the System.register entry, its lazy chunks and the hashed catalogues, served at
//                   /plugins/<id>/… (the same preset as the panel's own plugins)
//   build.json      { entry, integrity, localeFiles } — what dist/plugins.json holds for a bundled
//                   plugin — plus `files`, the list of generated client files (so a rebuild removes
//                   the old hashed ones, even when built in place next to the sources)
//   server.js       the server part, self-contained (node builtins stay imports)
//   custom.css/js   copied when the plugin has them
//   mail/           the default texts of the mail templates plugin.json declares, copied as they are
//
// Without --out the folder is built in place (the plugin folder is its own installed folder).
// Before anything is written the plugin is checked (plugin-checks.mjs): table names in its namespace,
// the same translation keys in every language, and no type errors.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { rollup } from 'rollup';
import { checkPlugin } from './plugin-checks.mjs';
import { buildPlugin, readPluginManifest } from './plugin-preset.mjs';
import { thirdPartyServerConfig } from './server-config.mjs';

/** Files a plugin may ship next to plugin.json that the host reads as they are. */
const COPIED_FILES = ['custom.css', 'custom.js'];

/** The files holding the default texts of the mail templates `manifest` declares, relative to its folder. */
function mailTemplateFiles(manifest) {
  return (manifest.mailTemplates ?? []).flatMap(({ name }) => [`mail/${name}.subject.txt`, `mail/${name}.html`, `mail/${name}.txt`]);
}

/** The generated client files a previous build listed (paths inside client/), if any. */
function previousClientFiles(outDir) {
  const file = join(outDir, 'build.json');
  if (!existsSync(file)) return [];
  try {
    const files = JSON.parse(readFileSync(file, 'utf8')).files;
    return Array.isArray(files) ? files.filter((f) => typeof f === 'string') : [];
  } catch {
    return [];
  }
}

/** Removes what a previous build wrote into client/ (never a file outside it). */
function removeGeneratedClientFiles(outDir, inPlace) {
  const clientDir = join(outDir, 'client');
  if (!inPlace) {
    // a separate installed folder: client/ holds nothing but generated files
    rmSync(clientDir, { recursive: true, force: true });
    return;
  }
  for (const file of previousClientFiles(outDir)) {
    const path = resolve(clientDir, file);
    if (path.startsWith(clientDir + sep)) rmSync(path, { force: true });
  }
}

/**
 * Builds `pluginDir` into an installable folder.
 * @param {{ pluginDir: string, outDir?: string, production?: boolean, typeCheck?: boolean }} options
 *   typeCheck: false skips tsc (the other checks always run)
 * @returns {Promise<{ id: string, version: string, outDir: string, inPlace: boolean, record: import('./plugin-preset.mjs').PluginBuildRecord, files: string[] }>}
 *   `files`: everything written, relative to outDir
 */
export async function buildInstallablePlugin({ pluginDir, outDir, production = true, typeCheck = true }) {
  const source = resolve(pluginDir);
  if (!existsSync(join(source, 'plugin.json'))) throw new Error(`${source} is not a plugin folder: it has no plugin.json`);
  const manifest = readPluginManifest(source, { checkFolderName: false });
  const out = resolve(outDir ?? source);
  const inPlace = out === source;
  const mailFiles = mailTemplateFiles(manifest);
  // the host would refuse the installed plugin for it: say so now, naming the file
  const missingMail = mailFiles.find((file) => !existsSync(join(source, file)));
  if (missingMail) throw new Error(`plugin.json declares a mail template whose ${missingMail} is missing`);
  // the host refuses a plugin whose folder is not named after its id (URLs and the i18n namespace use it)
  if (basename(out) !== manifest.id) {
    throw new Error(
      inPlace
        ? `the plugin id "${manifest.id}" must equal its folder name "${basename(out)}" to be built in place (or give --out <DATA_DIR>/plugins/${manifest.id})`
        : `the installed folder must be named after the plugin id: ${join(dirname(out), manifest.id)} (got ${out})`,
    );
  }
  if (!inPlace && source.startsWith(out + sep)) throw new Error(`the installed folder ${out} cannot contain the plugin's sources ${source}`);
  await checkPlugin(source, manifest, { typeCheck });

  mkdirSync(out, { recursive: true });
  removeGeneratedClientFiles(out, inPlace);
  const clientDir = join(out, 'client');
  const built = await buildPlugin({ pluginDir: source, outDir: clientDir, production, checkFolderName: false });
  const files = built.files.map((f) => `client/${f}`);

  const serverFile = join(out, 'server.js');
  rmSync(serverFile, { force: true });
  if (manifest.server === true) {
    const config = thirdPartyServerConfig({ pluginDir: source, file: serverFile });
    const bundle = await rollup(config);
    try {
      await bundle.write(/** @type {import('rollup').OutputOptions} */ (config.output));
    } finally {
      await bundle.close();
    }
    files.push('server.js');
  }

  if (!inPlace) {
    copyFileSync(join(source, 'plugin.json'), join(out, 'plugin.json'));
    for (const name of COPIED_FILES) {
      if (existsSync(join(source, name))) {
        copyFileSync(join(source, name), join(out, name));
        files.push(name);
      } else {
        rmSync(join(out, name), { force: true });
      }
    }
    files.push('plugin.json');
    // only the declared templates' texts: a template dropped from plugin.json leaves no file behind
    rmSync(join(out, 'mail'), { recursive: true, force: true });
    for (const file of mailFiles) {
      mkdirSync(dirname(join(out, file)), { recursive: true });
      copyFileSync(join(source, file), join(out, file));
      files.push(file);
    }
  }

  writeFileSync(join(out, 'build.json'), `${JSON.stringify({ ...built.record, files: built.files }, null, 2)}\n`);
  files.push('build.json');
  return { id: manifest.id, version: manifest.version, outDir: out, inPlace, record: built.record, files: files.sort() };
}

/** `relative` for messages: a path under the current folder is shown relative to it. */
export function displayPath(path, cwd = process.cwd()) {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') ? rel : path;
}
