// ctx.objectStorage against a local S3-compatible server (s3rver): the round trip of an object, keys
// kept under the bucket's folder, paged lists, a body larger than the part size going up as a
// multipart upload and coming back byte for byte, failures leaving nothing behind, and each way a
// bucket can be misconfigured reported as its own failure.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { Readable } from 'node:stream';
import { request as httpRequest, createServer as createHttpServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObjectStorageError, type ObjectStorageOptions, type RemoteBucket } from '../../sdk/server';
import { MIN_PART_BYTES } from '../../server/files/s3-bucket';
import { ObjectStorageService, objectStorageOptionsProblem } from '../../server/files/object-storage';
import { S3FileStore } from '../../server/files/s3-store';
import { startTestS3, type TestS3 } from './s3-server';

const BUCKET = 'offsite';

async function bytesOf(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** `bytes` as a stream of uneven chunks, as a file or a socket hands them over */
function chunked(bytes: Buffer, sizes = [65_536, 1_000_003, 17, 300_000]): Readable {
  let offset = 0;
  let i = 0;
  return new Readable({
    read() {
      if (offset >= bytes.length) {
        this.push(null);
        return;
      }
      const size = sizes[i++ % sizes.length];
      this.push(bytes.subarray(offset, offset + size));
      offset += size;
    },
  });
}

/**
 * An HTTP relay in front of the S3 server that notes each request's method and query: s3rver keeps
 * no list of unfinished multipart uploads (and ignores their abort), so the test checks that the
 * abort was asked for.
 */
async function recordingRelay(target: string): Promise<{ endpoint: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const to = new URL(target);
  const relay = createHttpServer((incoming, answer) => {
    requests.push(`${incoming.method} ${new URL(incoming.url ?? '/', 'http://relay').search}`);
    const outgoing = httpRequest({ host: to.hostname, port: to.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (response) => {
      answer.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(answer);
    });
    outgoing.on('error', () => answer.destroy());
    incoming.pipe(outgoing);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  };
}

async function failure(promise: Promise<unknown>): Promise<{ failure: string; operation: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isObjectStorageError(error)) return { failure: error.failure, operation: error.operation, message: error.message };
    throw error;
  }
  throw new Error('expected the operation to fail');
}

describe('ctx.objectStorage', () => {
  let s3: TestS3;
  let storage: ObjectStorageService;
  let options: ObjectStorageOptions;
  let bucket: RemoteBucket;

  beforeAll(async () => {
    s3 = await startTestS3(BUCKET);
    storage = new ObjectStorageService(MIN_PART_BYTES);
    options = {
      endpoint: s3.env.FILES_S3_ENDPOINT,
      region: 'us-east-1',
      bucket: BUCKET,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      prefix: 'panel-a/backups',
      forcePathStyle: true,
    };
    bucket = storage.bucket(options);
  });

  afterAll(async () => {
    storage.close();
    await s3.close();
  });

  it('puts, heads, lists, gets and removes an object under its folder', async () => {
    const body = Buffer.from('a small archive');
    const progress: number[] = [];
    expect(await bucket.put('one.opbk', body, { onProgress: (sent) => progress.push(sent) })).toEqual({ size: body.length });
    expect(progress).toEqual([body.length]);
    // the folder gets its slash: keys never mix with a sibling folder named panel-a/backups-old
    expect(bucket.prefix).toBe('panel-a/backups/');
    expect(await s3.keys('panel-a/')).toEqual(['panel-a/backups/one.opbk']);

    const head = await bucket.head('one.opbk');
    expect(head).toMatchObject({ key: 'one.opbk', size: body.length });
    expect(Number.isNaN(Date.parse(head?.lastModified ?? ''))).toBe(false);

    const page = await bucket.list();
    expect(page.objects.map((o) => [o.key, o.size])).toEqual([['one.opbk', body.length]]);
    expect(page.cursor).toBeNull();

    const got = await bucket.get('one.opbk');
    expect(got?.size).toBe(body.length);
    expect(await bytesOf(got?.stream ?? Readable.from([]))).toEqual(body);

    expect(await bucket.remove('one.opbk')).toBe(true);
    expect(await bucket.remove('one.opbk')).toBe(false);
    expect(await bucket.head('one.opbk')).toBeNull();
    expect(await bucket.get('one.opbk')).toBeNull();
    expect(await s3.keys('panel-a/')).toEqual([]);
  });

  it('stores an empty body', async () => {
    await bucket.put('empty.bin', Readable.from([]));
    expect(await bucket.head('empty.bin')).toMatchObject({ size: 0 });
    await bucket.remove('empty.bin');
  });

  it('sees only its own folder, and pages through it', async () => {
    const other = storage.bucket({ ...options, prefix: 'panel-b/' });
    await other.put('elsewhere.bin', Buffer.from('b'));
    for (const n of [1, 2, 3, 4, 5]) await bucket.put(`page-${n}.bin`, Buffer.from(`n${n}`));

    const first = await bucket.list({ limit: 2 });
    expect(first.objects.map((o) => o.key)).toEqual(['page-1.bin', 'page-2.bin']);
    expect(first.cursor).not.toBeNull();
    const second = await bucket.list({ limit: 2, cursor: first.cursor });
    expect(second.objects.map((o) => o.key)).toEqual(['page-3.bin', 'page-4.bin']);

    const all: string[] = [];
    for await (const object of bucket.listAll('page-')) all.push(object.key);
    expect(all).toEqual(['page-1.bin', 'page-2.bin', 'page-3.bin', 'page-4.bin', 'page-5.bin']);
    expect((await other.list()).objects.map((o) => o.key)).toEqual(['elsewhere.bin']);

    for (const n of [1, 2, 3, 4, 5]) await bucket.remove(`page-${n}.bin`);
    await other.remove('elsewhere.bin');
    other.close();
  });

  it('sends a body larger than the part size in parts, and gets it back byte for byte', async () => {
    // two full parts and a short third one
    const body = randomBytes(2 * MIN_PART_BYTES + 123_457);
    const progress: number[] = [];
    const put = await bucket.put('large.opbk', chunked(body), { onProgress: (sent) => progress.push(sent) });
    expect(put.size).toBe(body.length);
    // one report per part, the last one the whole body
    expect(progress).toEqual([MIN_PART_BYTES, 2 * MIN_PART_BYTES, body.length]);

    expect((await bucket.head('large.opbk'))?.size).toBe(body.length);
    const got = await bucket.get('large.opbk');
    expect(got?.size).toBe(body.length);
    expect(sha(await bytesOf(got?.stream ?? Readable.from([])))).toBe(sha(body));
    await bucket.remove('large.opbk');
  });

  it('splits a large Buffer body the same way', async () => {
    const body = randomBytes(MIN_PART_BYTES + 10);
    const progress: number[] = [];
    await bucket.put('buffer.bin', body, { onProgress: (sent) => progress.push(sent) });
    expect(progress).toEqual([MIN_PART_BYTES, body.length]);
    const got = await bucket.get('buffer.bin');
    expect(sha(await bytesOf(got?.stream ?? Readable.from([])))).toBe(sha(body));
    await bucket.remove('buffer.bin');
  });

  it('leaves nothing behind when the body fails half-way, and hands back the body’s own error', async () => {
    const broken = new Error('the disk went away');
    let sent = 0;
    const source = new Readable({
      read() {
        if (sent >= 2 * MIN_PART_BYTES + 1000) {
          this.destroy(broken);
          return;
        }
        sent += 500_000;
        this.push(randomBytes(500_000));
      },
    });
    const relay = await recordingRelay(options.endpoint ?? '');
    const relayed = storage.bucket({ ...options, endpoint: relay.endpoint });
    await expect(relayed.put('half.opbk', source)).rejects.toBe(broken);
    expect(await bucket.head('half.opbk')).toBeNull();
    // two parts went up, then the upload was abandoned
    expect(relay.requests.filter((r) => r.startsWith('PUT ?partNumber='))).toHaveLength(2);
    expect(relay.requests.filter((r) => /^DELETE \?uploadId=/.test(r))).toHaveLength(1);
    expect(relay.requests.some((r) => r.startsWith('POST ?uploadId='))).toBe(false);
    relayed.close();
    await relay.close();
  });

  it('stops when asked, and leaves nothing under the key', async () => {
    const controller = new AbortController();
    const body = randomBytes(3 * MIN_PART_BYTES);
    const relay = await recordingRelay(options.endpoint ?? '');
    const relayed = storage.bucket({ ...options, endpoint: relay.endpoint });
    const stop = new Error('stopped by the administrator');
    const upload = relayed.put('stopped.opbk', chunked(body), { signal: controller.signal, onProgress: () => controller.abort(stop) });
    await expect(upload).rejects.toBe(stop);
    expect(await bucket.head('stopped.opbk')).toBeNull();
    expect(relay.requests.filter((r) => r.startsWith('PUT ?partNumber='))).toHaveLength(1);
    expect(relay.requests.filter((r) => /^DELETE \?uploadId=/.test(r))).toHaveLength(1);
    relayed.close();
    await relay.close();
  });

  it('refuses keys that could leave its folder', async () => {
    for (const key of ['', '/abs', '../escape', 'a/../../b', 'a/./b', 'tab\there', 'back\\slash', 'x'.repeat(1100)]) {
      const failed = await failure(bucket.put(key, Buffer.from('x')));
      expect(failed.failure, key).toBe('invalid-key');
      expect((await failure(bucket.get(key))).failure).toBe('invalid-key');
    }
    expect(await s3.keys('')).toEqual([]);
  });

  it('refuses options that cannot work before making a client', () => {
    const cases: [Partial<ObjectStorageOptions>, keyof ObjectStorageOptions][] = [
      [{ endpoint: 'ftp://files.example' }, 'endpoint'],
      [{ endpoint: 'not an address' }, 'endpoint'],
      [{ endpoint: 'https://key:secret@s3.example' }, 'endpoint'],
      [{ region: '' }, 'region'],
      [{ region: 'us east' }, 'region'],
      [{ bucket: 'a' }, 'bucket'],
      [{ bucket: 'has/slash' }, 'bucket'],
      [{ accessKeyId: '' }, 'accessKeyId'],
      [{ secretAccessKey: 'with space' }, 'secretAccessKey'],
      [{ prefix: '/root/' }, 'prefix'],
      [{ prefix: 'a/../b/' }, 'prefix'],
      [{ prefix: 'a//b/' }, 'prefix'],
    ];
    for (const [change, field] of cases) {
      const wrong = { ...options, ...change };
      expect(objectStorageOptionsProblem(wrong)?.field, JSON.stringify(change)).toBe(field);
      let thrown: unknown = null;
      try {
        storage.bucket(wrong);
      } catch (error) {
        thrown = error;
      }
      expect(isObjectStorageError(thrown) && thrown.failure).toBe('invalid-options');
    }
    // Amazon S3 itself: no address; R2's region
    expect(objectStorageOptionsProblem({ ...options, endpoint: '', region: 'auto' })).toBeNull();
    expect(objectStorageOptionsProblem({ ...options, endpoint: null })).toBeNull();
  });

  it('tells a wrong secret, a missing bucket and an address nobody answers apart', async () => {
    // (s3rver checks the key id, not a version 4 signature: a wrong secret would pass there)
    const wrongKey = storage.bucket({ ...options, accessKeyId: 'NOT-A-KEY', secretAccessKey: 'not-the-secret' });
    const refused = await failure(wrongKey.list());
    expect(refused).toMatchObject({ failure: 'credentials', operation: 'list' });
    expect(refused.message).not.toContain('not-the-secret');
    wrongKey.close();

    const noBucket = storage.bucket({ ...options, bucket: 'no-such-bucket' });
    expect(await failure(noBucket.list())).toMatchObject({ failure: 'no-bucket', operation: 'list' });
    expect(await failure(noBucket.put('x.bin', Buffer.from('x')))).toMatchObject({ failure: 'no-bucket', operation: 'put' });
    noBucket.close();

    // a port that was open a moment ago and is closed now
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const nowhere = storage.bucket({ ...options, endpoint: `http://127.0.0.1:${port}` });
    const unreachable = await failure(nowhere.put('x.bin', Readable.from([Buffer.from('x')])));
    expect(unreachable).toMatchObject({ failure: 'unreachable', operation: 'put' });
    expect(unreachable.message).toContain(`127.0.0.1:${port}`);
    nowhere.close();
  });

  it('is what the file service’s S3 store stands on: its files, their type and name, and its list of keys', async () => {
    const store = new S3FileStore({
      store: 's3',
      bucket: BUCKET,
      endpoint: options.endpoint ?? null,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      prefix: 'files/',
      forcePathStyle: true,
    });
    const key = 'AbCdEfGhIjKlMnOpQrStUv';
    await store.put(key, Buffer.from('hello'), { type: 'text/plain', size: 5, name: 'notes – été.txt' });
    // an object that is not a kept file (someone's upload by hand) is not listed
    await storage.bucket({ ...options, prefix: 'files/' }).put('README.txt', Buffer.from('x'));
    const got = await store.get(key);
    expect(got?.info).toEqual({ type: 'text/plain', size: 5, name: 'notes – été.txt' });
    expect((await bytesOf(got?.stream ?? Readable.from([]))).toString()).toBe('hello');
    const keys: string[] = [];
    for await (const listed of store.list()) keys.push(listed);
    expect(keys).toEqual([key]);
    expect(await store.remove(key)).toBe(true);
    expect(await store.get(key)).toBeNull();
    store.close();
  });

  it('closes every bucket still open when the panel stops', async () => {
    const service = new ObjectStorageService(MIN_PART_BYTES);
    const first = service.bucket(options);
    service.bucket({ ...options, prefix: 'other/' });
    expect(service.openBuckets).toBe(2);
    first.close();
    expect(service.openBuckets).toBe(1);
    service.close();
    expect(service.openBuckets).toBe(0);
  });
});
