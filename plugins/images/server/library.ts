// The library's rows: list (paged, by name search), one, add (a name taken whatever its case is a
// 409, decided by the unique key so racing uploads cannot both win), remove.
import { insertUnlessTaken, likeLiteral, type DatabaseDialect } from '@orepanel/sdk/server';
import { sql, type Selectable } from 'kysely';
import { publicImagePath, type LibraryImage } from '../shared/image-rules';
import type { ImageDb, ImageLibraryTable } from './tables';

export type { LibraryImage } from '../shared/image-rules';

export interface NewLibraryImage {
  name: string;
  fileKey: string;
  type: string;
  size: number;
  width: number | null;
  height: number | null;
  createdBy: number | null;
  createdAt: string;
}

type Row = Selectable<ImageLibraryTable>;

function view(row: Row): LibraryImage {
  return {
    id: Number(row.id),
    name: row.name,
    url: publicImagePath(row.file_key, row.type),
    type: row.type,
    size: Number(row.size),
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    created_by: row.created_by === null ? null : Number(row.created_by),
    created_at: row.created_at,
  };
}

export class ImageLibrary {
  constructor(
    private readonly db: ImageDb,
    private readonly dialect: DatabaseDialect,
  ) {}

  async page(page: number, perPage: number, search: string): Promise<{ images: LibraryImage[]; total: number }> {
    let query = this.db.selectFrom('image_library');
    const term = search.trim().toLowerCase();
    if (term !== '') query = query.where(sql<boolean>`name_key like ${`%${likeLiteral(term)}%`} escape '!'`);
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy('name_key')
        .orderBy('id')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { images: rows.map(view), total: Number(count.n) };
  }

  /** the row with its file key (which only the server needs) */
  async find(id: number): Promise<{ image: LibraryImage; fileKey: string } | null> {
    const row = await this.db.selectFrom('image_library').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? { image: view(row), fileKey: row.file_key } : null;
  }

  /** the type of the library picture stored under fileKey; null: no library picture has it */
  async typeOf(fileKey: string): Promise<string | null> {
    const row = await this.db.selectFrom('image_library').select('type').where('file_key', '=', fileKey).executeTakeFirst();
    return row?.type ?? null;
  }

  /** null: the name is taken (nothing written) */
  async add(input: NewLibraryImage): Promise<LibraryImage | null> {
    await insertUnlessTaken(
      this.dialect,
      this.db.insertInto('image_library').values({
        name: input.name,
        name_key: input.name.toLowerCase(),
        file_key: input.fileKey,
        type: input.type,
        size: input.size,
        width: input.width,
        height: input.height,
        created_by: input.createdBy,
        created_at: input.createdAt,
      }),
    ).execute();
    const row = await this.db.selectFrom('image_library').selectAll().where('file_key', '=', input.fileKey).executeTakeFirst();
    return row ? view(row) : null;
  }

  async remove(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('image_library').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
