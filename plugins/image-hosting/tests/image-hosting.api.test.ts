// Image hosting on every dialect: a customer's key uploads as ShareX does (a multipart form with the
// key header, no session), a wrong or replaced key is refused; the quota, the per-minute limit and
// coins per upload (charged in the transaction that records the image; a refused charge stores
// nothing and writes no ledger row) hold; the flag switches every customer and public route off;
// another customer's image is as missing as none; the viewer serves the bytes with nosniff, or an
// Open Graph page with the owner's texts escaped; anyone may report an image and an administrator
// resolves (the image goes) or dismisses it, audit-logged.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CoreDatabase } from '@orepanel/sdk/server';
import { roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { multipartForm, type FormFile } from '../../../tests/api/multipart-form';
import { escapeHtml } from '../server/viewer';
import type { ImageHostingTables } from '../server/tables';

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** a 1×1 PNG, with `pad` bytes of a private chunk to make it bigger */
function png(pad = 0): Buffer {
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])),
    ...(pad > 0 ? [pngChunk('prVt', Buffer.alloc(pad, 7))] : []),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
const shot = (pad = 0): FormFile => ({ name: 'Screenshot_2026.png', bytes: png(pad), claim: 'image/png' });

interface Image {
  id: number;
  name: string;
  size: number;
  url: string;
}

describe.each(testDialects())('image hosting on %s', (dialect) => {
  let panel: TestPanel;
  let ada: SignedInUser;
  let bob: SignedInUser;
  let moderator: SignedInUser;

  const db = () => panel.services.database.db as unknown as Kysely<CoreDatabase & ImageHostingTables>;
  const call = (who: SignedInUser | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    panel.app.inject({ method, url, payload, headers: who ? { cookie: who.cookie } : {} });
  /** what ShareX sends: the file as multipart field "file", the key in X-Upload-Key, no cookie, no Origin */
  const shareX = async (key: string | null, file: FormFile = shot()) => {
    const form = await multipartForm([file], {}, 'file');
    return panel.app.inject({
      method: 'POST',
      url: '/api/user/images/upload',
      payload: form.payload,
      headers: { ...form.headers, ...(key === null ? {} : { 'x-upload-key': key }) },
    });
  };
  const fromPage = async (who: SignedInUser, file: FormFile = shot()) => {
    const form = await multipartForm([file], {}, 'file');
    return panel.app.inject({ method: 'POST', url: '/api/user/images', payload: form.payload, headers: { ...form.headers, cookie: who.cookie } });
  };
  const keyOf = async (who: SignedInUser) => (await call(who, 'GET', '/api/user/images/key')).json().key as string;
  const imagesOf = async (who: SignedInUser) =>
    (await call(who, 'GET', '/api/user/images?page=1&per_page=50')).json() as { data: Image[]; usage: { used_bytes: number; quota_bytes: number } };
  const imageRows = async (userId: number) => (await db().selectFrom('image_hosting_images').select('id').where('user_id', '=', userId).execute()).length;
  const storedFiles = (): number => {
    try {
      return readdirSync(join(panel.database.dataDir, 'files'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length / 2;
    } catch {
      return 0;
    }
  };
  const setting = (key: string, value: string | number | boolean) => panel.services.settings.set(key, value);
  const ledgerRows = async (userId: number) =>
    (await db().selectFrom('wallet_ledger').select('id').where('user_id', '=', userId).where('kind', '=', 'image_hosting.upload').execute()).length;

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    ada = await userWithRole(panel, 1);
    bob = await userWithRole(panel, 1);
    moderator = await userWithRole(panel, await roleWith(panel, ['admin.image.reports.list', 'admin.image.reports.edit']));
  });
  afterAll(async () => {
    await panel?.close();
  });
  beforeEach(async () => {
    await setting('image_hosting_enabled', true);
    await setting('image_hosting_types', 'png,jpeg,gif,webp');
    await setting('image_hosting_max_mb', 10);
    await setting('image_hosting_quota_mb', 250);
    await setting('image_hosting_coins_per_upload', 0);
    await setting('rate_limit_image_hosting_uploads_per_minute', 1000);
  });

  it('uploads with the key as ShareX does, shows it on the list, and serves the bytes with nosniff', async () => {
    const key = await keyOf(ada);
    expect(key).toMatch(/^ohk_[A-Za-z0-9_-]{32}$/);
    // the key is stored hashed and sealed, never in plain text
    const row = await db().selectFrom('image_hosting_accounts').selectAll().where('user_id', '=', ada.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key);
    const res = await shareX(key);
    expect(res.statusCode, res.body).toBe(201);
    const { url, image } = res.json() as { url: string; image: Image };
    expect(url).toMatch(new RegExp(`/api/i/${image.name}$`));
    expect(image.name).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const list = await imagesOf(ada);
    expect(list.data.map((i) => i.name)).toContain(image.name);
    expect(list.usage.used_bytes).toBeGreaterThanOrEqual(image.size);
    const view = await panel.app.inject({ method: 'GET', url: `/api/i/${image.name}` });
    expect(view.statusCode).toBe(200);
    expect(view.headers['content-type']).toBe('image/png');
    expect(view.headers['x-content-type-options']).toBe('nosniff');
    expect(view.headers['cache-control']).toContain('public');
    expect(view.rawPayload.subarray(0, 8)).toEqual(png().subarray(0, 8));
  });

  it('the .sxcu file points at the upload endpoint with the key header and reads the link from the answer', async () => {
    const res = await call(ada, 'GET', '/api/user/images/sharex');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".+\.sxcu"$/);
    const sxcu = JSON.parse(res.body) as Record<string, unknown>;
    expect(sxcu).toMatchObject({
      DestinationType: 'ImageUploader',
      RequestMethod: 'POST',
      Body: 'MultipartFormData',
      FileFormName: 'file',
      URL: '{json:url}',
      Headers: { 'X-Upload-Key': await keyOf(ada) },
    });
    expect(String(sxcu.RequestURL)).toMatch(/\/api\/user\/images\/upload$/);
  });

  it('refuses a missing, wrong or replaced key with 401, storing nothing', async () => {
    const before = storedFiles();
    expect((await shareX(null)).statusCode).toBe(401);
    expect((await shareX(`ohk_${'A'.repeat(32)}`)).json().error.code).toBe('INVALID_UPLOAD_KEY');
    const old = await keyOf(bob);
    const rotated = await call(bob, 'POST', '/api/user/images/key/rotate');
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().key as string;
    expect(fresh).not.toBe(old);
    expect((await shareX(old)).statusCode).toBe(401);
    expect(storedFiles()).toBe(before);
    expect((await shareX(fresh)).statusCode).toBe(201);
    expect(await keyOf(bob)).toBe(fresh);
  });

  it('refuses an upload over the quota and keeps nothing', async () => {
    const carol = await userWithRole(panel, 1);
    await setting('image_hosting_quota_mb', 1);
    expect((await fromPage(carol, shot(600 * 1024))).statusCode).toBe(201);
    const files = storedFiles();
    const res = await fromPage(carol, shot(600 * 1024));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('QUOTA_EXCEEDED');
    expect(await imageRows(carol.id)).toBe(1);
    expect(storedFiles()).toBe(files);
    // deleting gives the bytes back
    const [first] = (await imagesOf(carol)).data;
    expect((await call(carol, 'DELETE', `/api/user/images/${first!.id}`)).statusCode).toBe(200);
    expect((await imagesOf(carol)).usage.used_bytes).toBe(0);
    expect((await fromPage(carol, shot(600 * 1024))).statusCode).toBe(201);
  });

  it('lets only one of two uploads at once take the last room in the quota', async () => {
    const gus = await userWithRole(panel, 1);
    await setting('image_hosting_quota_mb', 1);
    const answers = await Promise.all([fromPage(gus, shot(600 * 1024)), fromPage(gus, shot(600 * 1024))]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
    expect(await imageRows(gus.id)).toBe(1);
  });

  it('deletes an account’s hosted files with the account', async () => {
    const hal = await userWithRole(panel, 1);
    const root = await userWithRole(panel, 8);
    expect((await fromPage(hal)).statusCode).toBe(201);
    expect((await fromPage(hal)).statusCode).toBe(201);
    const before = storedFiles();
    expect((await call(root, 'DELETE', `/api/admin/users/${hal.uuid}`)).statusCode).toBe(200);
    expect(storedFiles()).toBe(before - 2);
    expect(await imageRows(hal.id)).toBe(0);
  });

  it('refuses a file larger than the setting or of a type not listed', async () => {
    const dave = await userWithRole(panel, 1);
    await setting('image_hosting_max_mb', 1);
    expect((await fromPage(dave, shot(1100 * 1024))).statusCode).toBe(413);
    await setting('image_hosting_types', 'jpeg');
    expect((await fromPage(dave)).statusCode).toBe(415);
    expect((await fromPage(dave, { name: 'page.png', bytes: Buffer.from('<html><script>alert(1)</script></html>'), claim: 'image/png' })).statusCode).toBe(415);
    expect(await imageRows(dave.id)).toBe(0);
  });

  it('charges coins in the upload’s transaction: too few coins refuse it with nothing stored and no ledger row', async () => {
    const erin = await userWithRole(panel, 1);
    await setting('image_hosting_coins_per_upload', 3);
    const files = storedFiles();
    const refused = await shareX(await keyOf(erin));
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.code).toBe('INSUFFICIENT_COINS');
    expect(await imageRows(erin.id)).toBe(0);
    expect(await ledgerRows(erin.id)).toBe(0);
    expect(storedFiles()).toBe(files);
    await panel.services.wallet.credit({ userId: erin.id, amount: 5, kind: 'test.seed', idempotencyKey: `ih-seed:${erin.id}` });
    expect((await fromPage(erin)).statusCode).toBe(201);
    expect(await panel.services.wallet.balance(erin.id)).toBe(2);
    expect(await ledgerRows(erin.id)).toBe(1);
    // a quota refusal undoes the charge too
    await setting('image_hosting_quota_mb', 1);
    await panel.services.wallet.credit({ userId: erin.id, amount: 10, kind: 'test.seed', idempotencyKey: `ih-seed2:${erin.id}` });
    const over = await fromPage(erin, shot(1040 * 1024));
    expect(over.json().error.code).toBe('QUOTA_EXCEEDED');
    expect(await panel.services.wallet.balance(erin.id)).toBe(12);
    expect(await ledgerRows(erin.id)).toBe(1);
  });

  it('limits uploads per account per minute', async () => {
    const fay = await userWithRole(panel, 1);
    await setting('rate_limit_image_hosting_uploads_per_minute', 2);
    expect((await fromPage(fay)).statusCode).toBe(201);
    expect((await shareX(await keyOf(fay))).statusCode).toBe(201);
    const third = await fromPage(fay);
    expect(third.statusCode).toBe(429);
    expect(await imageRows(fay.id)).toBe(2);
  });

  it('with the feature off every customer and public route refuses', async () => {
    const up = (await shareX(await keyOf(ada))).json() as { image: Image };
    await setting('image_hosting_enabled', false);
    const key = `ohk_${'B'.repeat(32)}`;
    const answers = [
      await call(ada, 'GET', '/api/user/images'),
      await fromPage(ada),
      await shareX(key),
      await call(ada, 'DELETE', `/api/user/images/${up.image.id}`),
      await call(ada, 'GET', '/api/user/images/key'),
      await call(ada, 'POST', '/api/user/images/key/rotate'),
      await call(ada, 'GET', '/api/user/images/embed'),
      await call(ada, 'PUT', '/api/user/images/embed', { enabled: true, title: 't', description: '', color: '#112233' }),
      await call(ada, 'GET', '/api/user/images/sharex'),
      await call(null, 'GET', `/api/i/${up.image.name}`),
      await call(null, 'POST', `/api/i/${up.image.name}/report`, { reason: 'spam' }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('FEATURE_DISABLED');
    }
    await setting('image_hosting_enabled', true);
    expect(await imageRows(ada.id)).toBeGreaterThan(0);
  });

  it('another customer’s image cannot be deleted (404) and stays', async () => {
    const { image } = (await fromPage(ada)).json() as { image: Image };
    const res = await call(bob, 'DELETE', `/api/user/images/${image.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('IMAGE_NOT_FOUND');
    expect((await panel.app.inject({ method: 'GET', url: `/api/i/${image.name}` })).statusCode).toBe(200);
    // deleting is never a GET
    expect((await call(ada, 'GET', `/api/user/images/${image.id}`)).statusCode).toBe(404);
    expect((await call(ada, 'DELETE', `/api/user/images/${image.id}`)).statusCode).toBe(200);
    expect((await panel.app.inject({ method: 'GET', url: `/api/i/${image.name}` })).statusCode).toBe(404);
  });

  it('with embeds on the viewer answers an Open Graph page with a hostile title escaped', async () => {
    const hostile = '"><script>alert(1)</script><meta x="';
    const saved = await call(ada, 'PUT', '/api/user/images/embed', { enabled: true, title: hostile, description: 'a & b <i>', color: '#FF0066' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ enabled: true, title: hostile, description: 'a & b <i>', color: '#ff0066' });
    const { image } = (await fromPage(ada)).json() as { image: Image };
    const page = await panel.app.inject({ method: 'GET', url: `/api/i/${image.name}`, headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain(`<meta property="og:title" content="${escapeHtml(hostile)}">`);
    expect(page.body).toContain('<meta property="og:description" content="a &amp; b &lt;i&gt;">');
    expect(page.body).toContain('<meta name="theme-color" content="#ff0066">');
    expect(page.body).toMatch(new RegExp(`<meta property="og:image" content="[^"]*/api/i/${image.name}\\?raw=true">`));
    expect(page.body).toContain(`href="/images/report/${image.name}"`);
    expect(page.body).toContain('Dieses Bild melden');
    // the image itself is still there for the card
    const raw = await panel.app.inject({ method: 'GET', url: `/api/i/${image.name}?raw=true` });
    expect(raw.headers['content-type']).toBe('image/png');
    await call(ada, 'PUT', '/api/user/images/embed', { enabled: false, title: '', description: '', color: '#5865f2' });
    expect((await panel.app.inject({ method: 'GET', url: `/api/i/${image.name}` })).headers['content-type']).toBe('image/png');
  });

  it('takes a report without login and lets a moderator resolve (the image goes) or dismiss it, audited', async () => {
    const first = ((await fromPage(bob)).json() as { image: Image }).image;
    const second = ((await fromPage(bob)).json() as { image: Image }).image;
    expect((await call(null, 'POST', `/api/i/${first.name}/report`, { reason: 'nope' })).statusCode).toBe(400);
    expect((await call(null, 'POST', `/api/i/${'x'.repeat(16)}/report`, { reason: 'spam' })).statusCode).toBe(404);
    expect((await call(null, 'POST', `/api/i/${first.name}/report`, { reason: 'violence', details: 'gore' })).statusCode).toBe(201);
    expect((await call(null, 'POST', `/api/i/${second.name}/report`, { reason: 'spam' })).statusCode).toBe(201);
    // a customer may not see the queue
    expect((await call(bob, 'GET', '/api/admin/image-reports')).statusCode).toBe(403);
    // the sidebar counts the pending reports for an administrator, never for a customer
    const root = await userWithRole(panel, 8);
    const pendingBadge = async (who: SignedInUser) => ((await call(who, 'GET', '/api/user/nav-badges')).json().badges as Record<string, number>)['image-hosting.pending'];
    const pendingBefore = await pendingBadge(root);
    expect(pendingBefore).toBeGreaterThanOrEqual(2);
    expect(await pendingBadge(bob)).toBeUndefined();
    const queue = (await call(moderator, 'GET', '/api/admin/image-reports?status=pending')).json() as { data: { id: number; image_name: string; owner: string }[] };
    const reportOf = (name: string) => queue.data.find((r) => r.image_name === name)!;
    expect(reportOf(first.name).owner).toBe(bob.username);
    expect((await call(moderator, 'POST', `/api/admin/image-reports/${reportOf(first.name).id}/resolve`)).statusCode).toBe(200);
    expect((await panel.app.inject({ method: 'GET', url: `/api/i/${first.name}` })).statusCode).toBe(404);
    expect((await call(moderator, 'POST', `/api/admin/image-reports/${reportOf(first.name).id}/dismiss`)).statusCode).toBe(409);
    expect((await call(moderator, 'POST', `/api/admin/image-reports/${reportOf(second.name).id}/dismiss`)).statusCode).toBe(200);
    expect(await pendingBadge(root)).toBe((pendingBefore ?? 0) - 2);
    expect((await panel.app.inject({ method: 'GET', url: `/api/i/${second.name}` })).statusCode).toBe(200);
    const resolved = (await call(moderator, 'GET', '/api/admin/image-reports?status=resolved')).json() as { data: { image_name: string; image_present: boolean }[] };
    expect(resolved.data.find((r) => r.image_name === first.name)?.image_present).toBe(false);
    const audit = await db().selectFrom('audit_log').select('action').where('action', 'like', 'image_hosting.report_%').execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['image_hosting.report_dismissed', 'image_hosting.report_resolved']);
  });
});
