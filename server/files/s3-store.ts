// Files in an S3 bucket (AWS or any S3-compatible storage), so that every panel instance serves the
// same files. An object appears whole when its upload completes, so a refused or failed upload
// leaves nothing under its key. The type, size and name travel as the object's own metadata: no
// second object to keep in step. The bucket itself (client, multipart, errors) is S3Bucket, the
// same one plugins open through ctx.objectStorage.
import type { Readable } from 'node:stream';
import { STORED_FILE_TYPES, type StoredFileType } from '../../sdk/server';
import type { FilesConfig } from '../config';
import { S3Bucket } from './s3-bucket';
import type { FileStore, StoredFileInfo } from './store';

type S3Config = Extract<FilesConfig, { store: 's3' }>;

/** the shape of a key (file-service.ts makes them): another object under the prefix is not a kept file */
const KEY = /^[A-Za-z0-9_-]{22}$/;

export class S3FileStore implements FileStore {
  private readonly objects: S3Bucket;

  constructor(config: S3Config) {
    this.objects = new S3Bucket(config);
  }

  async put(key: string, bytes: Buffer, info: StoredFileInfo): Promise<void> {
    // metadata travels as HTTP headers: ASCII only, so the name is percent-encoded
    await this.objects.put(key, bytes, { contentType: info.type, metadata: { name: encodeURIComponent(info.name) } });
  }

  async get(key: string): Promise<{ stream: Readable; info: StoredFileInfo } | null> {
    const object = await this.objects.get(key);
    if (!object) return null;
    const type = object.contentType as StoredFileType | null;
    if (!type || !STORED_FILE_TYPES.includes(type)) {
      object.stream.destroy();
      throw new Error(`files: the object ${this.objects.prefix}${key} has no stored type`);
    }
    let name = 'file';
    try {
      name = decodeURIComponent(object.metadata.name ?? 'file');
    } catch {
      /* a hand-edited object: keep the neutral name */
    }
    return { stream: object.stream, info: { type, size: object.size, name } };
  }

  remove(key: string): Promise<boolean> {
    return this.objects.remove(key);
  }

  /** an object is listed once its upload completed: S3 shows nothing of one under way */
  async *list(): AsyncIterable<string> {
    for await (const object of this.objects.listAll()) if (KEY.test(object.key)) yield object.key;
  }

  close(): void {
    this.objects.close();
  }
}
