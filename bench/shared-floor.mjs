// The floor under the kernel bundle (issue 15): the third-party packages the kernel shares with
// plugins, bundled as the kernel ships them — each eager module of sdk/shared-modules.json as a whole
// namespace (a plugin may use any export, so none can be tree-shaken), with the SystemJS loader and
// the tapable hooks the kernel runs on — through the build's own transpile and minify plugins, gzip -9.
// No line of the panel's own code is in it: JS + CSS for a page that runs the kernel cannot go below
// this figure. Each group's share is what leaving only that group out saves (groups share code, e.g.
// everything shares react, so the shares do not add up to the total).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import { browserTranspile } from '../kernel/build/common.mjs';
import { ROOT } from './lib.mjs';

/** The kernel's own package imports beside the shared modules (kernel/modules/*.ts). */
const KERNEL_RUNTIME = {
  systemjs: ["import 'systemjs/dist/s.js';"],
  tapable: [
    "export { default as AsyncSeriesHook } from 'tapable/lib/AsyncSeriesHook.js';",
    "export { default as SyncBailHook } from 'tapable/lib/SyncBailHook.js';",
    "export { default as SyncHook } from 'tapable/lib/SyncHook.js';",
  ],
};

/** Shared specifiers by the package group whose share is reported. */
function groupOf(specifier) {
  if (specifier === 'react' || specifier.startsWith('react/') || specifier.startsWith('react-dom')) return 'react + react-dom';
  if (specifier === 'i18next' || specifier === 'react-i18next') return 'i18next + react-i18next';
  if (specifier.startsWith('@emotion/')) return '@emotion/react';
  if (specifier === 'react-router-dom') return 'react-router-dom (browser exports)';
  return specifier;
}

/** The eager third-party shared modules (the sdk is the panel's own code). */
function sharedPackages() {
  const { modules } = JSON.parse(readFileSync(join(ROOT, 'sdk', 'shared-modules.json'), 'utf8'));
  return Object.entries(modules)
    .filter(([specifier, mode]) => mode === 'eager' && !specifier.startsWith('@orepanel/'))
    .map(([specifier]) => specifier);
}

/** The entry's source: every namespace kept alive, as kernel/modules/shared-modules.ts does. */
function entrySource(specifiers, runtime) {
  const lines = [];
  specifiers.forEach((specifier, i) => {
    // the kernel shares its browser-only list of the router's exports, not the package's index
    const from = specifier === 'react-router-dom' ? join(ROOT, 'kernel', 'modules', 'react-router-dom-browser.ts') : specifier;
    lines.push(`import * as m${i} from ${JSON.stringify(from)};`);
  });
  lines.push(`export const namespaces = [${specifiers.map((_, i) => `m${i}`).join(', ')}];`);
  for (const name of runtime) lines.push(...KERNEL_RUNTIME[name]);
  return lines.join('\n');
}

const ENTRY = '\0shared-floor-entry';

async function gzipOfBundle(source) {
  const bundle = await rollup({
    input: ENTRY,
    onwarn: () => {},
    plugins: [
      { name: 'shared-floor-entry', resolveId: (id) => (id === ENTRY ? ENTRY : null), load: (id) => (id === ENTRY ? source : null) },
      ...browserTranspile({ production: true }),
    ],
  });
  try {
    const { output } = await bundle.generate({ format: 'es', inlineDynamicImports: true });
    return output.reduce((sum, file) => sum + (file.type === 'chunk' ? gzipSync(file.code, { level: 9 }).length : 0), 0);
  } finally {
    await bundle.close();
  }
}

/** gzip -9 bytes of the shared packages together; measured once per process. */
export function sharedModulesTotal() {
  total ??= gzipOfBundle(entrySource(sharedPackages(), Object.keys(KERNEL_RUNTIME)));
  return total;
}
let total = null;

/** { total, shares: [[group, bytes saved without it]] }, gzip -9 bytes: one more build per group. */
export async function sharedModulesFloor() {
  const specifiers = sharedPackages();
  const runtime = Object.keys(KERNEL_RUNTIME);
  const all = await sharedModulesTotal();
  const groups = [...new Set(specifiers.map(groupOf)), ...runtime];
  const shares = [];
  for (const group of groups) {
    const without = await gzipOfBundle(
      entrySource(
        specifiers.filter((s) => groupOf(s) !== group),
        runtime.filter((name) => name !== group),
      ),
    );
    shares.push([group, all - without]);
  }
  return { total: all, shares: shares.sort((a, b) => b[1] - a[1]) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { total, shares } = await sharedModulesFloor();
  console.log(`shared packages as the kernel ships them: ${(total / 1024).toFixed(1)} KB gzip`);
  for (const [group, bytes] of shares) console.log(`  ${group.padEnd(36)} ${(bytes / 1024).toFixed(1).padStart(6)} KB`);
}
