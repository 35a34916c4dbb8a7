// Announcements as stored and as each side sees them. Who may read one is decided here, once, for
// every public query (list, detail, count, banners, images): published (publish_at ≤ now), not
// expired (expire_at null or > now), and for everyone or for the reader's role.
import { hasPermission, insertedId, likeLiteral, type ServerPluginContext, type StoredFile } from '@orepanel/sdk/server';
import { sql, type ExpressionBuilder, type Insertable, type SqlBool } from 'kysely';
import { imageUrl, renderMarkdown } from './markdown';
import type { AdminAnnouncement, AnnouncementCard, AnnouncementDetail, AnnouncementImage, AnnouncementInput, AnnouncementStatus } from '../shared/wire';
import type { AnnouncementDb, AnnouncementsTable, AnnouncementTables } from './tables';

export { STATUSES } from '../shared/wire';
export type { AdminAnnouncement, AnnouncementInput, AnnouncementStatus } from '../shared/wire';

type Row = Pick<AnnouncementsTable, 'title' | 'summary' | 'body' | 'tags' | 'severity' | 'audience' | 'publish_at' | 'expire_at' | 'created_at' | 'updated_at'> & {
  id: number;
  pinned: number;
  mail: number;
  author_id: number | null;
};

const list = (stored: string): string[] => stored.split(',').filter((part) => part !== '');
const stored = (values: readonly (string | number)[]): string => (values.length === 0 ? '' : `,${values.join(',')},`);

/** draft / scheduled / live / expired at `now` (ISO) */
export function statusAt(row: { publish_at: string | null; expire_at: string | null }, now: string): AnnouncementStatus {
  if (row.publish_at === null) return 'draft';
  if (row.expire_at !== null && row.expire_at <= now) return 'expired';
  if (row.publish_at > now) return 'scheduled';
  return 'live';
}

type Eb = ExpressionBuilder<AnnouncementTables, 'announcements'>;

/** The reader has not marked it so (not opened it: read_at; not closed its banner: dismissed_at). */
function notMarked(eb: Eb, userId: number, mark: 'read_at' | 'dismissed_at') {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('announcement_reads')
        .select('announcement_reads.id')
        .whereRef('announcement_reads.announcement_id', '=', 'announcements.id')
        .where('announcement_reads.user_id', '=', userId)
        .where(`announcement_reads.${mark}`, 'is not', null),
    ),
  );
}

/** the published ones `role` may read at `now` */
function readableBy(eb: Eb, role: number, now: string) {
  return eb.and([
    eb('announcements.publish_at', 'is not', null),
    eb('announcements.publish_at', '<=', now),
    eb.or([eb('announcements.expire_at', 'is', null), eb('announcements.expire_at', '>', now)]),
    eb.or([eb('announcements.audience', '=', ''), eb('announcements.audience', 'like', `%,${role},%`)]),
  ]);
}

export class Announcements {
  constructor(
    private readonly db: AnnouncementDb,
    private readonly ctx: ServerPluginContext,
  ) {}

  now(): string {
    return new Date(this.ctx.clock.now()).toISOString();
  }

  private notFound(): never {
    throw this.ctx.httpError(404, 'ANNOUNCEMENT_NOT_FOUND', 'No such announcement.');
  }

  private async imagesOf(ids: readonly number[]): Promise<Map<number, AnnouncementImage[]>> {
    const out = new Map<number, AnnouncementImage[]>();
    if (ids.length === 0) return out;
    const rows = await this.db
      .selectFrom('announcement_images')
      .select(['announcement_id', 'file_key', 'name', 'size'])
      .where('announcement_id', 'in', [...ids])
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const images = out.get(Number(row.announcement_id)) ?? [];
      images.push({ key: row.file_key, name: row.name, url: imageUrl(row.file_key), size: Number(row.size) });
      out.set(Number(row.announcement_id), images);
    }
    return out;
  }

  /** The administrators' view of rows, with their images and authors asked once for all of them. */
  private async adminViews(rows: readonly Row[], now: string): Promise<AdminAnnouncement[]> {
    const images = await this.imagesOf(rows.map((row) => Number(row.id)));
    const authorIds = [...new Set(rows.map((row) => row.author_id).filter((id): id is number => id !== null))];
    const authors = new Map<number, string>();
    if (authorIds.length > 0) {
      for (const user of await this.db.selectFrom('user_public').select(['id', 'username']).where('id', 'in', authorIds).execute()) authors.set(Number(user.id), user.username);
    }
    return rows.map((row) => ({
      id: Number(row.id),
      title: row.title,
      summary: row.summary,
      body: row.body,
      tags: list(row.tags),
      severity: row.severity,
      pinned: Number(row.pinned) === 1,
      mail: Number(row.mail) === 1,
      role_ids: list(row.audience).map(Number),
      publish_at: row.publish_at,
      expire_at: row.expire_at,
      status: statusAt(row, now),
      author: row.author_id === null ? null : (authors.get(Number(row.author_id)) ?? null),
      images: images.get(Number(row.id)) ?? [],
      created_at: row.created_at,
      updated_at: row.updated_at,
    }));
  }

  private async row(id: number): Promise<Row> {
    const row = await this.db.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) this.notFound();
    return row as Row;
  }

  async get(id: number): Promise<AdminAnnouncement> {
    const [view] = await this.adminViews([await this.row(id)], this.now());
    return view!;
  }

  /** The administrators' list: newest first, by words of the title, summary or tags, and by status. */
  async page(options: { page: number; perPage: number; search: string; status: AnnouncementStatus | null }) {
    const now = this.now();
    let query = this.db.selectFrom('announcements');
    const search = options.search.trim().toLowerCase();
    if (search !== '') {
      // LIKE's own wildcards in the words are matched as themselves (escaped with '!', as on every dialect)
      const pattern = `%${likeLiteral(search)}%`;
      query = query.where((eb) =>
        eb.or([
          sql<SqlBool>`lower(${sql.ref('title')}) like ${pattern} escape '!'`,
          sql<SqlBool>`lower(${sql.ref('summary')}) like ${pattern} escape '!'`,
          sql<SqlBool>`${sql.ref('tags')} like ${pattern} escape '!'`,
        ]),
      );
    }
    switch (options.status) {
      case 'draft':
        query = query.where('publish_at', 'is', null);
        break;
      case 'scheduled':
        query = query.where('publish_at', '>', now).where((eb) => eb.or([eb('expire_at', 'is', null), eb('expire_at', '>', now)]));
        break;
      case 'live':
        query = query.where('publish_at', '<=', now).where((eb) => eb.or([eb('expire_at', 'is', null), eb('expire_at', '>', now)]));
        break;
      case 'expired':
        query = query.where('publish_at', 'is not', null).where('expire_at', '<=', now);
        break;
      default:
        break;
    }
    const { count } = await query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(options.perPage)
      .offset((options.page - 1) * options.perPage)
      .execute();
    const data = await this.adminViews(rows as Row[], now);
    return { data, total: Number(count) };
  }

  private columns(input: Partial<AnnouncementInput>) {
    const out: Partial<Omit<Insertable<AnnouncementsTable>, 'id'>> = {};
    if (input.title !== undefined) out.title = input.title;
    if (input.summary !== undefined) out.summary = input.summary;
    if (input.body !== undefined) out.body = input.body;
    if (input.tags !== undefined) out.tags = stored([...new Set(input.tags)]);
    if (input.severity !== undefined) out.severity = input.severity;
    if (input.pinned !== undefined) out.pinned = input.pinned ? 1 : 0;
    if (input.mail !== undefined) out.mail = input.mail ? 1 : 0;
    if (input.role_ids !== undefined) out.audience = stored([...new Set(input.role_ids)].sort((a, b) => a - b));
    if (input.publish_at !== undefined) out.publish_at = input.publish_at;
    if (input.expire_at !== undefined) out.expire_at = input.expire_at;
    return out;
  }

  /** A draft (publish_at null) may not carry expire_at, and an expiry must come after publishing. */
  private checkSchedule(publishAt: string | null, expireAt: string | null): void {
    if (publishAt === null && expireAt !== null) throw this.ctx.httpError(400, 'VALIDATION_ERROR', 'A draft has no expiry: set publish_at first.', 'expire_at');
    if (publishAt !== null && expireAt !== null && expireAt <= publishAt) throw this.ctx.httpError(400, 'VALIDATION_ERROR', 'expire_at must come after publish_at.', 'expire_at');
  }

  async create(input: AnnouncementInput, authorId: number): Promise<AdminAnnouncement> {
    this.checkSchedule(input.publish_at, input.expire_at);
    const now = this.now();
    const values = { ...this.columns(input), author_id: authorId, created_at: now, updated_at: now } as Omit<Insertable<AnnouncementsTable>, 'id'>;
    const id = await insertedId(this.ctx.dialect, this.db.insertInto('announcements').values(values));
    return this.get(id);
  }

  async update(id: number, changes: Partial<AnnouncementInput>): Promise<AdminAnnouncement> {
    const before = await this.row(id);
    this.checkSchedule(changes.publish_at !== undefined ? changes.publish_at : before.publish_at, changes.expire_at !== undefined ? changes.expire_at : before.expire_at);
    await this.db
      .updateTable('announcements')
      .set({ ...this.columns(changes), updated_at: this.now() })
      .where('id', '=', id)
      .execute();
    return this.get(id);
  }

  /** Deletes the announcement (its rows go with it) and then its files; answers what it was. */
  async delete(id: number): Promise<AdminAnnouncement> {
    const gone = await this.get(id);
    await this.db.deleteFrom('announcements').where('id', '=', id).execute();
    for (const image of gone.images) {
      try {
        await this.ctx.files.delete(image.key);
      } catch (error) {
        this.ctx.log.error({ err: error, announcementId: id }, 'a deleted announcement’s image could not be removed');
      }
    }
    return gone;
  }

  async addImage(id: number, file: StoredFile): Promise<AnnouncementImage> {
    await this.row(id);
    await this.db
      .insertInto('announcement_images')
      .values({ announcement_id: id, file_key: file.key, name: file.name, type: file.type, size: file.size, created_at: this.now() })
      .execute();
    return { key: file.key, name: file.name, url: imageUrl(file.key), size: file.size };
  }

  async removeImage(id: number, key: string): Promise<void> {
    const result = await this.db.deleteFrom('announcement_images').where('announcement_id', '=', id).where('file_key', '=', key).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw this.ctx.httpError(404, 'IMAGE_NOT_FOUND', 'No such image.');
    await this.ctx.files.delete(key);
  }

  // ---- the readers' side ----------------------------------------------------------------------

  private readable(role: number, now: string) {
    return this.db.selectFrom('announcements').where((eb) => readableBy(eb, role, now));
  }

  private async readIds(userId: number, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('announcement_reads')
      .select('announcement_id')
      .where('user_id', '=', userId)
      .where('announcement_id', 'in', [...ids])
      .where('read_at', 'is not', null)
      .execute();
    return new Set(rows.map((r) => Number(r.announcement_id)));
  }

  private card(row: Row, images: AnnouncementImage[], read: boolean): AnnouncementCard {
    return {
      id: Number(row.id),
      title: row.title,
      summary: row.summary,
      tags: list(row.tags),
      severity: row.severity,
      pinned: Number(row.pinned) === 1,
      publish_at: row.publish_at!,
      image: images[0]?.url ?? null,
      read,
    };
  }

  /** The published ones for this reader: pinned first, then newest first; `tag` narrows them. */
  async published(user: { id: number; role: number }, options: { page: number; perPage: number; tag: string | null }) {
    const now = this.now();
    let query = this.readable(user.role, now);
    if (options.tag) query = query.where('tags', 'like', `%,${options.tag},%`);
    const { count } = await query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
    const rows = (await query
      .selectAll()
      .orderBy('pinned', 'desc')
      .orderBy('publish_at', 'desc')
      .orderBy('id', 'desc')
      .limit(options.perPage)
      .offset((options.page - 1) * options.perPage)
      .execute()) as Row[];
    const ids = rows.map((r) => Number(r.id));
    const [images, read] = await Promise.all([this.imagesOf(ids), this.readIds(user.id, ids)]);
    return { data: rows.map((row) => this.card(row, images.get(Number(row.id)) ?? [], read.has(Number(row.id)))), total: Number(count) };
  }

  /** One the reader may read, or 404 (a draft, a future, an expired or another audience's one alike). */
  async readableOne(user: { id: number; role: number }, id: number): Promise<AnnouncementDetail> {
    const now = this.now();
    const row = (await this.readable(user.role, now).selectAll().where('id', '=', id).executeTakeFirst()) as Row | undefined;
    if (!row) this.notFound();
    const images = (await this.imagesOf([id])).get(id) ?? [];
    const read = (await this.readIds(user.id, [id])).has(id);
    return { ...this.card(row, images, read), body_html: renderMarkdown(row.body), images, expire_at: row.expire_at };
  }

  /** Marks one as read (or its banner dismissed) for this reader; a second time changes nothing. */
  async mark(user: { id: number; role: number }, id: number, what: 'read' | 'dismissed'): Promise<void> {
    await this.readableOne(user, id);
    const column = what === 'read' ? 'read_at' : 'dismissed_at';
    const now = this.now();
    const updated = await this.db
      .updateTable('announcement_reads')
      .set({ [column]: now })
      .where('announcement_id', '=', id)
      .where('user_id', '=', user.id)
      .where(column, 'is', null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return;
    const exists = await this.db.selectFrom('announcement_reads').select('id').where('announcement_id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
    if (exists) return;
    try {
      await this.db
        .insertInto('announcement_reads')
        .values({ announcement_id: id, user_id: user.id, read_at: what === 'read' ? now : null, dismissed_at: what === 'dismissed' ? now : null })
        .execute();
    } catch {
      // a second request inserted the row first (unique key): set the column on it instead
      await this.db
        .updateTable('announcement_reads')
        .set({ [column]: now })
        .where('announcement_id', '=', id)
        .where('user_id', '=', user.id)
        .where(column, 'is', null)
        .execute();
    }
  }

  /** The sidebar count: readable ones this reader has not opened. */
  async unreadCount(user: { id: number; role: number }): Promise<number> {
    const { count } = await this.readable(user.role, this.now())
      .where((eb) => notMarked(eb, user.id, 'read_at'))
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** The banners: readable, pinned, warning or danger, and not dismissed by this reader. */
  async banners(user: { id: number; role: number }) {
    const rows = (await this.readable(user.role, this.now())
      .where('pinned', '=', 1)
      .where('severity', 'in', ['warning', 'danger'])
      .where((eb) => notMarked(eb, user.id, 'dismissed_at'))
      .selectAll()
      .orderBy('publish_at', 'desc')
      .orderBy('id', 'desc')
      .limit(5)
      .execute()) as Row[];
    return rows.map((row) => ({ id: Number(row.id), title: row.title, summary: row.summary, severity: row.severity }));
  }

  /**
   * The key of an image `user` may see: one of an announcement they may read, or any, for those
   * who manage announcements (the editor's preview shows drafts' images). 404 otherwise.
   */
  async imageFor(user: { id: number; role: number; permissions: readonly string[] }, key: string): Promise<string> {
    const row = await this.db.selectFrom('announcement_images').select(['announcement_id', 'file_key']).where('file_key', '=', key).executeTakeFirst();
    if (!row) throw this.ctx.httpError(404, 'IMAGE_NOT_FOUND', 'No such image.');
    const manages = hasPermission(user.permissions, 'admin.announcements.list') || hasPermission(user.permissions, 'admin.announcements.edit');
    if (!manages) {
      const readable = await this.readable(user.role, this.now()).select('id').where('id', '=', Number(row.announcement_id)).executeTakeFirst();
      if (!readable) throw this.ctx.httpError(404, 'IMAGE_NOT_FOUND', 'No such image.');
    }
    return row.file_key;
  }
}
