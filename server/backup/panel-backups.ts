// ctx.panelBackup (sdk/server/panel-backup.ts): the archives of the whole panel in DATA_DIR/backups.
// The command line (`orepanel backup …`) and the backups plugin's screens use this one
// implementation, so they always see the same archives.
//
// An archive is written under a hidden temporary name and renamed once complete; a small unencrypted
// sidecar (<name>.json: kind, time, panel version, size — nothing secret) lets list() answer without
// decrypting every archive. One create or restore runs at a time in a process.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import semver from 'semver';
import type { ServerPluginMigration } from '../../sdk/server';
import {
  BackupArchiveError,
  type BackupKind,
  type BackupManifest,
  type BackupOptions,
  type BackupProgress,
  type BackupTableSummary,
  type LocalBackup,
  type PanelBackup,
} from '../../sdk/server/panel-backup';
import { SDK_VERSION } from '../../sdk/version';
import type { DatabaseConfig } from '../config';
import type { Database } from '../db/connect';
import type { FileStore } from '../files/store';
import { systemClock, type Clock } from '../realtime/clock';
import { archiveName, checkArchiveName, isArchiveName, parseArchiveName } from './archive-name';
import { DATA_STREAM, FrameSealer, HEADER_BYTES, MANIFEST_STREAM, newArchiveHeader, sealWhole, writeManifestOffset, type BackupKeySource } from './archive-crypto';
import { openArchive, type OpenedArchive } from './archive-reader';
import { backedUpTables, MIGRATION_TABLE_PREFIX, neutralOrder, parentsFirst, quoteIdentifier, readCatalog, sortedColumnNames, type CatalogTable } from './catalog';
import { FilesDigest, rowLine, TableDigest } from './neutral-form';
import { encodeRecord, parseJson, RECORD, type FileEnd, type FileStart, type TableEnd, type TableStart } from './records';
import { restoreArchive } from './restore';
import { openSnapshot, type Snapshot } from './snapshot';

/** One set of migrations this code ships: the core's or a plugin's, with its bookkeeping table. */
export interface MigrationSet {
  /** 'core' or a plugin id */
  owner: string;
  /** op_migrations_core, op_migrations_<plugin> */
  table: string;
  migrations: Readonly<Record<string, ServerPluginMigration>>;
  /** the check a plugin's migrations run under (its own tables only) */
  guard?: KyselyPlugin;
}

export interface PanelBackupsOptions {
  dataDir: string;
  /** the install's key (SECRET_KEY or DATA_DIR/secret.key) */
  secretKey: string;
  /** BACKUP_PASSPHRASE: when set, new archives are encrypted with it instead of the install's key */
  passphrase: string | null;
  database: Database;
  databaseConfig: DatabaseConfig;
  files: FileStore;
  panelVersion: string;
  /** the installed plugins as they are now, for the manifest */
  plugins: () => { id: string; version: string; enabled: boolean }[];
  /**
   * The migration sets this code ships, core first then plugins in load order. `tables` are the
   * migration tables an archive holds: a plugin whose code is loaded only on demand is included when
   * its table is among them.
   */
  migrationSets: (tables: ReadonlySet<string>) => Promise<MigrationSet[]>;
  /** the panel's clock (ctx.clock): an archive's name and time, so retention can be tested on a manual clock */
  clock?: Clock;
  /** after a restore committed: in-process copies of database state must be read again */
  onRestored?: (name: string) => Promise<void>;
  /**
   * Runs a restore's work from its before-restore archive to its last row with the rest of the panel
   * held still (server/db/database-hold.ts); absent (the command line, with no panel running): as is
   */
  holdStill?: <T>(work: () => Promise<T>) => Promise<T>;
  log?: FastifyBaseLogger;
}

/** What a reader of the data stream is handed, record by record, once the record is checked. */
export interface ArchiveVisitor {
  tableStart?(table: TableStart): Promise<void> | void;
  /** rows in the table's column order (`table.columns`), still in their neutral form */
  rows?(table: TableStart, rows: unknown[][]): Promise<void> | void;
  tableEnd?(table: TableStart, end: TableEnd): Promise<void> | void;
  fileStart?(file: FileStart): Promise<void> | void;
  fileBytes?(file: FileStart, chunk: Buffer): Promise<void> | void;
  fileEnd?(file: FileStart): Promise<void> | void;
}

interface Sidecar {
  format: 1;
  kind: BackupKind;
  createdAt: string;
  panelVersion: string;
  size: number;
}

const SIDECAR = '.json';

const damaged = (why: string) => new BackupArchiveError('BACKUP_DAMAGED', `The backup is damaged (${why}).`);

function reporter(options: BackupOptions | undefined): (progress: BackupProgress) => void {
  const listener = options?.onProgress;
  if (!listener) return () => undefined;
  // a listener that throws (a closed socket) must not fail the backup
  return (progress) => {
    try {
      listener(progress);
    } catch {
      /* ignored */
    }
  };
}

function sameText(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

export class PanelBackups implements PanelBackup {
  readonly directory: string;
  /** the create/restore that runs now: the next one waits for it */
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PanelBackupsOptions) {
    this.directory = join(options.dataDir, 'backups');
  }

  /** Runs `task` after every create/restore before it has finished. */
  protected exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.running.then(task, task);
    this.running = run.catch(() => undefined);
    return run;
  }

  private pathOf(name: string): string {
    return join(this.directory, checkArchiveName(name));
  }

  private async ensureDirectory(): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
  }

  private keySource(): BackupKeySource {
    return this.options.passphrase ? { kind: 'passphrase', passphrase: this.options.passphrase } : { kind: 'install', secretKey: this.options.secretKey };
  }

  // ---- the folder -------------------------------------------------------------------------------

  async list(): Promise<LocalBackup[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const out: LocalBackup[] = [];
    for (const name of names.filter(isArchiveName)) {
      const found = await this.describe(name);
      if (found) out.push(found);
    }
    return out.sort((a, b) => (a.createdAt === b.createdAt ? (a.name < b.name ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
  }

  /** The archive as listed: from its sidecar, else from its manifest (and the sidecar written again). */
  private async describe(name: string): Promise<LocalBackup | null> {
    const path = this.pathOf(name);
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      return null; // removed meanwhile
    }
    const { kind, createdAt: fromName } = parseArchiveName(name);
    try {
      const sidecar = JSON.parse(await readFile(`${path}${SIDECAR}`, 'utf8')) as Partial<Sidecar>;
      if (sidecar.format === 1 && typeof sidecar.createdAt === 'string' && typeof sidecar.panelVersion === 'string' && sidecar.size === size) {
        return { name, size, createdAt: sidecar.createdAt, kind, panelVersion: sidecar.panelVersion };
      }
    } catch {
      /* missing or stale: read the manifest */
    }
    try {
      const archive = await openArchive(path, this.options.secretKey, this.options.passphrase);
      await this.writeSidecar(name, kind, archive.manifest, size);
      return { name, size, createdAt: archive.manifest.createdAt, kind, panelVersion: archive.manifest.panelVersion };
    } catch {
      // another install's archive, or a damaged one: still listed, so it can be seen and removed
      return { name, size, createdAt: fromName, kind, panelVersion: 'unknown' };
    }
  }

  private async writeSidecar(name: string, kind: BackupKind, manifest: BackupManifest, size: number): Promise<void> {
    const sidecar: Sidecar = { format: 1, kind, createdAt: manifest.createdAt, panelVersion: manifest.panelVersion, size };
    const path = `${this.pathOf(name)}${SIDECAR}`;
    const temp = join(this.directory, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temp, `${JSON.stringify(sidecar)}\n`, { mode: 0o600 });
    await rename(temp, path);
  }

  async inspect(name: string): Promise<BackupManifest> {
    return (await this.openNamed(name)).manifest;
  }

  /** Opens the archive called `name`: BACKUP_NOT_FOUND, BACKUP_WRONG_KEY, BACKUP_DAMAGED. */
  openNamed(name: string): Promise<OpenedArchive> {
    return openArchive(this.pathOf(name), this.options.secretKey, this.options.passphrase);
  }

  async open(name: string): Promise<{ stream: Readable; size: number }> {
    const path = this.pathOf(name);
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      throw new BackupArchiveError('BACKUP_NOT_FOUND', 'There is no such backup.');
    }
    return { stream: createReadStream(path), size };
  }

  async remove(name: string): Promise<boolean> {
    const path = this.pathOf(name);
    try {
      await rm(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        await rm(`${path}${SIDECAR}`, { force: true });
        return false;
      }
      throw error;
    }
    await rm(`${path}${SIDECAR}`, { force: true });
    return true;
  }

  async receive(name: string, content: Readable): Promise<LocalBackup> {
    const path = this.pathOf(name);
    await this.ensureDirectory();
    const temp = join(this.directory, `.${name}.${randomBytes(6).toString('hex')}.partial`);
    try {
      await pipeline(content, createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
      // an archive of this install whose manifest opens; the data is checked by verify()
      const archive = await openArchive(temp, this.options.secretKey, this.options.passphrase);
      const exists = await stat(path).then(
        () => true,
        () => false,
      );
      if (exists) throw new BackupArchiveError('BACKUP_EXISTS', `A backup named ${name} is already here.`);
      await rename(temp, path);
      const { kind } = parseArchiveName(name);
      await this.writeSidecar(name, kind, archive.manifest, archive.size);
      return { name, size: archive.size, createdAt: archive.manifest.createdAt, kind, panelVersion: archive.manifest.panelVersion };
    } finally {
      await rm(temp, { force: true });
    }
  }

  // ---- create -----------------------------------------------------------------------------------

  create(kind: BackupKind, options?: BackupOptions): Promise<LocalBackup> {
    return this.exclusive(() => this.createNow(kind, options));
  }

  /** create() without waiting for the running task (restore takes its before-restore archive with it). */
  async createNow(kind: BackupKind, options?: BackupOptions): Promise<LocalBackup> {
    const progress = reporter(options);
    await this.ensureDirectory();
    await this.sweepLeftovers();
    const createdAt = new Date((this.options.clock ?? systemClock).now());
    let name = archiveName(kind, createdAt);
    for (let attempt = 1; await this.exists(name); attempt++) name = archiveName(kind, createdAt, attempt);
    const temp = join(this.directory, `.${name}.${randomBytes(6).toString('hex')}.partial`);
    const { header, key } = await newArchiveHeader(this.keySource());
    const bound = header.subarray(0, 28);
    const tables: BackupTableSummary[] = [];
    const migrations: Record<string, string[]> = {};
    const files = new FilesDigest();
    try {
      await writeFile(temp, header, { flag: 'wx', mode: 0o600 });
      progress({ phase: 'snapshot', done: 0, total: 1 });
      const snapshot = await openSnapshot(this.options.database, this.options.databaseConfig, this.directory);
      let fileKeys: string[];
      let catalog: CatalogTable[];
      try {
        catalog = parentsFirst(backedUpTables(await readCatalog(this.options.database.dialect, snapshot.query)));
        // the files as they are at the snapshot: a key's bytes never change, so reading them later is the same
        fileKeys = [];
        for await (const key of this.options.files.list()) fileKeys.push(key);
        fileKeys.sort();
      } catch (error) {
        await snapshot.close().catch(() => undefined);
        throw error;
      }
      progress({ phase: 'snapshot', done: 1, total: 1 });
      const sealer = new FrameSealer(key.key, bound, DATA_STREAM);
      await pipeline(
        Readable.from(this.dataRecords(snapshot, catalog, fileKeys, { tables, migrations, files }, progress)),
        sealer,
        createWriteStream(temp, { flags: 'r+', start: HEADER_BYTES }),
      );
      const manifest: BackupManifest = {
        format: 1,
        kind,
        createdAt: createdAt.toISOString(),
        panelVersion: this.options.panelVersion,
        sdkVersion: SDK_VERSION,
        dialect: this.options.database.dialect,
        plugins: this.options.plugins(),
        migrations,
        tables,
        files: { count: files.count, bytes: files.bytes, sha256: files.hex() },
      };
      const sealedManifest = sealWhole(key.key, bound, MANIFEST_STREAM, Buffer.from(JSON.stringify(manifest), 'utf8'));
      const handle = await open(temp, 'r+');
      let size: number;
      try {
        const offset = (await handle.stat()).size;
        await handle.write(sealedManifest, 0, sealedManifest.length, offset);
        writeManifestOffset(header, offset);
        await handle.write(header, 0, HEADER_BYTES, 0);
        await handle.sync();
        size = offset + sealedManifest.length;
      } finally {
        await handle.close();
      }
      await rename(temp, this.pathOf(name));
      await this.writeSidecar(name, kind, manifest, size);
      progress({ phase: 'done', done: 1, total: 1 });
      this.options.log?.info({ backup: name, size }, 'backup created');
      return { name, size, createdAt: manifest.createdAt, kind, panelVersion: manifest.panelVersion };
    } finally {
      await rm(temp, { force: true });
    }
  }

  /**
   * Removes what a process killed while writing left behind (a hidden .partial archive, SQLite's
   * snapshot copy, a sidecar being written): anything hidden here older than a day, so a create
   * running in another process right now is never touched.
   */
  private async sweepLeftovers(): Promise<void> {
    const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
    for (const entry of await readdir(this.directory)) {
      if (!entry.startsWith('.') || !/\.(partial|tmp|sqlite(-wal|-shm|-journal)?)$/.test(entry)) continue;
      const path = join(this.directory, entry);
      const info = await stat(path).catch(() => null);
      if (info?.isFile() && info.mtimeMs < dayAgo) await rm(path, { force: true });
    }
  }

  private exists(name: string): Promise<boolean> {
    return stat(this.pathOf(name)).then(
      () => true,
      () => false,
    );
  }

  /** The data stream's records: every table (the snapshot is closed after the last), then every file. */
  private async *dataRecords(
    snapshot: Snapshot,
    catalog: readonly CatalogTable[],
    fileKeys: readonly string[],
    out: { tables: BackupTableSummary[]; migrations: Record<string, string[]>; files: FilesDigest },
    progress: (progress: BackupProgress) => void,
  ): AsyncGenerator<Buffer> {
    const dialect = this.options.database.dialect;
    const q = (name: string) => quoteIdentifier(dialect, name);
    try {
      let total = 0;
      const counts = new Map<string, number>();
      for (const table of catalog) {
        const [row] = await snapshot.query(`select count(*) as n from ${q(table.name)}`);
        counts.set(table.name, Number(row?.n ?? 0));
        total += Number(row?.n ?? 0);
      }
      let done = 0;
      progress({ phase: 'tables', done, total });
      for (const table of catalog) {
        const columns = sortedColumnNames(table);
        const types = new Map(table.columns.map((c) => [c.name, c.type]));
        const start: TableStart = { name: table.name, columns: columns.map((name) => ({ name, type: types.get(name) ?? '' })), primaryKey: table.primaryKey };
        yield encodeRecord(RECORD.tableStart, start);
        const digest = new TableDigest(table.name, columns);
        const isMigrations = table.name.startsWith(MIGRATION_TABLE_PREFIX);
        const nameAt = columns.indexOf('name');
        const applied: string[] = [];
        const select = `select ${columns.map(q).join(', ')} from ${q(table.name)} order by ${neutralOrder(dialect, table, columns)}`;
        for await (const page of snapshot.stream(select)) {
          const lines = page.map(rowLine);
          for (const line of lines) digest.addLine(line);
          if (isMigrations && nameAt >= 0) for (const row of page) applied.push(String(row[nameAt]));
          yield encodeRecord(RECORD.rows, `${lines.join('\n')}\n`);
          done += page.length;
          progress({ phase: 'tables', done, total });
        }
        const end: TableEnd = { rows: digest.rows, sha256: digest.hex() };
        yield encodeRecord(RECORD.tableEnd, end);
        out.tables.push({ name: table.name, rows: end.rows, sha256: end.sha256 });
        if (isMigrations) out.migrations[table.name] = applied.sort();
      }
    } finally {
      await snapshot.close();
    }
    progress({ phase: 'files', done: 0, total: fileKeys.length });
    let filesDone = 0;
    for (const key of fileKeys) {
      const found = await this.options.files.get(key);
      // removed since the snapshot: nothing of it is written
      if (found) {
        const start: FileStart = { key, info: { type: found.info.type, size: found.info.size, name: found.info.name } };
        yield encodeRecord(RECORD.fileStart, start);
        out.files.startFile(key, start.info);
        const own = new FilesDigest();
        for await (const chunk of found.stream as AsyncIterable<Buffer>) {
          const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
          out.files.addBytes(bytes);
          own.addBytes(bytes);
          yield encodeRecord(RECORD.fileBytes, bytes);
        }
        const end: FileEnd = { size: own.bytes, sha256: own.hex() };
        yield encodeRecord(RECORD.fileEnd, end);
      }
      progress({ phase: 'files', done: ++filesDone, total: fileKeys.length });
    }
    yield encodeRecord(RECORD.end, Buffer.alloc(0));
  }

  // ---- verify -----------------------------------------------------------------------------------

  async verify(name: string, options?: BackupOptions): Promise<BackupManifest> {
    return this.verifyOpened(await this.openNamed(name), options);
  }

  /** An archive anywhere on disk (the command line's FILE), opened without copying it here. */
  openFile(path: string): Promise<OpenedArchive> {
    return openArchive(path, this.options.secretKey, this.options.passphrase);
  }

  /** verify() for an archive anywhere on disk. */
  async verifyFile(path: string, options?: BackupOptions): Promise<BackupManifest> {
    return this.verifyOpened(await this.openFile(path), options);
  }

  private async verifyOpened(archive: OpenedArchive, options?: BackupOptions): Promise<BackupManifest> {
    await this.checkCompatible(archive.manifest);
    await this.walk(archive, {}, reporter(options));
    return archive.manifest;
  }

  /**
   * BACKUP_TOO_NEW for an archive this code cannot restore: made by a newer panel, holding
   * migrations this code does not ship, or the tables of a plugin this panel does not have.
   */
  async checkCompatible(manifest: BackupManifest): Promise<MigrationSet[]> {
    const ours = this.options.panelVersion;
    if (semver.valid(manifest.panelVersion) && semver.valid(ours) && semver.gt(manifest.panelVersion, ours)) {
      throw new BackupArchiveError('BACKUP_TOO_NEW', `The backup was made by panel ${manifest.panelVersion}, newer than this one (${ours}): update the panel first.`);
    }
    const sets = await this.options.migrationSets(new Set(Object.keys(manifest.migrations)));
    for (const [table, names] of Object.entries(manifest.migrations)) {
      const set = sets.find((s) => s.table === table);
      if (!set) {
        const owner = table.slice(MIGRATION_TABLE_PREFIX.length).replace(/_/g, '-');
        throw new BackupArchiveError('BACKUP_TOO_NEW', `The backup holds the tables of plugin "${owner}", which this panel does not have: install it first.`);
      }
      const unknown = names.filter((n) => !Object.hasOwn(set.migrations, n));
      if (unknown.length > 0) {
        throw new BackupArchiveError(
          'BACKUP_TOO_NEW',
          `The backup was made by a newer panel: ${set.owner === 'core' ? 'the core' : `plugin "${set.owner}"`} there had migration ${unknown[0]}, which this panel does not know. Update the panel first.`,
        );
      }
    }
    return sets;
  }

  /**
   * Reads the whole data stream, checking its structure, every table's row count and checksum and
   * the files' against the manifest, and hands each checked record to `visitor`.
   */
  async walk(archive: OpenedArchive, visitor: ArchiveVisitor, progress: (progress: BackupProgress) => void = () => undefined): Promise<void> {
    const { manifest } = archive;
    let read = 0;
    let lastReport = 0;
    progress({ phase: 'verify', done: 0, total: archive.dataBytes });
    let tableIndex = 0;
    let table: { start: TableStart; digest: TableDigest } | null = null;
    let file: { start: FileStart; digest: FilesDigest } | null = null;
    const files = new FilesDigest();
    let ended = false;
    for await (const record of archive.records((bytes) => {
      read += bytes;
      if (read - lastReport >= 1024 * 1024) {
        lastReport = read;
        progress({ phase: 'verify', done: read, total: archive.dataBytes });
      }
    })) {
      switch (record.type) {
        case RECORD.tableStart: {
          if (table || file) throw damaged('a table starts inside another part');
          const start = parseJson<TableStart>(record.payload);
          const expected = manifest.tables[tableIndex];
          if (!expected || start.name !== expected.name || !Array.isArray(start.columns) || start.columns.length === 0) throw damaged('its tables do not match its manifest');
          table = {
            start,
            digest: new TableDigest(
              start.name,
              start.columns.map((c) => c.name),
            ),
          };
          await visitor.tableStart?.(start);
          break;
        }
        case RECORD.rows: {
          if (!table) throw damaged('rows outside a table');
          const text = record.payload.toString('utf8');
          if (!text.endsWith('\n')) throw damaged('a page of rows is cut');
          const lines = text.slice(0, -1).split('\n');
          for (const line of lines) table.digest.addLine(line);
          if (visitor.rows) {
            const width = table.start.columns.length;
            const rows = lines.map((line) => {
              const row = parseJson<unknown[]>(Buffer.from(line, 'utf8'));
              if (!Array.isArray(row) || row.length !== width) throw damaged('a row does not match its table');
              return row;
            });
            await visitor.rows(table.start, rows);
          }
          break;
        }
        case RECORD.tableEnd: {
          if (!table) throw damaged('a table ends that never started');
          const end = parseJson<TableEnd>(record.payload);
          const expected = manifest.tables[tableIndex];
          const sha256 = table.digest.hex();
          if (end.rows !== table.digest.rows || end.sha256 !== sha256 || expected.rows !== end.rows || expected.sha256 !== sha256) {
            throw damaged(`the checksum of table ${table.start.name} does not match`);
          }
          await visitor.tableEnd?.(table.start, end);
          table = null;
          tableIndex++;
          break;
        }
        case RECORD.fileStart: {
          if (table || file) throw damaged('a file starts inside another part');
          const start = parseJson<FileStart>(record.payload);
          if (typeof start.key !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(start.key) || !start.info || typeof start.info.type !== 'string') throw damaged('a file is unreadable');
          file = { start, digest: new FilesDigest() };
          files.startFile(start.key, start.info);
          await visitor.fileStart?.(start);
          break;
        }
        case RECORD.fileBytes: {
          if (!file) throw damaged('bytes outside a file');
          file.digest.addBytes(record.payload);
          files.addBytes(record.payload);
          await visitor.fileBytes?.(file.start, record.payload);
          break;
        }
        case RECORD.fileEnd: {
          if (!file) throw damaged('a file ends that never started');
          const end = parseJson<FileEnd>(record.payload);
          if (end.size !== file.digest.bytes || end.sha256 !== file.digest.hex()) throw damaged(`the checksum of file ${file.start.key} does not match`);
          await visitor.fileEnd?.(file.start);
          file = null;
          break;
        }
        case RECORD.end:
          if (table || file) throw damaged('it ends inside a part');
          ended = true;
          break;
      }
    }
    if (!ended || tableIndex !== manifest.tables.length) throw damaged('tables are missing');
    if (files.count !== manifest.files.count || files.bytes !== manifest.files.bytes || files.hex() !== manifest.files.sha256)
      throw damaged('the checksum of its files does not match');
    const migrationTables = manifest.tables.filter((t) => t.name.startsWith(MIGRATION_TABLE_PREFIX)).map((t) => t.name);
    if (!sameText(migrationTables.sort(), Object.keys(manifest.migrations).sort())) throw damaged('its migration state does not match its tables');
    progress({ phase: 'verify', done: archive.dataBytes, total: archive.dataBytes });
  }

  // ---- restore ----------------------------------------------------------------------------------

  restore(name: string, options?: BackupOptions): Promise<{ manifest: BackupManifest; beforeRestore: LocalBackup }> {
    checkArchiveName(name);
    return this.exclusive(() => restoreArchive(this, this.options, name, reporter(options)));
  }
}
