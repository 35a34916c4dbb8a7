// Where kept files live. A store takes a file whole (the service has already checked and cleaned
// it), so a refused upload never reaches it and nothing partial is ever visible under a key.
import type { Readable } from 'node:stream';
import type { StoredFileType } from '../../sdk/server/files';

export interface StoredFileInfo {
  type: StoredFileType;
  size: number;
  name: string;
}

export interface FileStore {
  put(key: string, bytes: Buffer, info: StoredFileInfo): Promise<void>;
  /** null when there is no such file */
  get(key: string): Promise<{ stream: Readable; info: StoredFileInfo } | null>;
  /** true when something was deleted */
  remove(key: string): Promise<boolean>;
  /**
   * The key of every complete file, in no particular order (a backup archives them all). A file
   * being written or removed meanwhile may or may not be listed.
   */
  list(): AsyncIterable<string>;
}
