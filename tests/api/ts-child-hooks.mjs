// The module hooks behind ts-child.mjs (they run on Node's loader thread).
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transform } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ALIASES = {
  '@orepanel/sdk': 'sdk/client.ts',
  '@orepanel/sdk/server': 'sdk/server.ts',
  '@orepanel/sdk/testing': 'sdk/testing.ts',
  '@orepanel/sdk/testing/server': 'sdk/testing/server.ts',
};

const isFile = (path) => existsSync(path) && statSync(path).isFile();

export async function resolve(specifier, context, next) {
  if (Object.hasOwn(ALIASES, specifier)) return { url: pathToFileURL(join(ROOT, ALIASES[specifier])).href, shortCircuit: true };
  if ((specifier.startsWith('.') || specifier.startsWith('/')) && context.parentURL?.startsWith('file:')) {
    const path = fileURLToPath(new URL(specifier, context.parentURL));
    if (!isFile(path)) {
      for (const candidate of [`${path}.ts`, `${path}.tsx`, join(path, 'index.ts')]) {
        if (isFile(candidate)) return { url: pathToFileURL(candidate).href, shortCircuit: true };
      }
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url.startsWith('file:') && /\.tsx?$/.test(url)) {
    const file = fileURLToPath(url);
    const { code } = await transform(await readFile(file, 'utf8'), {
      loader: file.endsWith('.tsx') ? 'tsx' : 'ts',
      format: 'esm',
      target: 'node20',
      sourcefile: file,
      jsx: 'automatic',
      jsxImportSource: '@emotion/react',
    });
    return { format: 'module', source: code, shortCircuit: true };
  }
  if (url.startsWith('file:') && url.endsWith('.json') && !context.importAttributes?.type) {
    return { format: 'module', source: `export default ${await readFile(fileURLToPath(url), 'utf8')};`, shortCircuit: true };
  }
  return next(url, context);
}
