// ctx.objectStorage: buckets of S3-compatible object storage (Amazon S3, Backblaze B2, Cloudflare R2,
// Wasabi, MinIO…) that a plugin opens with credentials of its own — an off-site copy, an export —
// through the same AWS client the file service uses, so every plugin gets one tested implementation
// of multipart uploads, paging and error wording instead of writing its own.
import type { Readable } from 'node:stream';

export interface ObjectStorageOptions {
  /** the service's address, e.g. https://s3.eu-central-003.backblazeb2.com; null or '' for Amazon S3 itself */
  endpoint?: string | null;
  /** e.g. us-east-1 (R2: auto) */
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** a folder inside the bucket every key lives under, e.g. orepanel-backups/ ('' for none) */
  prefix?: string;
  /** bucket in the path (https://host/bucket/key) rather than the host name: MinIO and most self-hosted ones need it */
  forcePathStyle?: boolean;
}

/** An object in the bucket; `key` is relative to the bucket's prefix. */
export interface RemoteObject {
  key: string;
  size: number;
  /** ISO 8601 */
  lastModified: string;
}

export interface RemoteObjectPage {
  objects: RemoteObject[];
  /** hand back to list() for the next page; null on the last one */
  cursor: string | null;
}

export interface RemoteListOptions {
  /** only keys starting with this (after the bucket's prefix) */
  prefix?: string;
  /** from a previous page */
  cursor?: string | null;
  /** 1 to 1000 (the default) */
  limit?: number;
}

export interface RemotePutOptions {
  /** the body's length when known: large bodies get larger parts (S3 allows 10,000 parts an object) */
  size?: number;
  contentType?: string;
  /** bytes sent so far, after each part (a small body: once, at the end) */
  onProgress?: (sentBytes: number) => void;
  /** stops the upload; nothing is left under the key */
  signal?: AbortSignal;
}

export interface RemoteObjectContent {
  stream: Readable;
  size: number;
  lastModified: string;
  contentType: string | null;
}

/**
 * One bucket (and prefix) opened with one set of credentials. An object appears whole or not at all:
 * a failed or aborted upload leaves nothing under its key, and never more than one part of the body
 * is held in memory.
 */
export interface RemoteBucket {
  readonly bucket: string;
  readonly prefix: string;
  /**
   * Stores `body` under `key`. A body up to the part size goes in one request; a larger one as a
   * multipart upload, part by part, aborted on failure.
   */
  put(key: string, body: Readable | Buffer, options?: RemotePutOptions): Promise<{ size: number }>;
  /** one page of objects, in key order */
  list(options?: RemoteListOptions): Promise<RemoteObjectPage>;
  /** every object under `prefix`, paging as it goes */
  listAll(prefix?: string): AsyncIterable<RemoteObject>;
  /** null when there is no such object */
  get(key: string): Promise<RemoteObjectContent | null>;
  /** null when there is no such object */
  head(key: string): Promise<RemoteObject | null>;
  /** true when something was deleted */
  remove(key: string): Promise<boolean>;
  /** lets go of the connections; the panel also closes every bucket when it stops */
  close(): void;
}

/**
 * Why a bucket operation failed, in terms an administrator can act on:
 * - `invalid-options`: the options themselves are wrong (a malformed address, an empty bucket name)
 * - `invalid-key`: a key the bucket refuses to use ('' , '..' segments, control characters, too long)
 * - `unreachable`: no answer from the address (DNS, refused connection, TLS, timeout)
 * - `credentials`: the keys were refused (unknown key, wrong secret, clock skew)
 * - `denied`: the keys work but may not do this (a bucket policy, a read-only key)
 * - `no-bucket`: the service has no bucket of that name
 * - `failed`: anything else the service answered
 */
export type ObjectStorageFailure = 'invalid-options' | 'invalid-key' | 'unreachable' | 'credentials' | 'denied' | 'no-bucket' | 'failed';

export type ObjectStorageOperation = 'open' | 'put' | 'list' | 'get' | 'head' | 'remove';

export const OBJECT_STORAGE_ERROR_BRAND = '@orepanel/object-storage-error';

/**
 * What every RemoteBucket method throws instead of the AWS client's own errors. Its message names the
 * operation and the failure without the credentials. Recognise it with isObjectStorageError (a
 * plugin's bundle has its own copy of this class, so `instanceof` is not reliable).
 */
export class ObjectStorageError extends Error {
  readonly $$type = OBJECT_STORAGE_ERROR_BRAND;
  constructor(
    readonly failure: ObjectStorageFailure,
    readonly operation: ObjectStorageOperation,
    message: string,
    /** the service's own error name or the network error code, for logs (never shown to users) */
    readonly detail: string | null = null,
  ) {
    super(message);
    this.name = 'ObjectStorageError';
  }
}

export function isObjectStorageError(value: unknown): value is ObjectStorageError {
  return value instanceof Error && (value as { $$type?: unknown }).$$type === OBJECT_STORAGE_ERROR_BRAND;
}

/** ctx.objectStorage */
export interface PluginObjectStorage {
  /**
   * Opens a bucket (no request is made yet: the first operation finds out whether the options work).
   * Throws ObjectStorageError `invalid-options` for options that cannot work.
   */
  bucket(options: ObjectStorageOptions): RemoteBucket;
}
