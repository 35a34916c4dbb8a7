// Files in an S3 bucket (AWS or any S3-compatible storage), so that every panel instance serves the
// same files. An object appears whole when its upload completes, so a refused or failed upload
// leaves nothing under its key. The type, size and name travel as the object's own metadata: no
// second object to keep in step.
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { STORED_FILE_TYPES, type StoredFileType } from '../../sdk/server';
import type { FilesConfig } from '../config';
import type { FileStore, StoredFileInfo } from './store';

type S3Config = Extract<FilesConfig, { store: 's3' }>;

function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
}

export class S3FileStore implements FileStore {
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials ?? undefined,
    });
  }

  private objectKey(key: string): string {
    return `${this.config.prefix}${key}`;
  }

  async put(key: string, bytes: Buffer, info: StoredFileInfo): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: this.objectKey(key),
        Body: bytes,
        ContentType: info.type,
        ContentLength: bytes.length,
        // metadata travels as HTTP headers: ASCII only, so the name is percent-encoded
        Metadata: { name: encodeURIComponent(info.name) },
      }),
    );
  }

  async get(key: string): Promise<{ stream: Readable; info: StoredFileInfo } | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
      const type = object.ContentType as StoredFileType | undefined;
      if (!type || !STORED_FILE_TYPES.includes(type) || object.ContentLength === undefined) {
        throw new Error(`files: the object ${this.objectKey(key)} has no stored type or size`);
      }
      let name = 'file';
      try {
        name = decodeURIComponent(object.Metadata?.name ?? 'file');
      } catch {
        /* a hand-edited object: keep the neutral name */
      }
      return { stream: object.Body as Readable, info: { type, size: object.ContentLength, name } };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async remove(key: string): Promise<boolean> {
    // S3 deletes succeed for missing keys too: ask first, so the answer says whether there was one
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
    return true;
  }

  close(): void {
    this.client.destroy();
  }
}
