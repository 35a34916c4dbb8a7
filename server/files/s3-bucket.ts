// One S3 bucket (and a folder in it) through the AWS client: what the file service's S3 store and
// the buckets plugins open (ctx.objectStorage) both stand on. Large bodies go up as multipart
// uploads, one part in memory at a time, so an archive of many gigabytes streams through; every
// failure becomes an ObjectStorageError that says which of the administrator's settings to look at.
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import {
  ObjectStorageError,
  isObjectStorageError,
  type ObjectStorageOperation,
  type RemoteBucket,
  type RemoteListOptions,
  type RemoteObject,
  type RemoteObjectContent,
  type RemoteObjectPage,
  type RemotePutOptions,
} from '../../sdk/server/object-storage';

export interface S3Location {
  bucket: string;
  /** null: Amazon S3 itself */
  endpoint: string | null;
  region: string;
  /** null: the AWS SDK's default credential chain (only the host's own file store uses it) */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** '' or a folder ending in '/' */
  prefix: string;
  forcePathStyle: boolean;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** whether `text` has a control character (a key, a folder, a credential is never meant to) */
export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}

/** S3's smallest part (every part but the last must be at least this) */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const DEFAULT_PART_BYTES = 8 * 1024 * 1024;
const MAX_PARTS = 10_000;
const MAX_KEY_BYTES = 1024;

export function createS3Client(location: S3Location): S3Client {
  return new S3Client({
    region: location.region,
    endpoint: location.endpoint ?? undefined,
    forcePathStyle: location.forcePathStyle,
    credentials: location.credentials ?? undefined,
    // checksums only where S3 requires them: the newer default (a CRC header on every upload) is
    // refused by several S3-compatible services (Backblaze B2, older MinIO and R2 releases)
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // an address that never answers fails in seconds rather than hanging a request; a stalled
    // transfer is dropped after two idle minutes
    requestHandler: { connectionTimeout: 10_000, socketTimeout: 120_000 },
  });
}

/** the answer S3 gives for a key (or bucket) that does not exist */
export function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ECONNABORTED']);
const CREDENTIAL_ERRORS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'InvalidToken', 'ExpiredToken', 'RequestTimeTooSkewed', 'InvalidSecurity', 'Unauthorized']);
const WRONG_REGION_ERRORS = new Set(['AuthorizationHeaderMalformed', 'PermanentRedirect', 'IllegalLocationConstraintException']);

const WHAT: Record<ObjectStorageOperation, string> = {
  open: 'open the bucket',
  put: 'write objects',
  list: 'list objects',
  get: 'read objects',
  head: 'read objects',
  remove: 'delete objects',
};

/** The host of an address, for messages: never the user-info part an address might carry. */
function hostOf(endpoint: string | null): string {
  if (!endpoint) return 'Amazon S3';
  try {
    return new URL(endpoint).host;
  } catch {
    return 'the configured address';
  }
}

/** The AWS client's error, as one an administrator can act on. */
export function describeS3Failure(error: unknown, operation: ObjectStorageOperation, location: Pick<S3Location, 'bucket' | 'endpoint'>): ObjectStorageError {
  if (isObjectStorageError(error)) return error;
  const where = hostOf(location.endpoint);
  if (error instanceof S3ServiceException) {
    const name = error.name;
    const status = error.$metadata.httpStatusCode;
    if (CREDENTIAL_ERRORS.has(name) || (status === 401 && name !== 'AccessDenied')) {
      return new ObjectStorageError('credentials', operation, `${where} refused the access key or its secret (${name}).`, name);
    }
    if (name === 'NoSuchBucket') return new ObjectStorageError('no-bucket', operation, `${where} has no bucket named "${location.bucket}".`, name);
    if (name === 'AccessDenied' || name === 'AllAccessDisabled' || status === 403) {
      return new ObjectStorageError('denied', operation, `The access key may not ${WHAT[operation]} in the bucket "${location.bucket}" (${name}).`, name);
    }
    if (WRONG_REGION_ERRORS.has(name) || status === 301) {
      return new ObjectStorageError('failed', operation, `${where} says the bucket "${location.bucket}" is in another region: check the region (${name}).`, name);
    }
    return new ObjectStorageError('failed', operation, `${where} could not ${WHAT[operation]} (${name}${status ? `, HTTP ${status}` : ''}).`, name);
  }
  const code = (error as { code?: unknown } | null)?.code;
  const name = error instanceof Error ? error.name : '';
  if ((typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('CERT_') || code.startsWith('ERR_TLS') || code.includes('SSL'))) || name === 'TimeoutError') {
    const detail = typeof code === 'string' ? code : name;
    return new ObjectStorageError('unreachable', operation, `Could not reach ${where} (${detail}).`, detail);
  }
  // an address that answers, but not as S3 storage (a web page, a proxy's error page)
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  if (status !== undefined) {
    return new ObjectStorageError('failed', operation, `${where} answered HTTP ${status}, not as S3-compatible storage: check the address.`, name || null);
  }
  return new ObjectStorageError('failed', operation, `Could not ${WHAT[operation]} at ${where} (${name || 'unknown error'}).`, name || null);
}

/** Cuts a stream into parts of exactly `size` bytes (the last one shorter), holding one part at a time. */
async function* partsOf(source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, size: number): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = [];
  let held = 0;
  for await (const piece of source) {
    let chunk = typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (held + chunk.length >= size) {
      const take = size - held;
      chunks.push(chunk.subarray(0, take));
      yield Buffer.concat(chunks, size);
      chunks = [];
      held = 0;
      chunk = chunk.subarray(take);
    }
    if (chunk.length > 0) {
      // a copy: the source may reuse its buffer for the next chunk
      chunks.push(Buffer.from(chunk));
      held += chunk.length;
    }
  }
  if (held > 0) yield Buffer.concat(chunks, held);
}

/** Marks errors of the body's own stream, so they are not blamed on the storage. */
class SourceError extends Error {
  constructor(readonly original: unknown) {
    super('source stream failed');
  }
}

async function* guarded(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  for (;;) {
    let step: IteratorResult<Buffer>;
    try {
      step = await iterator.next();
    } catch (error) {
      throw new SourceError(error);
    }
    if (step.done) return;
    yield step.value;
  }
}

export class S3Bucket implements RemoteBucket {
  private readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;

  constructor(
    private readonly location: S3Location,
    private readonly partBytes = DEFAULT_PART_BYTES,
    private readonly onClose?: () => void,
  ) {
    if (!Number.isSafeInteger(partBytes) || partBytes < MIN_PART_BYTES) throw new TypeError(`S3Bucket: the part size must be at least ${MIN_PART_BYTES} bytes`);
    this.client = createS3Client(location);
    this.bucket = location.bucket;
    this.prefix = location.prefix;
  }

  private fail(error: unknown, operation: ObjectStorageOperation): ObjectStorageError {
    return describeS3Failure(error, operation, this.location);
  }

  /** the object's full key; refuses keys that could leave the prefix once an HTTP stack tidies the path */
  private objectKey(key: string, operation: ObjectStorageOperation): string {
    const full = `${this.prefix}${key}`;
    const segments = key.split('/');
    if (
      key === '' ||
      key.startsWith('/') ||
      segments.some((s) => s === '.' || s === '..') ||
      hasControlCharacters(key) ||
      key.includes('\\') ||
      Buffer.byteLength(full) > MAX_KEY_BYTES
    ) {
      throw new ObjectStorageError('invalid-key', operation, `"${key.slice(0, 80)}" is not a key this bucket accepts.`);
    }
    return full;
  }

  private relative(fullKey: string): string {
    return fullKey.startsWith(this.prefix) ? fullKey.slice(this.prefix.length) : fullKey;
  }

  /** S3 allows 10,000 parts: a body of known size that needs more gets parts large enough */
  private partSizeFor(size: number | undefined): number {
    if (size === undefined || size <= this.partBytes * MAX_PARTS) return this.partBytes;
    const mib = 1024 * 1024;
    return Math.ceil(size / MAX_PARTS / mib) * mib;
  }

  async put(key: string, body: Readable | Buffer, options: RemotePutOptions & { metadata?: Record<string, string> } = {}): Promise<{ size: number }> {
    const Key = this.objectKey(key, 'put');
    const partSize = this.partSizeFor(options.size ?? (Buffer.isBuffer(body) ? body.length : undefined));
    const source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> = Buffer.isBuffer(body) ? [body] : body;
    const parts = guarded(partsOf(source, partSize))[Symbol.asyncIterator]();
    const abortSignal = options.signal;
    const common = { Bucket: this.bucket, Key, ContentType: options.contentType, Metadata: options.metadata };
    let uploadId: string | undefined;
    try {
      abortSignal?.throwIfAborted();
      const first = await parts.next();
      const second = first.done ? first : await parts.next();
      if (second.done) {
        // one request: the body fits in one part (or is empty)
        const bytes = first.done ? Buffer.alloc(0) : first.value;
        await this.client.send(new PutObjectCommand({ ...common, Body: bytes, ContentLength: bytes.length }), { abortSignal });
        options.onProgress?.(bytes.length);
        return { size: bytes.length };
      }
      const created = await this.client.send(new CreateMultipartUploadCommand(common), { abortSignal });
      uploadId = created.UploadId;
      if (!uploadId) throw new ObjectStorageError('failed', 'put', 'The storage started a multipart upload without naming it.');
      const done: { ETag: string | undefined; PartNumber: number }[] = [];
      let sent = 0;
      const upload = async (bytes: Buffer) => {
        const PartNumber = done.length + 1;
        if (PartNumber > MAX_PARTS) throw new ObjectStorageError('failed', 'put', `The body needs more than ${MAX_PARTS} parts: give its size so larger parts are used.`);
        abortSignal?.throwIfAborted();
        const answer = await this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key, UploadId: uploadId, PartNumber, Body: bytes, ContentLength: bytes.length }), {
          abortSignal,
        });
        done.push({ ETag: answer.ETag, PartNumber });
        sent += bytes.length;
        options.onProgress?.(sent);
      };
      await upload(first.value as Buffer);
      await upload(second.value);
      for (let next = await parts.next(); !next.done; next = await parts.next()) await upload(next.value);
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: done } }), {
        abortSignal,
      });
      return { size: sent };
    } catch (error) {
      if (uploadId) {
        // the parts sent so far are billed storage until aborted; best effort, the first failure is what matters
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId: uploadId })).catch(() => undefined);
      }
      await parts.return?.(undefined).catch(() => undefined);
      if (!Buffer.isBuffer(body)) body.destroy();
      if (error instanceof SourceError) throw error.original;
      if (abortSignal?.aborted) throw abortSignal.reason ?? error;
      throw this.fail(error, 'put');
    }
  }

  async list(options: RemoteListOptions = {}): Promise<RemoteObjectPage> {
    const limit = options.limit ?? 1000;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new ObjectStorageError('invalid-options', 'list', 'A page holds 1 to 1000 objects.');
    const sub = options.prefix ?? '';
    if (hasControlCharacters(sub + (options.cursor ?? ''))) throw new ObjectStorageError('invalid-key', 'list', 'The prefix has control characters.');
    try {
      // the cursor is the last key seen (ListObjects' marker): every S3-compatible service pages this
      // way, where ListObjectsV2's continuation tokens vary (s3rver's need a cipher OpenSSL 3 dropped)
      const answer = await this.client.send(
        new ListObjectsCommand({ Bucket: this.bucket, Prefix: `${this.prefix}${sub}`, MaxKeys: limit, Marker: options.cursor ? `${this.prefix}${options.cursor}` : undefined }),
      );
      const objects = (answer.Contents ?? []).flatMap((object) =>
        object.Key === undefined ? [] : [{ key: this.relative(object.Key), size: object.Size ?? 0, lastModified: (object.LastModified ?? new Date(0)).toISOString() }],
      );
      const last = objects.at(-1);
      return { objects, cursor: answer.IsTruncated && last ? last.key : null };
    } catch (error) {
      throw this.fail(error, 'list');
    }
  }

  async *listAll(prefix = ''): AsyncIterable<RemoteObject> {
    let cursor: string | null = null;
    do {
      const page: RemoteObjectPage = await this.list({ prefix, cursor });
      yield* page.objects;
      cursor = page.cursor;
    } while (cursor !== null);
  }

  async get(key: string): Promise<(RemoteObjectContent & { metadata: Record<string, string> }) | null> {
    const Key = this.objectKey(key, 'get');
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      if (!(object.Body instanceof Readable) || object.ContentLength === undefined) {
        throw new ObjectStorageError('failed', 'get', `The storage sent "${key}" without its length.`);
      }
      return {
        stream: object.Body,
        size: object.ContentLength,
        lastModified: (object.LastModified ?? new Date(0)).toISOString(),
        contentType: object.ContentType ?? null,
        metadata: object.Metadata ?? {},
      };
    } catch (error) {
      if (isMissing(error) && !(error instanceof S3ServiceException && error.name === 'NoSuchBucket')) return null;
      throw this.fail(error, 'get');
    }
  }

  async head(key: string): Promise<RemoteObject | null> {
    const Key = this.objectKey(key, 'head');
    try {
      const object = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return { key, size: object.ContentLength ?? 0, lastModified: (object.LastModified ?? new Date(0)).toISOString() };
    } catch (error) {
      if (isMissing(error)) return null;
      throw this.fail(error, 'head');
    }
  }

  async remove(key: string): Promise<boolean> {
    // S3 deletes succeed for missing keys too: ask first, so the answer says whether there was one
    if ((await this.head(key)) === null) return false;
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key, 'remove') }));
      return true;
    } catch (error) {
      throw this.fail(error, 'remove');
    }
  }

  close(): void {
    this.client.destroy();
    this.onClose?.();
  }
}
