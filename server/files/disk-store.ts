// The default store: DATA_DIR/files/<first two characters of the key>/<key> with a <key>.json
// beside it. Both are written under temporary names and renamed, the description last: a file
// whose description exists is complete, and a crash mid-write leaves only a temporary file.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileStore, StoredFileInfo } from './store';

/** the shape of a key (file-service.ts makes them): anything else in the folder is not a kept file */
const KEY = /^[A-Za-z0-9_-]{22}$/;

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export class DiskFileStore implements FileStore {
  constructor(private readonly dir: string) {}

  private paths(key: string): { folder: string; data: string; info: string } {
    const folder = join(this.dir, key.slice(0, 2));
    return { folder, data: join(folder, key), info: join(folder, `${key}.json`) };
  }

  async put(key: string, bytes: Buffer, info: StoredFileInfo): Promise<void> {
    const paths = this.paths(key);
    await mkdir(paths.folder, { recursive: true });
    const temp = `.${randomBytes(8).toString('hex')}.tmp`;
    try {
      await writeFile(paths.data + temp, bytes, { flag: 'wx', mode: 0o600 });
      await writeFile(paths.info + temp, JSON.stringify(info), { flag: 'wx', mode: 0o600 });
      await rename(paths.data + temp, paths.data);
      await rename(paths.info + temp, paths.info);
    } catch (error) {
      await Promise.all([rm(paths.data + temp, { force: true }), rm(paths.info + temp, { force: true }), rm(paths.data, { force: true })]);
      throw error;
    }
  }

  async get(key: string): Promise<{ stream: ReturnType<typeof createReadStream>; info: StoredFileInfo } | null> {
    const paths = this.paths(key);
    let info: StoredFileInfo;
    try {
      info = JSON.parse(await readFile(paths.info, 'utf8')) as StoredFileInfo;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return { stream: createReadStream(paths.data), info };
  }

  async remove(key: string): Promise<boolean> {
    const paths = this.paths(key);
    // the description first: from then on the file is gone for readers, even if the data lingers
    try {
      await rm(paths.info);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    await rm(paths.data, { force: true });
    return true;
  }

  /** a file is complete once its description exists (put() renames it last) */
  async *list(): AsyncIterable<string> {
    for (const folder of await entries(this.dir)) {
      if (folder.length !== 2) continue;
      for (const name of await entries(join(this.dir, folder))) {
        if (!name.endsWith('.json')) continue;
        const key = name.slice(0, -'.json'.length);
        if (KEY.test(key) && key.startsWith(folder)) yield key;
      }
    }
  }
}
