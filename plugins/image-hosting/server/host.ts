// The image host: upload keys, the images and their quota, and coins per upload. Every write that
// must hold together runs in one transaction: the image row and the quota's conditional update (and,
// when uploads cost coins, the wallet's debit, whose transaction they run in), so a refusal at any
// step stores nothing — the request's file is deleted by the file service when the answer is an error.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { insertUnlessTaken, type PluginReadableDatabase, type ServerPluginContext, type StoredFile, type UploadRouteConfig } from '@orepanel/sdk/server';
import { hostingLimits, LIMIT_SETTINGS, type HostingLimits } from './limits';
import type { ImageHostingTables } from './tables';
import type { EmbedSettings, ImageView } from '../shared/wire';

export type { EmbedSettings, ImageView } from '../shared/wire';

type HostDb = Kysely<PluginReadableDatabase & ImageHostingTables>;

/** An upload key: a prefix that tells it apart in a leaked-secrets scan, then 192 random bits. */
export const KEY_PATTERN = '^ohk_[A-Za-z0-9_-]{32}$';
/** A viewer link's name: 96 random bits, base64url. */
export const NAME_PATTERN = '^[A-Za-z0-9_-]{16}$';

const newKey = () => `ohk_${randomBytes(24).toString('base64url')}`;
const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** the embed colour until the customer picks one (the migration's column default) */
const DEFAULT_COLOR = '#5865f2';

export class ImageHost {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly db: HostDb,
  ) {}

  private now(): string {
    return new Date(this.ctx.clock.now()).toISOString();
  }

  async limits(): Promise<HostingLimits> {
    return hostingLimits(await this.ctx.settings.getMany(LIMIT_SETTINGS));
  }

  /** config.upload of both upload routes: one image, of the types and size the settings allow. */
  readonly uploadLimits = async (): Promise<UploadRouteConfig> => {
    const { types, maxBytes } = await this.limits();
    if (types.length === 0) throw this.ctx.httpError(415, 'FILE_TYPE_REFUSED', 'No image type is allowed for hosting.');
    return { maxFiles: 1, maxBytes, types };
  };

  /** The customer's account row, made with a fresh key on first use (a racing second request finds the first's). */
  private async account(userId: number, db: HostDb = this.db) {
    const existing = await db.selectFrom('image_hosting_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (existing) return existing;
    const key = newKey();
    const now = this.now();
    await insertUnlessTaken(
      this.ctx.dialect,
      db.insertInto('image_hosting_accounts').values({ user_id: userId, key_hash: hashKey(key), key_sealed: this.ctx.secrets.seal(key), created_at: now, updated_at: now }),
    ).execute();
    return db.selectFrom('image_hosting_accounts').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
  }

  /** The customer's upload key in plain text (for its owner only). */
  async revealKey(userId: number): Promise<string> {
    const key = this.ctx.secrets.open((await this.account(userId)).key_sealed);
    // sealed under another SECRET_KEY: a new key is the only way back to a working one
    return key ?? this.rotateKey(userId);
  }

  /** Replaces the key: the old one stops working at once. */
  async rotateKey(userId: number): Promise<string> {
    await this.account(userId);
    const key = newKey();
    await this.db
      .updateTable('image_hosting_accounts')
      .set({ key_hash: hashKey(key), key_sealed: this.ctx.secrets.seal(key), updated_at: this.now() })
      .where('user_id', '=', userId)
      .execute();
    return key;
  }

  /** The account an upload key belongs to: null for an unknown key or a banned account. */
  async userForKey(key: string): Promise<number | null> {
    if (!new RegExp(KEY_PATTERN).test(key)) return null;
    const row = await this.db
      .selectFrom('image_hosting_accounts as a')
      .innerJoin('user_public as u', 'u.id', 'a.user_id')
      .select(['a.user_id', 'u.banned'])
      .where('a.key_hash', '=', hashKey(key))
      .executeTakeFirst();
    return row && Number(row.banned) === 0 ? Number(row.user_id) : null;
  }

  /** Read only: an account that never saved any answers the defaults. */
  async embed(userId: number): Promise<EmbedSettings> {
    const row = await this.db
      .selectFrom('image_hosting_accounts')
      .select(['embed_enabled', 'embed_title', 'embed_description', 'embed_color'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return { enabled: false, title: '', description: '', color: DEFAULT_COLOR };
    return { enabled: Number(row.embed_enabled) === 1, title: row.embed_title, description: row.embed_description, color: row.embed_color };
  }

  async setEmbed(userId: number, embed: EmbedSettings): Promise<EmbedSettings> {
    await this.account(userId);
    await this.db
      .updateTable('image_hosting_accounts')
      .set({ embed_enabled: embed.enabled ? 1 : 0, embed_title: embed.title, embed_description: embed.description, embed_color: embed.color.toLowerCase(), updated_at: this.now() })
      .where('user_id', '=', userId)
      .execute();
    return this.embed(userId);
  }

  async usedBytes(userId: number): Promise<number> {
    const row = await this.db.selectFrom('image_hosting_accounts').select('used_bytes').where('user_id', '=', userId).executeTakeFirst();
    return Number(row?.used_bytes ?? 0);
  }

  /**
   * Keeps the request's one image for `userId`: per-minute limit, the quota (a conditional update of
   * the account's byte count) and the image row in one transaction — inside the wallet's debit when an
   * upload costs coins, so a refused charge (409 INSUFFICIENT_COINS) records nothing, and a quota
   * refusal undoes the charge.
   */
  async upload(request: FastifyRequest, userId: number): Promise<ImageView> {
    const limits = await this.limits();
    const since = new Date(this.ctx.clock.now() - 60_000).toISOString();
    const recent = await this.db
      .selectFrom('image_hosting_images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= limits.uploadsPerMinute) throw this.ctx.httpError(429, 'RATE_LIMITED', 'Too many uploads; try again in a minute.');
    const { files } = await this.ctx.files.fromRequest(request);
    const file = files[0];
    if (files.length !== 1 || !file) throw this.ctx.httpError(400, 'UPLOAD_INVALID', 'Send one image in the form field "file".');
    // made once the file passed its checks (refused input writes nothing) and before the transaction:
    // two first uploads at once on MariaDB would not see each other's new row inside theirs
    await this.account(userId);
    const name = randomBytes(12).toString('base64url');
    const createdAt = this.now();
    const record = (db: HostDb) => this.record(db, userId, file, name, createdAt, limits.quotaBytes);
    if (limits.coinsPerUpload > 0) {
      await this.ctx.wallet.debit({
        userId,
        amount: limits.coinsPerUpload,
        kind: 'image_hosting.upload',
        reference: name,
        idempotencyKey: `image-hosting:upload:${file.key}`,
        effect: (trx) => record(trx.withTables<ImageHostingTables>()),
      });
    } else {
      await this.db.transaction().execute((trx) => record(trx));
    }
    const row = await this.db.selectFrom('image_hosting_images').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    return toView(row);
  }

  private async record(db: HostDb, userId: number, file: StoredFile, name: string, createdAt: string, quotaBytes: number): Promise<void> {
    const counted = await db
      .updateTable('image_hosting_accounts')
      .set((eb) => ({ used_bytes: eb('used_bytes', '+', file.size) }))
      .where('user_id', '=', userId)
      .where((eb) => eb(eb('used_bytes', '+', file.size), '<=', quotaBytes))
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) !== 1) throw this.ctx.httpError(409, 'QUOTA_EXCEEDED', 'This image does not fit in your storage quota; delete some images first.');
    await db
      .insertInto('image_hosting_images')
      .values({ user_id: userId, file_key: file.key, name, original_name: file.name, type: file.type, size: file.size, created_at: createdAt })
      .execute();
  }

  async list(userId: number, page: number, perPage: number): Promise<{ rows: ImageView[]; total: number }> {
    const base = this.db.selectFrom('image_hosting_images').where('user_id', '=', userId);
    const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return { rows: rows.map(toView), total };
  }

  /** The image by its viewer name, with its owner's embed settings. */
  async byName(name: string) {
    return this.db
      .selectFrom('image_hosting_images as i')
      .leftJoin('image_hosting_accounts as a', 'a.user_id', 'i.user_id')
      .select([
        'i.id',
        'i.user_id',
        'i.file_key',
        'i.name',
        'i.original_name',
        'i.type',
        'i.size',
        'i.created_at',
        'a.embed_enabled',
        'a.embed_title',
        'a.embed_description',
        'a.embed_color',
      ])
      .where('i.name', '=', name)
      .executeTakeFirst();
  }

  /** Deletes image `id` of `userId` (another's is as missing as none: 404). */
  async removeMine(userId: number, id: number): Promise<void> {
    const row = await this.db.selectFrom('image_hosting_images').select(['id']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw this.ctx.httpError(404, 'IMAGE_NOT_FOUND', 'No such image.');
    await this.remove(Number(row.id));
  }

  /** Deletes an image's row, gives its bytes back to the owner's quota, then deletes its file. False when it was already gone. */
  async remove(id: number): Promise<boolean> {
    const fileKey = await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('image_hosting_images').select(['user_id', 'file_key', 'size']).where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      const deleted = await trx.deleteFrom('image_hosting_images').where('id', '=', id).executeTakeFirst();
      // a concurrent delete took it first: its quota was given back there
      if (Number(deleted.numDeletedRows) !== 1) return null;
      await trx
        .updateTable('image_hosting_accounts')
        .set((eb) => ({ used_bytes: eb('used_bytes', '-', Number(row.size)) }))
        .where('user_id', '=', row.user_id)
        .execute();
      return row.file_key;
    });
    if (fileKey === null) return false;
    try {
      await this.ctx.files.delete(fileKey);
    } catch (error) {
      this.ctx.log.error({ err: error, imageId: id }, 'a deleted hosted image’s file could not be removed');
    }
    return true;
  }

  /** The files of an account about to be deleted (its rows go with it through foreign keys). */
  async removeFilesOfUser(userId: number): Promise<void> {
    const rows = await this.db.selectFrom('image_hosting_images').select('file_key').where('user_id', '=', userId).execute();
    for (const { file_key: key } of rows) {
      try {
        await this.ctx.files.delete(key);
      } catch (error) {
        this.ctx.log.error({ err: error, userId }, 'a deleted account’s hosted image could not be removed');
      }
    }
  }
}

function toView(row: { id: number; name: string; original_name: string; type: string; size: number; created_at: string }): ImageView {
  return { id: Number(row.id), name: row.name, original_name: row.original_name, type: row.type, size: Number(row.size), created_at: row.created_at };
}
