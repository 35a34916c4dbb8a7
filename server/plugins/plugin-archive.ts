// A built plugin as one file: the installable folder `orepanel plugin build --pack` makes (plugin.json,
// build.json, client/, server.js, …) as a gzip-compressed tar with those files at its root. The
// panel unpacks an uploaded one with a reader of its own that takes regular files and folders only:
// no links, no devices, no absolute or escaping paths, no name twice, within size and count limits —
// all checked while reading into memory, so a refused archive writes nothing to disk.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

/** the largest archive an administrator may upload */
export const MAX_PLUGIN_ARCHIVE_BYTES = 20 * 1024 * 1024;
/** the most its files may hold once unpacked (a small archive may inflate a thousandfold) */
export const MAX_PLUGIN_UNPACKED_BYTES = 64 * 1024 * 1024;
export const MAX_PLUGIN_FILES = 2_000;
const MAX_PATH_LENGTH = 240;
const MAX_DEPTH = 12;
/** one path segment: no dot-only names, no spaces or shell/OS specials */
const SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._@+-]{1,120}$/;
const BLOCK = 512;

export class PluginArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginArchiveError';
  }
}

export interface UnpackedPlugin {
  /** path inside the archive (forward slashes, no leading ./) → contents */
  files: Map<string, Buffer>;
  /** sha256 of the archive as sent: names the version folder it is installed in */
  sha256: string;
}

const refuse = (why: string): never => {
  throw new PluginArchiveError(`The plugin archive is refused: ${why}.`);
};

function text(header: Buffer, start: number, length: number): string {
  const field = header.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function octal(header: Buffer, start: number, length: number): number {
  const raw = text(header, start, length).trim();
  if (raw === '') return 0;
  if (!/^[0-7]{1,12}$/.test(raw)) refuse('an entry header is damaged');
  return Number.parseInt(raw, 8);
}

function checksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
  return sum === octal(header, 148, 8);
}

/** The entry's path as stored, checked: relative, inside the archive, of plain names. */
export function entryPathProblem(raw: string): string | null {
  if (raw.includes('\0') || raw.includes('\\')) return `"${raw}" has a character a path may not hold`;
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) return `"${raw}" is an absolute path`;
  const path = raw.replace(/^(\.\/)+/, '').replace(/\/$/, '');
  if (path.length > MAX_PATH_LENGTH) return `"${raw.slice(0, 60)}…" is a path longer than ${MAX_PATH_LENGTH} characters`;
  const segments = path.split('/');
  if (segments.some((s) => s === '..')) return `"${raw}" points outside the plugin's folder`;
  if (segments.length > MAX_DEPTH) return `"${raw}" is nested deeper than ${MAX_DEPTH} folders`;
  if (!segments.every((s) => SEGMENT.test(s))) return `"${raw}" holds a name that is not allowed (letters, digits, . _ @ + - only)`;
  return null;
}

/** PAX extended header records ("<len> <key>=<value>\n"): the keys this reader honours. */
function paxRecords(body: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number.parseInt(body.subarray(at, space).toString('ascii'), 10);
    if (!Number.isSafeInteger(length) || length <= 0 || at + length > body.length) refuse('an extended header is damaged');
    const record = body.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    at += length;
  }
  return out;
}

/**
 * Reads an uploaded archive into memory, refusing it at the first entry that is not a plain file or
 * folder with a safe path, or when it goes past the limits. Nothing is written.
 */
export function unpackPluginArchive(archive: Buffer): UnpackedPlugin {
  if (archive.length === 0) refuse('it is empty');
  if (archive.length > MAX_PLUGIN_ARCHIVE_BYTES) refuse(`it is larger than ${MAX_PLUGIN_ARCHIVE_BYTES / 1024 / 1024} MB`);
  if (archive[0] !== 0x1f || archive[1] !== 0x8b) refuse('it is not a .tgz file (orepanel plugin build --pack makes one)');
  let tar: Buffer;
  try {
    // the ceiling stops a gzip bomb while it inflates, not after
    tar = gunzipSync(archive, { maxOutputLength: MAX_PLUGIN_UNPACKED_BYTES + 4 * 1024 * 1024 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') refuse(`its files hold more than ${MAX_PLUGIN_UNPACKED_BYTES / 1024 / 1024} MB`);
    refuse('it is not a valid gzip file');
  }
  const files = new Map<string, Buffer>();
  const folders = new Set<string>();
  let total = 0;
  let offset = 0;
  let longName: string | null = null;
  let pax: Record<string, string> = {};
  while (offset + BLOCK <= tar!.length) {
    const header = tar!.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    if (!checksumOk(header)) refuse('an entry header is damaged');
    const type = String.fromCharCode(header[156] || 0x30);
    const size = octal(header, 124, 12);
    const dataStart = offset + BLOCK;
    const next = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (dataStart + size > tar!.length) refuse('it ends in the middle of a file');
    const data = tar!.subarray(dataStart, dataStart + size);
    offset = next;
    if (type === 'x') {
      pax = paxRecords(data);
      continue;
    }
    if (type === 'g') continue;
    if (type === 'L') {
      longName = text(data, 0, data.length);
      continue;
    }
    const prefix = text(header, 345, 155);
    const raw = pax.path ?? longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    pax = {};
    longName = null;
    if (type === '1' || type === '2') refuse(`"${raw}" is a link (only plain files and folders are taken)`);
    if (type !== '0' && type !== '5' && type !== '7') refuse(`"${raw}" is not a plain file or folder`);
    const problem = entryPathProblem(raw);
    if (problem) refuse(problem);
    const path = raw.replace(/^(\.\/)+/, '').replace(/\/$/, '');
    if (path === '' || path === '.') continue;
    const parents = path
      .split('/')
      .slice(0, -1)
      .map((_, i, all) => all.slice(0, i + 1).join('/'));
    if (files.has(path) || parents.some((p) => files.has(p))) refuse(`"${path}" appears twice`);
    if (type === '5') {
      if (files.has(path)) refuse(`"${path}" appears twice`);
      folders.add(path);
      continue;
    }
    if (folders.has(path)) refuse(`"${path}" appears twice`);
    if (files.size >= MAX_PLUGIN_FILES) refuse(`it holds more than ${MAX_PLUGIN_FILES} files`);
    total += size;
    if (total > MAX_PLUGIN_UNPACKED_BYTES) refuse(`its files hold more than ${MAX_PLUGIN_UNPACKED_BYTES / 1024 / 1024} MB`);
    files.set(path, Buffer.from(data));
  }
  if (!files.has('plugin.json')) refuse('it has no plugin.json at its root (pack the built folder, not its parent)');
  return { files, sha256: createHash('sha256').update(archive).digest('hex') };
}

/** Writes unpacked files under `dir` (a new, empty folder the caller made). */
export function writeUnpacked(dir: string, files: ReadonlyMap<string, Buffer>): void {
  for (const [path, contents] of files) {
    const target = join(dir, ...path.split('/'));
    mkdirSync(join(target, '..'), { recursive: true, mode: 0o755 });
    // wx: a name that already exists (it cannot, in a new folder) is an error, never followed
    writeFileSync(target, contents, { flag: 'wx', mode: 0o644 });
  }
}

/** A PAX extended header carrying `name` for the entry after it (a name ustar's fields cannot hold). */
function paxPath(name: string): Buffer {
  const body = (length: number) => `${length} path=${name}\n`;
  let length = Buffer.byteLength(body(0));
  // the record counts its own length's digits
  while (Buffer.byteLength(body(length)) !== length) length = Buffer.byteLength(body(length));
  const record = Buffer.from(body(length));
  return Buffer.concat([header('PaxHeader', record.length, 'x'), record, Buffer.alloc((BLOCK - (record.length % BLOCK)) % BLOCK, 0)]);
}

/** The header block(s) of one entry: ustar, with the name split into prefix/name or carried by a PAX header. */
function headers(name: string, size: number, type: '0' | '5'): Buffer {
  if (Buffer.byteLength(name) <= 100) return header(name, size, type);
  const cut = name.lastIndexOf('/', 155);
  if (cut > 0 && Buffer.byteLength(name.slice(cut + 1)) <= 100 && Buffer.byteLength(name.slice(0, cut)) <= 155) {
    return header(name.slice(cut + 1), size, type, name.slice(0, cut));
  }
  return Buffer.concat([paxPath(name), header(name.slice(-100), size, type)]);
}

function header(name: string, size: number, type: '0' | '5' | 'x', prefix = ''): Buffer {
  const block = Buffer.alloc(BLOCK, 0);
  const base = name;
  block.write(base, 0, 100, 'utf8');
  block.write(type === '5' ? '0000755\0' : '0000644\0', 100, 'ascii');
  block.write('0000000\0', 108, 'ascii');
  block.write('0000000\0', 116, 'ascii');
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  block.write('00000000000\0', 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** Packs a built plugin folder (its contents at the archive's root); a link inside it is refused. */
export function packPluginFolder(dir: string): Buffer {
  const parts: Buffer[] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(join(dir, relative)).sort()) {
      const path = relative ? `${relative}/${name}` : name;
      const st = lstatSync(join(dir, path));
      if (st.isDirectory()) {
        parts.push(headers(`${path}/`, 0, '5'));
        walk(path);
      } else if (st.isFile()) {
        const contents = readFileSync(join(dir, path));
        parts.push(headers(path, contents.length, '0'), contents, Buffer.alloc((BLOCK - (contents.length % BLOCK)) % BLOCK, 0));
      } else {
        throw new PluginArchiveError(`${join(dir, path)} is not a plain file or folder: it cannot be packed`);
      }
    }
  };
  walk('');
  parts.push(Buffer.alloc(BLOCK * 2, 0));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}
