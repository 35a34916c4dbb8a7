// The kernel's build: kernel/main.tsx -> dist/public/assets/kernel-<hash>.js (ESM, with lazy chunks for
// sweetalert2, skinview3d and the rarely used kernel parts), the public/ files (index.html generated
// from its template, hashed main.css and images, sw.js) and the kernel's catalogues as hashed JSON.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { browserTranspile, contentHash, quietWarnings, repoRoot, sdkAlias } from './common.mjs';

/** The six languages of the interface (spec §1); every one must have a kernel catalogue. */
export const KERNEL_LANGUAGES = ['en', 'ro', 'fr', 'de', 'es', 'md'];

/** i18n namespaces of the panel itself, which no plugin id may take. */
const RESERVED_NAMESPACES = new Set(['kernel', 'sdk']);

/** Reads one catalogue file, failing the build with a readable message. */
function readCatalogue(context, file) {
  if (!existsSync(file)) context.error(`the catalogue ${file} is missing (every language needs one)`);
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    return parsed;
  } catch (error) {
    return context.error(`${file} is not a valid catalogue: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Where index.html gets the assets the build knows about. */
const ASSETS_MARKER = '<!--orepanel:assets-->';

/** Where the server writes the start-up data (the same text as BOOT_MARKER in server/http/index-document.ts). */
export const BOOT_MARKER = '<!--orepanel:boot-->';

/** SVGs up to this size are embedded in index.html instead of fetched. */
const MAX_INLINE_SVG_BYTES = 2048;

/** Files of public/ that keep their name (fetched by a fixed URL). */
const FIXED_NAME_FILES = new Set(['index.html', 'sw.js']);

function escapeAttribute(text) {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** JSON safe inside a <script type="application/json"> block. */
function jsonForHtml(value) {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Replaces every `"/<name>"`, `'/<name>'` or `(/<name>)` reference with the hashed URL. */
function rewriteReferences(text, urls) {
  let out = text;
  for (const [original, hashed] of urls) {
    out = out.replace(new RegExp(`(["'(])${original.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(["')])`, 'g'), `$1${hashed}$2`);
  }
  return out;
}

/** The static imports of a chunk, recursively (what the browser needs before the entry can run). */
function staticImportsOf(bundle, fileName, seen = new Set()) {
  const chunk = bundle[fileName];
  if (!chunk || chunk.type !== 'chunk') return seen;
  for (const dep of chunk.imports) {
    if (seen.has(dep)) continue;
    seen.add(dep);
    staticImportsOf(bundle, dep, seen);
  }
  return seen;
}

/** Paths (with forward slashes) of the files inside the sub-folders of `dir`, at any depth. */
function filesInFolders(dir, prefix = '') {
  /** @type {string[]} */
  const out = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...filesInFolders(dir, path));
    else if (entry.isFile() && prefix) out.push(path);
  }
  return out;
}

/** The inline copy of main.css in index.html (kernel/startup/main-stylesheet.ts reads the same id). */
const MAIN_STYLESHEET_ELEMENT_ID = 'op-main-css';

/** CSS for a <style> element: its comments dropped, and nothing in it may end the element. */
function inlineStyle(context, css) {
  const rules = css.replace(/\/\*[\s\S]*?\*\//g, '').trim();
  if (/<\/style/i.test(rules)) context.error('main.css contains "</style": it cannot be written inline in index.html');
  return rules;
}

/** The kernel's module, in a chunk of its own that the entry (kernel/main.tsx) starts. */
const KERNEL_MODULE = join(repoRoot, 'kernel', 'kernel.tsx');

/**
 * Rollup plugin that writes the kernel's public files: hashed copies of public/ assets, the kernel's
 * catalogues, sw.js and index.html (with the hashed script, its modulepreloads, main.css and the
 * catalogue map the kernel reads at start-up).
 */
function kernelDocument({ publicSource, localesSource, pluginCatalogues }) {
  return {
    name: 'orepanel-kernel-document',
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry);
      if (!entry) this.error('the kernel build produced no entry chunk');

      // 1. hashed assets (images, fonts…) and the URL each original name maps to; index.html embeds a
      //    tiny SVG (the favicon) as a data: URL, one request less on every first load
      /** @type {Map<string, string>} */
      const urls = new Map();
      /** @type {Map<string, string>} */
      const inlineInHtml = new Map();
      const files = readdirSync(publicSource, { withFileTypes: true })
        .filter((f) => f.isFile())
        .map((f) => f.name);
      for (const name of files) {
        if (FIXED_NAME_FILES.has(name) || extname(name) === '.css') continue;
        const bytes = readFileSync(join(publicSource, name));
        const ref = this.emitFile({ type: 'asset', name, source: bytes });
        urls.set(`/${name}`, `/${this.getFileName(ref)}`);
        if (extname(name) === '.svg' && bytes.length <= MAX_INLINE_SVG_BYTES) {
          inlineInHtml.set(`/${name}`, `data:image/svg+xml,${encodeURIComponent(bytes.toString('utf8').trim())}`);
        }
      }
      // 1b. files in folders of public/ (e.g. skins/default.png, the profiles' default Minecraft skin)
      //     keep their path: plugins address them by a fixed URL, so they cannot be content-hashed
      for (const file of filesInFolders(publicSource)) {
        this.emitFile({ type: 'asset', fileName: file, source: readFileSync(join(publicSource, file)) });
      }
      // 2. stylesheets, with their references to those assets rewritten. main.css is also written under
      //    its fixed name (spec §7: GET /assets/main.css is preloaded); the page asks for it as
      //    /assets/main.css?v=<hash>, which the server answers from the hashed copy, cached for a year
      /** @type {string[]} */
      const stylesheets = [];
      /** main.css: the address index.html preloads it by, and its rules, written inline */
      /** @type {{ href: string, css: string } | null} */
      let main = null;
      for (const name of files.filter((n) => extname(n) === '.css').sort((a, b) => (a === 'main.css' ? -1 : b === 'main.css' ? 1 : a.localeCompare(b)))) {
        const css = rewriteReferences(readFileSync(join(publicSource, name), 'utf8'), urls);
        const ref = this.emitFile({ type: 'asset', name, source: css });
        const url = `/${this.getFileName(ref)}`;
        if (name === 'main.css') {
          const version = /^\/assets\/main-([A-Za-z0-9_-]+)\.css$/.exec(url);
          if (!version) this.error(`the main stylesheet was named ${url}, not /assets/main-<hash>.css`);
          this.emitFile({ type: 'asset', fileName: 'assets/main.css', source: css });
          main = { href: `/assets/main.css?v=${version[1]}`, css };
          urls.set(`/${name}`, main.href);
          urls.set(`/assets/${name}`, main.href);
          continue;
        }
        urls.set(`/${name}`, url);
        urls.set(`/assets/${name}`, url);
        stylesheets.push(url);
      }
      // 3. one catalogue per language (spec §7): the kernel's texts and those of every plugin built with
      //    it, by namespace — the start-up fetches one file instead of one per plugin
      /** @type {Record<string, string>} */
      const locales = {};
      for (const lang of KERNEL_LANGUAGES) {
        /** @type {Record<string, unknown>} */
        const bundled = { kernel: readCatalogue(this, join(localesSource, `${lang}.json`)) };
        for (const plugin of pluginCatalogues) {
          if (!plugin.locales.includes(lang)) continue;
          if (RESERVED_NAMESPACES.has(plugin.id)) this.error(`plugin id "${plugin.id}" is reserved for an i18n namespace of the panel`);
          bundled[plugin.id] = readCatalogue(this, join(plugin.dir, 'locales', `${lang}.json`));
        }
        const source = JSON.stringify(bundled);
        const fileName = `locales/${lang}-${contentHash(Buffer.from(source))}.json`;
        this.emitFile({ type: 'asset', fileName, source });
        locales[lang] = `/${fileName}`;
      }
      // 4. the service worker keeps its fixed URL (a worker's scope comes from its path)
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: readFileSync(join(publicSource, 'sw.js'), 'utf8') });

      // 5. index.html
      const template = readFileSync(join(publicSource, 'index.html'), 'utf8');
      if (!template.includes(ASSETS_MARKER)) this.error(`public/index.html must contain ${ASSETS_MARKER} in its <head>`);
      const script = `/${entry.fileName}`;
      // the entry only starts the kernel (kernel/main.tsx): the kernel's chunk, which the entry imports
      // dynamically, and everything that chunk imports statically download alongside it
      const preloaded = staticImportsOf(bundle, entry.fileName);
      for (const started of entry.dynamicImports) {
        preloaded.add(started);
        staticImportsOf(bundle, started, preloaded);
      }
      preloaded.delete(entry.fileName);
      const preloads = [...preloaded].map((f) => `/${f}`);
      const tags = [
        // spec §7: main.css is preloaded; its rules come inline, so the first frame waits for no
        // stylesheet, and the entry puts the preloaded file in their place (kernel/startup/main-stylesheet.ts)
        ...(main
          ? [
              `<link rel="preload" href="${escapeAttribute(main.href)}" as="style">`,
              `<style id="${MAIN_STYLESHEET_ELEMENT_ID}" data-href="${escapeAttribute(main.href)}">${inlineStyle(this, main.css)}</style>`,
            ]
          : []),
        ...stylesheets.map((href) => `<link rel="stylesheet" href="${escapeAttribute(href)}">`),
        // the fallback catalogue is hinted, so it downloads while the kernel script is still parsing;
        // spec §7's preload of /api/system/custom.css (and custom.js) is written by the server with
        // the boot data, by revision and only when not empty (server/http/index-document.ts)
        `<link rel="preload" href="${escapeAttribute(locales.en)}" as="fetch" crossorigin="anonymous">`,
        ...preloads.map((href) => `<link rel="modulepreload" href="${escapeAttribute(href)}">`),
        `<script type="application/json" id="orepanel-kernel-locales">${jsonForHtml(locales)}</script>`,
        // the server writes the enabled plugins' manifests and the public settings here
        // (server/http/index-document.ts), so the kernel need not fetch them at start-up
        BOOT_MARKER,
        `<script type="module" src="${escapeAttribute(script)}"></script>`,
      ];
      const html = rewriteReferences(template, new Map([...urls, ...inlineInHtml])).replace(ASSETS_MARKER, tags.join('\n    '));
      this.emitFile({ type: 'asset', fileName: 'index.html', source: html });
    },
  };
}

/**
 * Writes dist/kernel-modules.json: every source module inside the kernel's chunks, by chunk. The
 * contract tests read it to prove that the kernel bundle holds no plugin code.
 */
function kernelModuleList(file) {
  return {
    name: 'orepanel-kernel-module-list',
    generateBundle(_options, bundle) {
      /** @type {Record<string, string[]>} */
      const chunks = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        chunks[chunk.fileName] = Object.keys(chunk.modules)
          .filter((id) => !id.startsWith('\0'))
          .map((id) => relative(repoRoot, id.split('?')[0]).split(sep).join('/'))
          .sort();
      }
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, `${JSON.stringify(chunks, null, 1)}\n`);
    },
  };
}

/** Empties the output folders at the start of a build, so stale hashed files do not pile up. */
export function cleanOutput(paths) {
  return {
    name: 'orepanel-clean-output',
    buildStart() {
      for (const path of paths) rmSync(path, { recursive: true, force: true });
    },
  };
}

/**
 * @param {{ outDir: string, production?: boolean, clean?: string[], pluginCatalogues?: { id: string, dir: string, locales: string[] }[] }} options
 *   outDir: dist/ ; `clean` lists paths removed before the build starts; `pluginCatalogues` are the
 *   plugins whose catalogues are bundled into the kernel's per-language files
 * @returns {import('rollup').RollupOptions}
 */
export function kernelConfig({ outDir, production = true, clean = [], pluginCatalogues = [] }) {
  const publicDir = join(outDir, 'public');
  return {
    input: join(repoRoot, 'kernel/main.tsx'),
    // an app entry: nothing imports its exports, so rollup need not keep its signature
    preserveEntrySignatures: false,
    onwarn: quietWarnings,
    plugins: [
      cleanOutput(clean),
      sdkAlias(),
      ...browserTranspile({ production }),
      kernelDocument({ publicSource: join(repoRoot, 'public'), localesSource: join(repoRoot, 'locales'), pluginCatalogues }),
      kernelModuleList(join(outDir, 'kernel-modules.json')),
    ],
    output: {
      dir: publicDir,
      format: 'es',
      entryFileNames: 'assets/kernel-[hash].js',
      // the kernel itself, started by the entry, keeps the kernel- prefix (kernel/main.tsx)
      chunkFileNames: (chunk) => (chunk.moduleIds.includes(KERNEL_MODULE) ? 'assets/kernel-app-[hash].js' : 'assets/[name]-[hash].js'),
      assetFileNames: 'assets/[name]-[hash][extname]',
      sourcemap: false,
    },
  };
}
