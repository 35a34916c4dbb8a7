// Announcements on every dialect: the public API never returns a draft, a future, an expired or
// another audience's announcement (list, detail, read, images, count, banners alike); scheduling
// follows ctx.clock; unread count and banners follow reading and dismissing; the admin list filters
// by status and search; images are images only and served only to those who may read them; bad
// schedules are refused; bodies come back as inert HTML.
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRolePermissions, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { multipartForm } from '../../../tests/api/multipart-form';
import { ManualClock } from '../../../tests/fixtures/manual-clock';

const ADMIN = '/api/admin/announcements';
const MINE = '/api/user/announcements';
const UNREAD = 'announcements.unread';
/** an admin-type role the audience names */
const STAFF_ROLE = 3;
const START = Date.parse('2030-05-01T10:00:00.000Z');

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  pngChunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])),
  pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
  pngChunk('IEND', Buffer.alloc(0)),
]);

describe.each(testDialects())('announcements on %s', (dialect) => {
  let panel: TestPanel;
  let clock: ManualClock;
  let root: SignedInUser;
  let customer: SignedInUser;
  let staff: SignedInUser;

  const at = (minutes: number) => new Date(clock.now() + minutes * 60_000).toISOString();
  const call = (who: SignedInUser | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    panel.app.inject({ method, url, payload, headers: who ? { cookie: who.cookie } : {} });
  async function create(fields: Record<string, unknown>): Promise<number> {
    const res = await call(root, 'POST', ADMIN, { title: 'News', body: 'Hello', severity: 'info', ...fields });
    if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
    return res.json().announcement.id;
  }
  const visibleIds = async (who: SignedInUser, query = '') => ((await call(who, 'GET', `${MINE}?per_page=100${query}`)).json().data as { id: number }[]).map((a) => a.id);
  const unread = async (who: SignedInUser): Promise<number | undefined> => (await call(who, 'GET', '/api/user/nav-badges')).json().badges[UNREAD];

  beforeAll(async () => {
    clock = new ManualClock(START);
    panel = await startPanel(dialect, { jobs: false, clock });
    root = await userWithRole(panel, 8);
    customer = await userWithRole(panel, 1);
    staff = await userWithRole(panel, STAFF_ROLE);
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('shows readers only what is published, unexpired and meant for their role; the schedule follows the clock', async () => {
    const draft = await create({ title: 'Draft' });
    const scheduled = await create({ title: 'Soon', publish_at: at(1) });
    const live = await create({ title: 'Live', publish_at: at(-5), tags: ['news'] });
    const forStaff = await create({ title: 'Staff only', publish_at: at(-5), role_ids: [STAFF_ROLE] });
    const expired = await create({ title: 'Old', publish_at: at(-60), expire_at: at(-1) });

    const seen = await visibleIds(customer);
    expect(seen).toContain(live);
    for (const hidden of [draft, scheduled, forStaff, expired]) {
      expect(seen).not.toContain(hidden);
      expect((await call(customer, 'GET', `${MINE}/${hidden}`)).statusCode).toBe(404);
      expect((await call(customer, 'POST', `${MINE}/${hidden}/read`)).statusCode).toBe(404);
    }
    expect(await visibleIds(staff)).toEqual(expect.arrayContaining([live, forStaff]));
    expect(await visibleIds(staff)).not.toContain(scheduled);
    // a minute later the scheduled one is live
    clock.advance(61_000);
    expect(await visibleIds(customer)).toContain(scheduled);
    // the tag filter
    expect(await visibleIds(customer, '&tag=news')).toEqual([live]);
    // statuses as the admin list computes them
    const status = async (s: string) => ((await call(root, 'GET', `${ADMIN}?per_page=100&status=${s}`)).json().data as { id: number }[]).map((a) => a.id);
    expect(await status('draft')).toContain(draft);
    expect(await status('live')).toEqual(expect.arrayContaining([live, scheduled, forStaff]));
    expect(await status('expired')).toEqual([expired]);
    const soon = await create({ title: 'Later', publish_at: at(30) });
    expect(await status('scheduled')).toEqual([soon]);
    const search = (await call(root, 'GET', `${ADMIN}?search=staff%20ONLY`)).json();
    expect(search.data.map((a: { id: number }) => a.id)).toEqual([forStaff]);
    expect(search.data[0]).toMatchObject({ role_ids: [STAFF_ROLE], status: 'live', author: root.username });
    // LIKE's wildcards are searched as themselves
    const sale = await create({ title: '50% off this week' });
    await create({ title: '500 offers' });
    expect((await call(root, 'GET', `${ADMIN}?search=50%25`)).json().data.map((a: { id: number }) => a.id)).toEqual([sale]);
    expect((await call(root, 'GET', `${ADMIN}?search=_`)).json().data).toEqual([]);
    // the list: pinned first, then newest first
    const pinned = await create({ title: 'Pinned old', publish_at: at(-500), pinned: true });
    expect((await visibleIds(customer))[0]).toBe(pinned);
  });

  it('counts unread ones on the sidebar until they are read; reading twice changes nothing', async () => {
    const reader = await userWithRole(panel, 1);
    const before = (await unread(reader)) ?? 0;
    const id = await create({ title: 'Count me', publish_at: at(0) });
    expect(await unread(reader)).toBe(before + 1);
    const list = (await call(reader, 'GET', `${MINE}?per_page=100`)).json().data as { id: number; read: boolean }[];
    expect(list.find((a) => a.id === id)?.read).toBe(false);
    expect((await call(reader, 'POST', `${MINE}/${id}/read`)).statusCode).toBe(200);
    expect((await call(reader, 'POST', `${MINE}/${id}/read`)).statusCode).toBe(200);
    expect(await unread(reader)).toBe(before);
    expect((await call(reader, 'GET', `${MINE}/${id}`)).json().announcement.read).toBe(true);
    // another reader still has it unread
    expect(await unread(customer)).toBeGreaterThan(0);
  });

  it('shows pinned warnings and dangers as banners until dismissed, per reader', async () => {
    const warning = await create({ title: 'Maintenance tonight', severity: 'warning', pinned: true, publish_at: at(0) });
    const info = await create({ title: 'Pinned info', severity: 'info', pinned: true, publish_at: at(0) });
    const unpinned = await create({ title: 'Danger not pinned', severity: 'danger', publish_at: at(0) });
    const hidden = await create({ title: 'Staff danger', severity: 'danger', pinned: true, publish_at: at(0), role_ids: [STAFF_ROLE] });
    const banners = async (who: SignedInUser) => ((await call(who, 'GET', `${MINE}/banners`)).json().data as { id: number }[]).map((b) => b.id);
    const seen = await banners(customer);
    expect(seen).toContain(warning);
    for (const id of [info, unpinned, hidden]) expect(seen).not.toContain(id);
    expect(await banners(staff)).toEqual(expect.arrayContaining([warning, hidden]));
    expect((await call(customer, 'POST', `${MINE}/${warning}/dismiss`)).statusCode).toBe(200);
    expect(await banners(customer)).not.toContain(warning);
    expect(await banners(staff)).toContain(warning);
    // another audience's banner cannot be dismissed (nor learned of)
    expect((await call(customer, 'POST', `${MINE}/${hidden}/dismiss`)).statusCode).toBe(404);
  });

  it('takes images only, and serves them only to those who may read the announcement', async () => {
    const id = await create({ title: 'With picture' });
    const form = await multipartForm([{ name: 'shot.png', bytes: PNG, claim: 'image/png' }], {}, 'files');
    const res = await panel.app.inject({ method: 'POST', url: `${ADMIN}/${id}/images`, payload: form.payload, headers: { ...form.headers, cookie: root.cookie } });
    expect(res.statusCode, res.body).toBe(201);
    const { key, url } = res.json().image as { key: string; url: string };
    expect(url).toBe(`${MINE}/images/${key}`);
    // a text file is refused, and so is an upload to no announcement
    const text = await multipartForm([{ name: 'notes.png', bytes: Buffer.from('hello'), claim: 'image/png' }], {}, 'files');
    expect((await panel.app.inject({ method: 'POST', url: `${ADMIN}/${id}/images`, payload: text.payload, headers: { ...text.headers, cookie: root.cookie } })).statusCode).toBe(
      415,
    );
    const again = await multipartForm([{ name: 'shot.png', bytes: PNG, claim: 'image/png' }], {}, 'files');
    expect((await panel.app.inject({ method: 'POST', url: `${ADMIN}/999999/images`, payload: again.payload, headers: { ...again.headers, cookie: root.cookie } })).statusCode).toBe(
      404,
    );

    // a draft's image: the editor sees it, a reader does not
    expect((await call(root, 'GET', url)).statusCode).toBe(200);
    expect((await call(customer, 'GET', url)).statusCode).toBe(404);
    expect((await call(null, 'GET', url)).statusCode).toBe(401);
    // staff who edit announcements see it too; the same role without that permission does not
    const editor = await userWithRole(panel, 4);
    await setRolePermissions(panel, 4, ['admin.announcements.edit']);
    expect((await call(editor, 'GET', url)).statusCode).toBe(200);
    await setRolePermissions(panel, 4, ['admin.tickets.list']);
    expect((await call(editor, 'GET', url)).statusCode).toBe(404);
    await call(root, 'PATCH', `${ADMIN}/${id}`, { publish_at: at(0), body: `Look: ![shot](${url})` });
    const shown = await call(customer, 'GET', url);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/png');
    const detail = (await call(customer, 'GET', `${MINE}/${id}`)).json().announcement;
    expect(detail.images.map((i: { key: string }) => i.key)).toEqual([key]);
    expect(detail.body_html).toContain(`<img src="${url}" alt="shot"`);
    // the card shows the first image
    expect(((await call(customer, 'GET', `${MINE}?per_page=100`)).json().data as { id: number; image: string | null }[]).find((a) => a.id === id)?.image).toBe(url);

    // for another audience only: 404 again
    await call(root, 'PATCH', `${ADMIN}/${id}`, { role_ids: [STAFF_ROLE] });
    expect((await call(customer, 'GET', url)).statusCode).toBe(404);
    // removing the image and deleting the announcement take the file
    expect((await call(root, 'DELETE', `${ADMIN}/${id}/images/${key}`)).statusCode).toBe(200);
    expect((await call(root, 'GET', url)).statusCode).toBe(404);
    expect((await call(root, 'DELETE', `${ADMIN}/${id}`)).statusCode).toBe(200);
    expect((await call(root, 'GET', `${ADMIN}/${id}`)).statusCode).toBe(404);
  });

  it('renders bodies inert: HTML escaped, script links and foreign images dropped', async () => {
    const id = await create({
      publish_at: at(0),
      body: '<script>alert(1)</script>\n\n[click](javascript:alert(1)) <img src=x onerror=alert(1)> ![x](https://tracker.example/p.gif) [site](https://example.com)',
    });
    const html = (await call(customer, 'GET', `${MINE}/${id}`)).json().announcement.body_html as string;
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a>');
    const preview = await call(root, 'POST', `${ADMIN}/preview`, { body: '**bold** <b onmouseover=x>' });
    expect(preview.json().html).toBe('<p><strong>bold</strong> &lt;b onmouseover=x&gt;</p>\n');
  });

  it('refuses bad schedules and empty titles, and writes the audit log', async () => {
    const bad = async (payload: Record<string, unknown>, field: string) => {
      const res = await call(root, 'POST', ADMIN, { title: 'X', body: 'b', severity: 'info', ...payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.field).toBe(field);
    };
    const count = async () => (await call(root, 'GET', `${ADMIN}?per_page=1`)).json().meta.total as number;
    const before = await count();
    await bad({ expire_at: at(10) }, 'expire_at');
    await bad({ publish_at: at(10), expire_at: at(5) }, 'expire_at');
    await bad({ title: '   ' }, 'title');
    await bad({ publish_at: '2030-13-45T99:99Z' }, 'publish_at');
    expect(await count()).toBe(before);
    const id = await create({ title: 'Audited' });
    const res = await call(root, 'PATCH', `${ADMIN}/${id}`, { expire_at: at(10) });
    expect(res.statusCode).toBe(400);
    const entries = await panel.services.database.db.selectFrom('audit_log').select('action').where('action', 'like', 'admin.announcement.%').execute();
    expect(entries.map((e) => e.action)).toContain('admin.announcement.create');
    expect((await call(customer, 'POST', ADMIN, { title: 'X', body: 'b', severity: 'info' })).statusCode).toBe(403);
  });
});
