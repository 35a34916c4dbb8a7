// The off-site copies: archives of the local folder (ctx.panelBackup) uploaded to the configured
// bucket (ctx.objectStorage) and downloaded back, streamed both ways (an archive can be many
// gigabytes: it never sits in memory), with the bucket's own retention after each upload. Only
// objects named as archives are ever listed, fetched or deleted, so a shared bucket's other files
// are never touched. A failure leaves both sides as they were: an upload appears in the bucket only
// once complete, a download only in the local folder once received whole and opened with this
// install's key.
import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import {
  isBackupArchiveError,
  isObjectStorageError,
  type HttpError,
  type ObjectStorageError,
  type ObjectStorageOptions,
  type PanelBackup,
  type RemoteBucket,
  type ServerPluginContext,
} from '@orepanel/sdk/server';
import type { BackupRemoteCopies, RemoteBackupCopy } from '../../backups/contract';
import {
  newestArchiveFirst,
  parseArchiveName,
  TEST_STEPS,
  type CloudStatus,
  type ConnectionTest,
  type LocalArchive,
  type RemoteArchive,
  type TestStep,
  type Transfer,
} from '../shared/wire';
import { readCloudConfig } from './cloud-settings';
import type { Transfers } from './transfers';

/** the remote list the backups screen asks for is kept this long (each ask would be a bucket request) */
const REMOTE_CACHE_MS = 30_000;
/** the automatic upload waits for a running transfer this often, this many times */
const AUTO_RETRY_MS = 60_000;
const AUTO_ATTEMPTS = 10;

const STORAGE_CODES: Record<ObjectStorageError['failure'], { status: number; code: string }> = {
  unreachable: { status: 502, code: 'CLOUD_UNREACHABLE' },
  credentials: { status: 502, code: 'CLOUD_CREDENTIALS_REFUSED' },
  denied: { status: 502, code: 'CLOUD_ACCESS_DENIED' },
  'no-bucket': { status: 502, code: 'CLOUD_NO_SUCH_BUCKET' },
  failed: { status: 502, code: 'CLOUD_STORAGE_FAILED' },
  'invalid-options': { status: 409, code: 'CLOUD_SETTINGS_INVALID' },
  'invalid-key': { status: 400, code: 'BACKUP_NAME_INVALID' },
};

/** A bucket failure as the API's error: 502 for what the storage answered, with its words. */
export function storageHttpError(ctx: ServerPluginContext, error: unknown): unknown {
  if (!isObjectStorageError(error)) return error;
  const { status, code } = STORAGE_CODES[error.failure];
  return ctx.httpError(status, code, error.message);
}

/** The archive engine's refusals (BackupArchiveError: a code and words) as the API's error. */
function archiveHttpError(ctx: ServerPluginContext, error: unknown): unknown {
  if (!isBackupArchiveError(error)) return error;
  const { code } = error;
  return ctx.httpError(code === 'BACKUP_NOT_FOUND' ? 404 : code === 'BACKUP_NAME_INVALID' ? 400 : 409, code, error.message);
}

function remoteArchive(key: string, size: number, lastModified: string): Omit<RemoteArchive, 'local'> | null {
  const parsed = parseArchiveName(key);
  if (!parsed) return null;
  return { name: key, size, created_at: parsed.createdAt, uploaded_at: lastModified, kind: parsed.kind };
}

/** Counts the bytes going through, for a transfer's progress. */
function counting(onBytes: (total: number) => void): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      onBytes(total);
      done(null, chunk);
    },
  });
}

export interface Starter {
  /** the username shown on the transfer; null for the automatic upload */
  username: string | null;
  userId: number | null;
  request: FastifyRequest | null;
}

export class OffsiteCopies {
  private remoteCache: { key: string; at: number; copies: RemoteBackupCopy[] } | null = null;

  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly archives: PanelBackup,
    readonly transfers: Transfers,
  ) {}

  /** The configured bucket; 409 CLOUD_NOT_CONFIGURED while there is none. The caller closes it. */
  private async bucket(): Promise<{ bucket: RemoteBucket; keep: number }> {
    const config = await readCloudConfig(this.ctx);
    if (!config.options) {
      throw this.ctx.httpError(409, 'CLOUD_NOT_CONFIGURED', 'No bucket is set up for off-site copies yet: a root administrator fills in the connection on this screen.');
    }
    try {
      return { bucket: this.ctx.objectStorage.bucket(config.options), keep: config.connection.keep };
    } catch (error) {
      throw storageHttpError(this.ctx, error);
    }
  }

  /** every archive in the bucket's folder (other objects there are not ours) */
  private async remoteArchives(bucket: RemoteBucket): Promise<Omit<RemoteArchive, 'local'>[]> {
    const out: Omit<RemoteArchive, 'local'>[] = [];
    try {
      for await (const object of bucket.listAll('orepanel-')) {
        const archive = remoteArchive(object.key, object.size, object.lastModified);
        if (archive) out.push(archive);
      }
    } catch (error) {
      throw storageHttpError(this.ctx, error);
    }
    return out.sort(newestArchiveFirst);
  }

  private forgetRemoteList(): void {
    this.remoteCache = null;
  }

  /** The screen's view: the connection, the remote list, the local archives, the transfer. */
  async status(isRoot: boolean): Promise<CloudStatus> {
    const config = await readCloudConfig(this.ctx);
    const localBackups = await this.archives.list();
    const localNames = new Set(localBackups.map((b) => b.name));
    let remote: CloudStatus['remote'] = { state: 'off', error: null, data: [] };
    if (config.options) {
      let bucket: RemoteBucket | null = null;
      try {
        bucket = this.ctx.objectStorage.bucket(config.options);
        const archives = await this.remoteArchives(bucket);
        remote = { state: 'ok', error: null, data: archives.map((a) => ({ ...a, local: localNames.has(a.name) })) };
      } catch (error) {
        const coded = storageHttpError(this.ctx, error) as Partial<HttpError>;
        if (typeof coded.code !== 'string') throw error;
        remote = { state: 'unavailable', error: { code: coded.code, message: coded.message ?? '' }, data: [] };
      } finally {
        bucket?.close();
      }
    }
    const remoteNames = new Set(remote.data.map((a) => a.name));
    const local: LocalArchive[] = localBackups.map((b) => ({ name: b.name, size: b.size, created_at: b.createdAt, kind: b.kind, remote: remoteNames.has(b.name) }));
    return {
      configured: config.options !== null,
      connection: { ...config.connection, access_key_id: isRoot ? config.connection.access_key_id : null },
      remote,
      local,
      transfer: this.transfers.current(),
    };
  }

  private busyWith(name: string): boolean {
    const current = this.transfers.current();
    return current !== null && current.state === 'running' && current.name === name;
  }

  /**
   * Uploads local archive `name`: checked here (configured, local, not already off-site, the
   * bucket answers) so a refusal is an answer, not a failed transfer; then a transfer.
   */
  async startUpload(name: string, starter: Starter): Promise<Transfer> {
    const { bucket, keep } = await this.bucket();
    try {
      const local = (await this.archives.list()).find((b) => b.name === name);
      if (!local) throw this.ctx.httpError(404, 'BACKUP_NOT_FOUND', 'There is no such backup in the local folder.');
      let already: unknown;
      try {
        already = await bucket.head(name);
      } catch (error) {
        throw storageHttpError(this.ctx, error);
      }
      if (already) throw this.ctx.httpError(409, 'CLOUD_ALREADY_OFFSITE', 'This backup is already held off-site.');
      const transfer = await this.transfers.start(
        { direction: 'upload', name, startedBy: starter.username },
        {
          run: async (progress) => {
            let opened: Awaited<ReturnType<PanelBackup['open']>>;
            try {
              opened = await this.archives.open(name);
            } catch (error) {
              throw archiveHttpError(this.ctx, error);
            }
            progress(0, opened.size);
            try {
              const { size } = await bucket.put(name, opened.stream, {
                size: opened.size,
                contentType: 'application/octet-stream',
                onProgress: (sent) => progress(sent, opened.size),
              });
              if (size !== opened.size) throw new Error(`backups-cloud: sent ${size} bytes of ${opened.size}`);
            } catch (error) {
              throw storageHttpError(this.ctx, error);
            }
          },
          after: async (ended) => {
            try {
              this.forgetRemoteList();
              await this.recordEnd(starter, ended);
              if (ended.state === 'done') await this.applyRetention(bucket, keep, name);
            } finally {
              bucket.close();
            }
          },
        },
      );
      if (!transfer) throw this.ctx.httpError(409, 'CLOUD_BUSY', 'Another upload or download is running; start this one when it has ended.');
      await this.recordStart(starter, starter.request ? 'admin.cloud.upload' : 'cloud.auto_upload', { name, size: local.size, transfer: transfer.id });
      return transfer;
    } catch (error) {
      bucket.close();
      throw error;
    }
  }

  /** Downloads off-site archive `name` into the local folder (it must not be there already). */
  async startDownload(name: string, starter: Starter): Promise<Transfer> {
    const { bucket } = await this.bucket();
    try {
      if ((await this.archives.list()).some((b) => b.name === name)) {
        throw this.ctx.httpError(409, 'BACKUP_EXISTS', 'This backup is already in the local folder.');
      }
      let found: { size: number } | null;
      try {
        found = await bucket.head(name);
      } catch (error) {
        throw storageHttpError(this.ctx, error);
      }
      if (!found) throw this.ctx.httpError(404, 'CLOUD_ARCHIVE_NOT_FOUND', 'There is no such backup off-site.');
      const size = found.size;
      const transfer = await this.transfers.start(
        { direction: 'download', name, startedBy: starter.username },
        {
          run: async (progress) => {
            let object: Awaited<ReturnType<RemoteBucket['get']>>;
            try {
              object = await bucket.get(name);
            } catch (error) {
              throw storageHttpError(this.ctx, error);
            }
            if (!object) throw this.ctx.httpError(404, 'CLOUD_ARCHIVE_NOT_FOUND', 'The backup was removed from the bucket meanwhile.');
            const total = object.size;
            progress(0, total);
            const counted = object.stream.pipe(counting((bytes) => progress(bytes, total)));
            // a failing download stream must reach the engine, which then drops its partial file
            object.stream.on('error', (error) => counted.destroy(error));
            try {
              await this.archives.receive(name, counted);
            } catch (error) {
              object.stream.destroy();
              throw storageHttpError(this.ctx, archiveHttpError(this.ctx, error));
            }
          },
          after: async (ended) => {
            bucket.close();
            await this.recordEnd(starter, ended);
          },
        },
      );
      if (!transfer) throw this.ctx.httpError(409, 'CLOUD_BUSY', 'Another upload or download is running; start this one when it has ended.');
      await this.recordStart(starter, 'admin.cloud.download', { name, size, transfer: transfer.id });
      return transfer;
    } catch (error) {
      bucket.close();
      throw error;
    }
  }

  /**
   * The start of a transfer in the audit log. The transfer runs already and owns the bucket: a
   * failing audit write is logged rather than thrown, which would close the bucket under it.
   */
  private async recordStart(starter: Starter, action: string, details: Record<string, string | number>): Promise<void> {
    try {
      await this.ctx.audit.record(starter.request, { action, actorUserId: starter.userId, details });
    } catch (error) {
      this.ctx.log.error({ err: error, action, details }, 'backups-cloud: the audit log refused the start of a transfer');
    }
  }

  /** a failed transfer is a warning in the audit log (the start was recorded when it began) */
  private async recordEnd(starter: Starter, ended: Transfer): Promise<void> {
    if (ended.state !== 'failed') return;
    await this.ctx.audit.record(null, {
      action: `cloud.${ended.direction}_failed`,
      actorUserId: starter.userId,
      details: { name: ended.name, transfer: ended.id, code: ended.error?.code ?? null },
    });
  }

  /** Deletes off-site archive `name`; false when there was none. */
  async removeRemote(name: string): Promise<boolean> {
    if (this.busyWith(name)) throw this.ctx.httpError(409, 'CLOUD_BUSY', 'This backup is being transferred; delete it when the transfer has ended.');
    const { bucket } = await this.bucket();
    try {
      const removed = await bucket.remove(name);
      this.forgetRemoteList();
      return removed;
    } catch (error) {
      throw storageHttpError(this.ctx, error);
    } finally {
      bucket.close();
    }
  }

  /**
   * Keeps the `keep` newest archives off-site and deletes the others — never the one just uploaded
   * (an older archive uploaded by hand would otherwise go at once). Other objects are not archives.
   */
  async applyRetention(bucket: RemoteBucket, keep: number, justUploaded: string | null): Promise<string[]> {
    const archives = await this.remoteArchives(bucket);
    const keptNames = new Set(archives.slice(0, keep).map((a) => a.name));
    if (justUploaded) keptNames.add(justUploaded);
    const removed: string[] = [];
    for (const archive of archives) {
      if (keptNames.has(archive.name)) continue;
      try {
        if (await bucket.remove(archive.name)) removed.push(archive.name);
      } catch (error) {
        this.ctx.log.warn({ err: error, name: archive.name }, 'backups-cloud: retention could not delete an off-site archive');
      }
    }
    if (removed.length > 0) {
      this.forgetRemoteList();
      await this.ctx.audit.record(null, { action: 'cloud.retention', details: { keep, removed: removed.length, names: removed.join(', ').slice(0, 1000) } });
    }
    return removed;
  }

  /**
   * "Test connection": lists the folder, writes a small probe object, reads it back and deletes
   * it — the four things the off-site copies do — and says which failed, in words.
   */
  async testConnection(options: ObjectStorageOptions): Promise<ConnectionTest> {
    let bucket: RemoteBucket;
    try {
      bucket = this.ctx.objectStorage.bucket(options);
    } catch (error) {
      throw storageHttpError(this.ctx, error);
    }
    const probe = `.orepanel-connection-test-${randomBytes(6).toString('hex')}`;
    const content = Buffer.from(`Orepanel connection test ${new Date(this.ctx.clock.now()).toISOString()}\n`);
    const steps: ConnectionTest['steps'] = [];
    const attempt = async (step: TestStep, run: () => Promise<void>): Promise<boolean> => {
      try {
        await run();
        steps.push({ step, ok: true, error: null });
        return true;
      } catch (error) {
        const coded = storageHttpError(this.ctx, error) as Partial<HttpError>;
        steps.push({
          step,
          ok: false,
          error: typeof coded.code === 'string' ? { code: coded.code, message: coded.message ?? '' } : { code: 'CLOUD_STORAGE_FAILED', message: String((error as Error).message) },
        });
        return false;
      }
    };
    try {
      if (!(await attempt('list', async () => void (await bucket.list({ limit: 1 }))))) return { ok: false, steps };
      if (!(await attempt('put', async () => void (await bucket.put(probe, content))))) return { ok: false, steps };
      const read = await attempt('get', async () => {
        const object = await bucket.get(probe);
        if (!object) throw new Error('The probe object was not there right after it was written.');
        const chunks: Buffer[] = [];
        for await (const chunk of object.stream) chunks.push(Buffer.from(chunk as Uint8Array));
        if (!Buffer.concat(chunks).equals(content)) throw new Error('The probe object came back different from what was written.');
      });
      // the probe is removed even when reading it failed
      const removed = await attempt('remove', async () => {
        if (!(await bucket.remove(probe))) throw new Error('The probe object was gone before it was deleted.');
      });
      return { ok: read && removed && steps.length === TEST_STEPS.length, steps };
    } finally {
      bucket.close();
    }
  }

  /** What the backups screen asks: the archives held off-site (cached briefly); null when not set up; rejects when the bucket does not answer. */
  remoteCopies(): BackupRemoteCopies {
    return {
      list: async () => {
        const config = await readCloudConfig(this.ctx);
        // not set up: the backups screen shows its archives as local, without a warning
        if (!config.options) return null;
        const key = JSON.stringify([config.options.endpoint, config.options.bucket, config.options.prefix]);
        const now = this.ctx.clock.now();
        if (this.remoteCache && this.remoteCache.key === key && now - this.remoteCache.at < REMOTE_CACHE_MS) return this.remoteCache.copies;
        const bucket = this.ctx.objectStorage.bucket(config.options);
        try {
          const copies = (await this.remoteArchives(bucket)).map((a) => ({ name: a.name, size: a.size, createdAt: a.created_at, kind: a.kind }));
          this.remoteCache = { key, at: now, copies };
          return copies;
        } finally {
          bucket.close();
        }
      },
    };
  }

  /**
   * After a scheduled backup: uploads it when a bucket is configured and the automatic upload is on.
   * A running transfer is waited for (asked again every minute, ten times); any other refusal or
   * failure goes to the log and the audit log — the next scheduled backup is uploaded as usual.
   */
  async autoUpload(name: string, attempt = 1): Promise<Transfer | null> {
    const config = await readCloudConfig(this.ctx);
    if (!config.options || !config.connection.auto_upload) return null;
    try {
      return await this.startUpload(name, { username: null, userId: null, request: null });
    } catch (error) {
      const code = (error as Partial<HttpError>).code;
      if (code === 'CLOUD_BUSY' && attempt < AUTO_ATTEMPTS) {
        this.ctx.clock.setTimeout(() => void this.autoUpload(name, attempt + 1).catch(() => undefined), AUTO_RETRY_MS);
        return null;
      }
      if (code === 'CLOUD_ALREADY_OFFSITE') return null;
      this.ctx.log.warn({ err: error, name }, 'backups-cloud: the automatic upload of a scheduled backup did not start');
      await this.ctx.audit.record(null, { action: 'cloud.auto_upload_failed', details: { name, code: code ?? 'CLOUD_TRANSFER_FAILED' } });
      return null;
    }
  }
}
