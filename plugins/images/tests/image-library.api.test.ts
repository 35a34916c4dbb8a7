// The image library on every dialect: uploads typed by their bytes (png, jpeg, gif, webp; SVG, PDF
// and text refused), no larger than the setting, names unique whatever their case; a picture the
// server catalog uses is not deleted (409 IMAGE_IN_USE naming the rows) until nothing uses it; the
// public route serves library pictures only, with the year-long cache; permissions per route.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Generated, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { multipartForm, type FormFile } from '../../../tests/api/multipart-form';
import type { ImageTables } from '../server/tables';

const ADMIN = '/api/admin/images';

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** a PNG that says it is 3×2 */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  pngChunk('IHDR', Buffer.from([0, 0, 0, 3, 0, 0, 0, 2, 8, 2, 0, 0, 0])),
  pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0]))),
  pngChunk('IEND', Buffer.alloc(0)),
]);
/** a GIF of 5×4 */
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([5, 0, 4, 0, 0, 0, 0]), Buffer.from([0x2c, 0, 0, 0, 0, 5, 0, 4, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b])]);
/** a baseline JPEG frame header of 7×6 */
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8]),
  Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x06, 0x00, 0x07, 0x01, 0x01, 0x11, 0x00]),
  Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0x12, 0x34]),
  Buffer.from([0xff, 0xd9]),
]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="4" height="4"/></svg>');

/** the server catalog's rows as this test writes them (its tables are its own: no import of its internals) */
interface CatalogRow {
  id: Generated<number>;
  name: string;
  description: string | null;
  vip_only: number;
  enabled: number;
  image: string | null;
  created_at: string;
  updated_at: string;
}
type CatalogTables = {
  catalog_locations: CatalogRow & { panel_location_id: number; slots: number; status: string };
  catalog_egg_categories: CatalogRow & { panel_nest_id: number };
  catalog_eggs: CatalogRow & { category_id: number; panel_nest_id: number; panel_egg_id: number };
};

interface Image {
  id: number;
  name: string;
  url: string;
  type: string;
  size: number;
  width: number | null;
  height: number | null;
  created_by: number | null;
}

describe.each(testDialects())('the image library on %s', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;
  let plain: SignedInUser;
  let counter = 0;

  const db = () => panel.services.database.db as unknown as Kysely<CatalogTables & ImageTables>;
  const call = (who: SignedInUser | null, method: 'GET' | 'DELETE' | 'POST', url: string, payload?: Record<string, unknown>) =>
    panel.app.inject({ method, url, payload, headers: who ? { cookie: who.cookie } : {} });
  const upload = async (who: SignedInUser | null, name: string, file?: FormFile) => {
    const form = await multipartForm(file ? [file] : [], { name });
    return panel.app.inject({ method: 'POST', url: ADMIN, payload: form.payload, headers: { ...form.headers, ...(who ? { cookie: who.cookie } : {}) } });
  };
  const uploaded = async (name: string, file: FormFile = { name: 'pic.png', bytes: PNG, claim: 'image/png' }): Promise<Image> => {
    const res = await upload(root, name, file);
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { image: Image }).image;
  };
  const rows = async () => db().selectFrom('image_library').select(['name', 'file_key']).execute();
  const now = () => new Date().toISOString();
  const catalogRow = (image: string | null) => ({ description: null, vip_only: 0, enabled: 1, image, created_at: now(), updated_at: now() });

  beforeAll(async () => {
    panel = await startPanel(dialect);
    root = await userWithRole(panel, 8);
    plain = await userWithRole(panel, 1);
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('keeps png, jpeg and gif pictures by their bytes, with their size, and lists them by name with a search', async () => {
    const png = await uploaded(`Map ${dialect}`, { name: 'whatever.txt', bytes: PNG, claim: 'text/plain' });
    expect(png).toMatchObject({ name: `Map ${dialect}`, type: 'image/png', width: 3, height: 2, created_by: root.id });
    expect(png.url).toMatch(/^\/api\/library-images\/[A-Za-z0-9_-]{22}\.png$/);
    expect(await uploaded('  Gif pic  ', { name: 'a.gif', bytes: GIF })).toMatchObject({ name: 'Gif pic', type: 'image/gif', width: 5, height: 4 });
    expect(await uploaded('Jpeg pic', { name: 'a.jpg', bytes: JPEG })).toMatchObject({ type: 'image/jpeg', width: 7, height: 6 });

    const list = (await call(root, 'GET', `${ADMIN}?search=PIC&per_page=1`)).json() as { data: Image[]; meta: { total: number } };
    expect(list.meta.total).toBe(2);
    expect(list.data.map((i) => i.name)).toEqual(['Gif pic']);
    expect((await call(root, 'GET', `${ADMIN}?search=${encodeURIComponent('%')}`)).json().meta.total).toBe(0);
  });

  it('refuses SVG, text, PDF and an empty form, keeping nothing', async () => {
    const before = await rows();
    for (const file of [
      { name: 'logo.svg', bytes: SVG, claim: 'image/svg+xml' },
      { name: 'notes.png', bytes: Buffer.from('just text'), claim: 'image/png' },
      { name: 'doc.png', bytes: Buffer.from('%PDF-1.4\n1 0 obj\n'), claim: 'image/png' },
    ]) {
      const res = await upload(root, `Refused ${++counter}`, file);
      expect(res.statusCode, file.name).toBe(415);
      expect(res.json().error.code).toBe('FILE_TYPE_REFUSED');
    }
    const none = await upload(root, 'No file');
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toMatchObject({ code: 'IMAGE_FILE_REQUIRED', field: 'file' });
    expect((await call(root, 'POST', ADMIN, { name: 'Json only' })).json().error.code).toBe('IMAGE_FILE_REQUIRED');
    const badName = await upload(root, '   ', { name: 'a.png', bytes: PNG });
    expect(badName.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'name' });
    expect(await rows()).toEqual(before);
  });

  it('refuses a picture larger than the setting images_max_mb', async () => {
    await panel.services.settings.set('images_max_mb', 1);
    try {
      const big = Buffer.concat([PNG.subarray(0, PNG.length - 12), pngChunk('tEXt', Buffer.alloc(1024 * 1024, 0x41)), PNG.subarray(PNG.length - 12)]);
      const res = await upload(root, 'Too big', { name: 'big.png', bytes: big });
      expect(res.statusCode).toBe(413);
      expect(res.json().error.code).toBe('FILE_TOO_LARGE');
      expect((await call(root, 'GET', `${ADMIN}/limits`)).json()).toEqual({ max_bytes: 1024 * 1024, types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] });
    } finally {
      await panel.services.settings.set('images_max_mb', 2);
    }
  });

  it('refuses a name another picture has, whatever its case (409), keeping neither row nor file', async () => {
    const first = await uploaded(`Spawn ${dialect}`);
    const before = await rows();
    const res = await upload(root, `SPAWN ${dialect.toUpperCase()}`, { name: 'b.png', bytes: PNG });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'IMAGE_NAME_TAKEN', field: 'name' });
    expect(await rows()).toEqual(before);
    expect((await call(null, 'GET', first.url)).statusCode).toBe(200);
  });

  it('lets one of two racing uploads of the same name win; the other is a 409 and leaves no file', async () => {
    const files = () => readdirSync(join(panel.database.dataDir, 'files'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
    const before = files();
    const answers = await Promise.all([upload(root, `Race ${dialect}`, { name: 'a.png', bytes: PNG }), upload(root, `race ${dialect}`, { name: 'b.png', bytes: PNG })]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    expect((await rows()).filter((row) => row.name.toLowerCase() === `race ${dialect}`)).toHaveLength(1);
    // one picture kept: its data and its description on disk
    expect(files() - before).toBe(2);
  });

  it('serves a library picture to anyone with the year-long cache, and nothing else of the file service', async () => {
    const image = await uploaded(`Public ${dialect}`);
    const res = await call(null, 'GET', image.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    // a file still in the store but no longer a library row (as a ticket attachment never is) is not served
    const orphan = await uploaded(`Orphan ${dialect}`);
    const key = orphan.url.slice('/api/library-images/'.length, -'.png'.length);
    await db().deleteFrom('image_library').where('id', '=', orphan.id).execute();
    const stored = readdirSync(join(panel.database.dataDir, 'files'), { recursive: true }).map(String);
    expect(stored.some((path) => path.includes(key))).toBe(true);
    expect((await call(null, 'GET', orphan.url)).statusCode).toBe(404);
    expect((await call(null, 'GET', '/api/library-images/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(400);
  });

  it('refuses to delete a picture a location, egg category or egg uses, naming them, and deletes it once unused', async () => {
    const image = await uploaded(`Used ${dialect}`);
    const absolute = `https://panel.example.com${image.url}?v=2`;
    await db()
      .insertInto('catalog_locations')
      .values({ ...catalogRow(image.url), name: 'Frankfurt', panel_location_id: 900_001, slots: 5, status: 'online' })
      .execute();
    await db()
      .insertInto('catalog_egg_categories')
      .values({ ...catalogRow(absolute), name: 'Minecraft', panel_nest_id: 900_002 })
      .execute();
    const category = await db().selectFrom('catalog_egg_categories').select('id').where('panel_nest_id', '=', 900_002).executeTakeFirstOrThrow();
    await db()
      .insertInto('catalog_eggs')
      .values({ ...catalogRow(image.url), name: 'Paper', category_id: category.id, panel_nest_id: 900_002, panel_egg_id: 900_003 })
      .execute();

    const shown = (await call(root, 'GET', `${ADMIN}/${image.id}`)).json();
    expect(shown.used_by.map((u: { kind: string; name: string }) => `${u.kind} ${u.name}`)).toEqual(['location Frankfurt', 'category Minecraft', 'egg Paper']);
    const refused = await call(root, 'DELETE', `${ADMIN}/${image.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('IMAGE_IN_USE');
    expect(refused.json().error.message).toContain('location Frankfurt, egg category Minecraft, egg Paper');
    expect((await call(null, 'GET', image.url)).statusCode).toBe(200);

    await db().updateTable('catalog_locations').set({ image: null }).where('panel_location_id', '=', 900_001).execute();
    await db().updateTable('catalog_egg_categories').set({ image: '/api/library-images/AAAAAAAAAAAAAAAAAAAAAA.png' }).where('id', '=', category.id).execute();
    await db().deleteFrom('catalog_eggs').where('panel_egg_id', '=', 900_003).execute();
    expect((await call(root, 'GET', `${ADMIN}/${image.id}`)).json().used_by).toEqual([]);
    expect((await call(root, 'DELETE', `${ADMIN}/${image.id}`)).json()).toEqual({ success: true });
    expect((await call(null, 'GET', image.url)).statusCode).toBe(404);
    expect((await call(root, 'DELETE', `${ADMIN}/${image.id}`)).statusCode).toBe(404);
    const audit = await panel.services.database.db.selectFrom('audit_log').select('action').where('action', 'like', 'admin.image.%').execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['admin.image.create', 'admin.image.delete']));
  });

  it('lets a delete through while the server catalog is off, and the catalog keeps working without the library', async () => {
    const image = await uploaded(`Catalog off ${dialect}`);
    await db()
      .insertInto('catalog_locations')
      .values({ ...catalogRow(image.url), name: 'Paris', panel_location_id: 900_010, slots: 5, status: 'online' })
      .execute();
    expect((await call(root, 'DELETE', `${ADMIN}/${image.id}`)).statusCode).toBe(409);
    await panel.services.plugins.setEnabled('images', false);
    try {
      expect((await call(root, 'GET', '/api/admin/locations?search=Paris')).statusCode).toBe(200);
      expect((await call(null, 'GET', image.url)).statusCode).toBe(404);
    } finally {
      await panel.services.plugins.setEnabled('images', true);
    }
    await panel.services.plugins.setEnabled('server-catalog', false);
    try {
      expect((await call(root, 'GET', `${ADMIN}/${image.id}`)).json().used_by).toEqual([]);
      expect((await call(root, 'DELETE', `${ADMIN}/${image.id}`)).json()).toEqual({ success: true });
    } finally {
      await panel.services.plugins.setEnabled('server-catalog', true);
    }
  });

  it('asks each route its own permission', async () => {
    const image = await uploaded(`Perm ${dialect}`);
    const lister = await userWithRole(panel, 1);
    await panel.services.database.db
      .updateTable('users')
      .set({ role_id: await roleWith(panel, ['admin.images.list']) })
      .where('id', '=', lister.id)
      .execute();
    expect((await call(null, 'GET', ADMIN)).statusCode).toBe(401);
    expect((await call(plain, 'GET', ADMIN)).statusCode).toBe(403);
    expect((await call(lister, 'GET', ADMIN)).statusCode).toBe(200);
    expect((await call(lister, 'GET', `${ADMIN}/${image.id}`)).statusCode).toBe(200);
    expect((await upload(lister, 'Nope', { name: 'a.png', bytes: PNG })).statusCode).toBe(403);
    expect((await call(lister, 'DELETE', `${ADMIN}/${image.id}`)).statusCode).toBe(403);
    expect((await call(plain, 'GET', image.url)).statusCode).toBe(200);
  });
});
