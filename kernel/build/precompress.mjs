// Writes `<file>.gz` (zlib level 9) and `<file>.br` (brotli quality 11) next to every text asset of
// dist/public, so the server sends precompressed bytes instead of compressing on every request.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Extensions worth compressing (images other than SVG are compressed already). */
export const COMPRESSIBLE = /\.(js|css|html|json|svg)$/;

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Compresses every .js, .css, .html, .json and .svg file under `dir`.
 * @returns {Promise<number>} how many files were compressed
 */
export async function precompressDirectory(dir) {
  const jobs = [];
  for await (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    jobs.push(
      (async () => {
        const bytes = await readFile(file);
        const [gz, br] = await Promise.all([
          gzipAsync(bytes, { level: 9 }),
          brotliAsync(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          }),
        ]);
        await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
      })(),
    );
  }
  await Promise.all(jobs);
  return jobs.length;
}
