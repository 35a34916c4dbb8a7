// What the routes and the schedule ask of the archives: the list with where each one is kept, and the
// three jobs (make, verify, restore) built on the core's archive engine (ctx.panelBackup).
import type { BackupManifest, LocalBackup, PanelBackup, ServerPluginContext } from '@orepanel/sdk/server';
import { BACKUP_REMOTE_COPIES, type RemoteBackupCopy } from '../contract';
import { BACKUP_KIND_NAMES, BACKUP_NAME_PATTERN, type ArchiveSummary, type BackupJob, type BackupKindName, type BackupList, type BackupRow } from '../shared/wire';
import { applyRetention, lastSlot, scheduleSettings } from './schedule';
import type { BackupWork } from './work';

/** how long the list waits for the off-site copies before showing the local ones alone */
const REMOTE_WAIT_MS = 5_000;
const NAME = new RegExp(BACKUP_NAME_PATTERN);

const kindName = (kind: unknown): BackupKindName | null => ((BACKUP_KIND_NAMES as readonly unknown[]).includes(kind) ? (kind as BackupKindName) : null);

export function summaryOf(manifest: BackupManifest): ArchiveSummary {
  return {
    created_at: manifest.createdAt,
    panel_version: manifest.panelVersion,
    dialect: manifest.dialect,
    tables: manifest.tables.length,
    rows: manifest.tables.reduce((sum, table) => sum + table.rows, 0),
    files: manifest.files.count,
    file_bytes: manifest.files.bytes,
  };
}

/** the copy plugin's answer, kept to what the list can show (it is another plugin's data) */
function usableCopy(copy: RemoteBackupCopy): boolean {
  return typeof copy?.name === 'string' && NAME.test(copy.name) && Number.isFinite(copy.size) && copy.size >= 0 && Number.isFinite(Date.parse(copy.createdAt));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the off-site copies did not answer in time')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export class Backups {
  constructor(
    private readonly ctx: ServerPluginContext,
    readonly archives: PanelBackup,
    readonly work: BackupWork,
  ) {}

  async list(): Promise<BackupList> {
    const local = await this.archives.list();
    const copies = this.ctx.services.find(BACKUP_REMOTE_COPIES);
    let remote: RemoteBackupCopy[] = [];
    let state: BackupList['remote'] = 'off';
    if (copies) {
      try {
        const answer = await withTimeout(
          Promise.resolve().then(() => copies.list()),
          REMOTE_WAIT_MS,
        );
        if (answer !== null) {
          remote = answer.filter(usableCopy);
          state = 'ok';
        }
      } catch (error) {
        this.ctx.log.warn({ err: error }, 'backups: the off-site copies could not be listed');
        state = 'unavailable';
      }
    }
    const remoteNames = new Set(remote.map((copy) => copy.name));
    const localNames = new Set(local.map((archive) => archive.name));
    const rows: BackupRow[] = [
      ...local.map(
        (archive: LocalBackup): BackupRow => ({
          name: archive.name,
          size: archive.size,
          created_at: archive.createdAt,
          kind: kindName(archive.kind),
          where: remoteNames.has(archive.name) ? 'both' : 'local',
          panel_version: archive.panelVersion,
        }),
      ),
      ...remote
        .filter((copy) => !localNames.has(copy.name))
        .map(
          (copy): BackupRow => ({
            name: copy.name,
            size: copy.size,
            created_at: new Date(Date.parse(copy.createdAt)).toISOString(),
            kind: kindName(copy.kind),
            where: 'remote',
            panel_version: null,
          }),
        ),
    ];
    rows.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.name < b.name ? 1 : -1));
    return { data: rows, remote: state };
  }

  /** true when archive `name` is in the local folder */
  async hasLocal(name: string): Promise<boolean> {
    return (await this.archives.list()).some((archive) => archive.name === name);
  }

  /**
   * Starts making an archive; null while other archive work runs. A scheduled one is followed, under
   * the same lease, by the retention (so nothing is removed while another job reads it); with
   * `slotCheck` it is made only if the day's slot still has none once the lease is held (several
   * instances waking together make one).
   */
  create(kind: 'manual' | 'scheduled', startedBy: string | null): Promise<BackupJob | null> {
    let removed: string[] = [];
    let made: LocalBackup | null = null;
    return this.work.start(
      { action: 'create', kind, startedBy },
      {
        run: async (progress) => {
          if (kind === 'scheduled') {
            const settings = await scheduleSettings(this.ctx);
            const slot = lastSlot(this.ctx.clock.now(), settings.hour);
            const existing = (await this.archives.list()).find((archive) => archive.kind === 'scheduled' && Date.parse(archive.createdAt) >= slot);
            if (existing) return { name: existing.name };
          }
          made = await this.archives.create(kind, { onProgress: progress });
          if (kind === 'scheduled') removed = await applyRetention(this.ctx, this.archives, await scheduleSettings(this.ctx));
          return { name: made.name };
        },
        after: async () => {
          if (made) await this.ctx.events.emit('backup.created', { name: made.name, kind: made.kind, size: made.size, createdAt: made.createdAt });
          for (const name of removed) await this.ctx.events.emit('backup.deleted', { name, reason: 'retention' });
        },
      },
    );
  }

  verify(name: string, startedBy: string | null): Promise<BackupJob | null> {
    return this.work.start(
      { action: 'verify', name, startedBy },
      { run: async (progress) => ({ summary: summaryOf(await this.archives.verify(name, { onProgress: progress })) }) },
    );
  }

  /**
   * Starts the restore of archive `name`. The audit entry is written once it has ended: the audit log
   * is one of the tables a restore replaces, so an entry written before would be gone after it.
   */
  restore(name: string, admin: { id: number; username: string }, ip: string | null): Promise<BackupJob | null> {
    let beforeRestore: LocalBackup | null = null;
    return this.work.start(
      { action: 'restore', name, startedBy: admin.username },
      {
        run: async (progress) => {
          const result = await this.archives.restore(name, { onProgress: progress });
          beforeRestore = result.beforeRestore;
          return { summary: summaryOf(result.manifest), before_restore: result.beforeRestore.name };
        },
        after: async (job) => {
          await this.ctx.audit.record(null, {
            action: 'admin.backup.restore',
            actorUserId: admin.id,
            details: { archive: name, before_restore: job.before_restore, by: admin.username, ip },
          });
          if (beforeRestore)
            await this.ctx.events.emit('backup.created', { name: beforeRestore.name, kind: beforeRestore.kind, size: beforeRestore.size, createdAt: beforeRestore.createdAt });
        },
        failed: async (job) => {
          await this.ctx.audit.record(null, {
            action: 'admin.backup.restore_failed',
            actorUserId: admin.id,
            details: { archive: name, code: job.error?.code ?? null, by: admin.username, ip },
          });
        },
      },
    );
  }
}
