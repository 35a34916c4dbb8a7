// ctx.objectStorage: buckets plugins open with credentials of their own (an off-site copy of the
// panel's backups). The options come from an administrator's form, so they are checked here before
// any client exists; the host's own AWS credentials are never used for them (a plugin must name its
// keys), and every bucket still open when the panel stops is closed with it.
import { ObjectStorageError, type ObjectStorageOptions, type PluginObjectStorage, type RemoteBucket } from '../../sdk/server/object-storage';
import { DEFAULT_PART_BYTES, hasControlCharacters, S3Bucket, type S3Location } from './s3-bucket';

/** 3 to 63 letters, digits, dots, hyphens and underscores (S3's own rule is the lower-case subset; some services kept older names) */
const BUCKET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$/;
const REGION = /^[A-Za-z0-9-]{1,64}$/;
const MAX_KEY_FIELD = 512;

/** Why `options` cannot work, in words; null when they can (whether the service accepts them is another matter). */
export function objectStorageOptionsProblem(options: ObjectStorageOptions): { field: keyof ObjectStorageOptions; message: string } | null {
  const endpoint = options.endpoint ?? '';
  if (endpoint !== '') {
    let url: URL | null = null;
    try {
      url = new URL(endpoint);
    } catch {
      /* reported below */
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return { field: 'endpoint', message: 'The address must be an http:// or https:// address.' };
    if (url.username || url.password) return { field: 'endpoint', message: 'The address must not carry a user name or password: use the access key fields.' };
    if (url.search || url.hash) return { field: 'endpoint', message: 'The address must not have a query or fragment.' };
  }
  if (!REGION.test(options.region)) return { field: 'region', message: 'The region is letters, digits and hyphens, e.g. us-east-1 (Cloudflare R2: auto).' };
  if (!BUCKET_NAME.test(options.bucket)) return { field: 'bucket', message: 'The bucket name has 3 to 63 letters, digits, dots, hyphens or underscores.' };
  for (const field of ['accessKeyId', 'secretAccessKey'] as const) {
    const value = options[field];
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_KEY_FIELD || /\s/.test(value) || hasControlCharacters(value)) {
      return { field, message: field === 'accessKeyId' ? 'Give the access key id (no spaces).' : 'Give the secret access key (no spaces).' };
    }
  }
  const prefix = options.prefix ?? '';
  if (
    prefix.length > MAX_KEY_FIELD ||
    prefix.startsWith('/') ||
    hasControlCharacters(prefix) ||
    prefix.includes('\\') ||
    prefix.split('/').some((part, i, all) => part === '..' || part === '.' || (part === '' && i < all.length - 1))
  ) {
    return { field: 'prefix', message: 'The folder is a relative path such as orepanel-backups/ (no leading /, no . or .. parts).' };
  }
  return null;
}

/** A folder ends in '/', so "backups" and "backups-old" never share keys. */
export function normalisedPrefix(prefix: string | undefined): string {
  const value = prefix ?? '';
  return value === '' || value.endsWith('/') ? value : `${value}/`;
}

export class ObjectStorageService implements PluginObjectStorage {
  private readonly open = new Set<S3Bucket>();

  /** `partBytes`: the multipart part size (tests make it small enough to see several parts) */
  constructor(private readonly partBytes = DEFAULT_PART_BYTES) {}

  /** how many buckets are open now */
  get openBuckets(): number {
    return this.open.size;
  }

  bucket(options: ObjectStorageOptions): RemoteBucket {
    const problem = objectStorageOptionsProblem(options);
    if (problem) throw new ObjectStorageError('invalid-options', 'open', problem.message, problem.field);
    const location: S3Location = {
      bucket: options.bucket,
      endpoint: options.endpoint ? options.endpoint : null,
      region: options.region,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      prefix: normalisedPrefix(options.prefix),
      forcePathStyle: options.forcePathStyle === true,
    };
    const bucket: S3Bucket = new S3Bucket(location, this.partBytes, () => this.open.delete(bucket));
    this.open.add(bucket);
    return bucket;
  }

  close(): void {
    for (const bucket of [...this.open]) bucket.close();
  }
}
