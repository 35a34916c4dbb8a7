// Ticket attachments on every dialect and both file stores: a customer attaches files when opening a
// ticket and replying, staff to replies and notes; a file is served only through its ticket (owner,
// staff in scope; never a note's file to the customer; anyone else 404); the type is decided by the
// bytes and must match the name; size, count and types are settings read at each request; a refused
// request (the file service's limits, the ticket's own rules after the upload) leaves nothing stored;
// image metadata is removed; a deleted account's files go with it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreDatabase } from '@orepanel/sdk/server';
import { roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { multipartForm, type FormFile } from '../../../tests/api/multipart-form';
import { startTestS3, type TestS3 } from '../../../tests/api/s3-server';
import { attachmentLimits } from '../server/attachments';
import type { TicketTables } from '../server/tables';

const MINE = '/api/user/tickets';
const STAFF = '/api/admin/tickets';
const GPS = 'GPSLatitude 44.4268N';

/** A JPEG whose APP1 (EXIF) segment holds a GPS position, then a scan. */
function jpegWithExif(): Buffer {
  const exif = Buffer.from(`Exif\0\0MM\0*${GPS}`, 'latin1');
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1]), Buffer.from([(exif.length + 2) >> 8, (exif.length + 2) & 0xff]), exif]);
  const sos = Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0x12, 0x34]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app1, sos, Buffer.from([0xff, 0xd9])]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** a 1×1 PNG */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  pngChunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])),
  pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
  pngChunk('IEND', Buffer.alloc(0)),
]);
const png = (name = 'screenshot.png'): FormFile => ({ name, bytes: PNG, claim: 'image/png' });
const log = (name = 'latest.log', text = '[12:00:01] [Server thread/ERROR]: Crash\n'): FormFile => ({ name, bytes: Buffer.from(text) });

interface Attachment {
  key: string;
  name: string;
  type: string;
  size: number;
}
interface MessageWithFiles {
  body: string;
  internal: boolean;
  attachments: Attachment[];
}

const cases = testDialects().flatMap((dialect) => (['disk', 's3'] as const).map((store) => [dialect, store] as const));

describe.each(cases)('ticket attachments on %s, %s store', (dialect, store) => {
  let panel: TestPanel;
  let s3: TestS3 | null = null;
  let root: SignedInUser;
  let general: number;
  let billing: number;
  const prefix = `tickets-${dialect}/`;

  const db = () => panel.services.database.db as unknown as Kysely<CoreDatabase & TicketTables>;
  const call = (who: SignedInUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });
  /** a form post as the pages send it */
  const post = async (who: SignedInUser, url: string, fields: Record<string, string>, files: readonly FormFile[]) => {
    const form = await multipartForm(files, fields, 'files');
    return panel.app.inject({ method: 'POST', url, payload: form.payload, headers: { ...form.headers, cookie: who.cookie } });
  };
  /** how many files the store holds (on disk each file is its data and its description) */
  const storedCount = async (): Promise<number> => {
    if (s3) return (await s3.keys(prefix)).length;
    try {
      const entries = readdirSync(join(panel.database.dataDir, 'files'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
      return entries.length / 2;
    } catch {
      return 0;
    }
  };
  const setting = (key: string, value: string | number) => panel.services.settings.set(key, value);
  const defaults = async () => {
    await setting('tickets_attachment_types', 'png,jpeg,gif,webp,pdf,txt,log');
    await setting('tickets_attachment_max_mb', 5);
    await setting('tickets_attachment_max_files', 5);
  };
  const open = async (who: SignedInUser, files: readonly FormFile[], departmentId = general) => {
    const res = await post(who, MINE, { department_id: String(departmentId), subject: 'Server will not start', priority: 'high', message: 'See the screenshot.' }, files);
    if (res.statusCode !== 201) throw new Error(`open: ${res.statusCode} ${res.body}`);
    return (res.json() as { ticket: { id: number } }).ticket.id;
  };
  const messagesAs = async (who: SignedInUser, url: string): Promise<MessageWithFiles[]> => {
    const res = await call(who, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { messages: MessageWithFiles[] }).messages;
  };
  const rowsOf = async (userId: number) => ({
    tickets: (await db().selectFrom('tickets').select('id').where('user_id', '=', userId).execute()).length,
    messages: (await db().selectFrom('ticket_messages').select('id').where('user_id', '=', userId).execute()).length,
  });

  beforeAll(async () => {
    if (store === 's3') s3 = await startTestS3();
    panel = await startPanel(dialect, { jobs: false, env: s3 ? { ...s3.env, FILES_S3_PREFIX: prefix } : {} });
    root = await userWithRole(panel, 8);
    const department = async (name: string) => (await call(root, 'POST', '/api/admin/departments', { name })).json().department.id as number;
    general = await department('General');
    billing = await department('Billing');
  });
  afterAll(async () => {
    await panel?.close();
    await s3?.close();
  });

  it('opens a ticket with a screenshot and a log: both sides see them on the message, served privately with their stored type', async () => {
    const customer = await userWithRole(panel, 1);
    const id = await open(customer, [png(), log()]);
    const [first] = await messagesAs(customer, `${MINE}/${id}`);
    expect(first?.attachments).toEqual([
      { key: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), name: 'screenshot.png', type: 'image/png', size: PNG.length },
      { key: expect.any(String), name: 'latest.log', type: 'text/plain', size: log().bytes.length },
    ]);
    const [image, text] = first?.attachments ?? [];
    const served = await call(customer, 'GET', `${MINE}/${id}/attachments/${image?.key}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toMatch(/^inline; filename="screenshot.png"/);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const download = await call(customer, 'GET', `${MINE}/${id}/attachments/${text?.key}`);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="latest.log"/);
    expect(download.body).toBe(log().bytes.toString());

    // staff see the same files on the staff view and fetch them through the staff route
    const staffMessages = await messagesAs(root, `${STAFF}/${id}`);
    expect(staffMessages[0]?.attachments.map((a) => a.key)).toEqual([image?.key, text?.key]);
    expect((await call(root, 'GET', `${STAFF}/${id}/attachments/${image?.key}`)).statusCode).toBe(200);

    // a reply with a file; JSON still works for a reply without one
    expect((await post(customer, `${MINE}/${id}/replies`, { message: 'And the log again' }, [log('crash.txt')])).statusCode).toBe(200);
    expect((await call(customer, 'POST', `${MINE}/${id}/replies`, { message: 'No file this time' })).statusCode).toBe(200);
    const after = await messagesAs(customer, `${MINE}/${id}`);
    expect(after.map((m) => m.attachments.map((a) => a.name))).toEqual([['screenshot.png', 'latest.log'], ['crash.txt'], []]);
  });

  it("serves a file to nobody else: a stranger, another customer, staff outside the department (404), and never a note's file to the customer", async () => {
    const [owner, other] = [await userWithRole(panel, 1), await userWithRole(panel, 1)];
    const id = await open(owner, [png()], billing);
    const otherId = await open(other, [log()], general);
    const [first] = await messagesAs(owner, `${MINE}/${id}`);
    const key = first?.attachments[0]?.key ?? '';
    const url = `${MINE}/${id}/attachments/${key}`;

    expect((await panel.app.inject({ url })).statusCode).toBe(401);
    const byOther = await call(other, 'GET', url);
    expect(byOther.statusCode).toBe(404);
    expect(byOther.headers['content-type']).toMatch(/json/);
    // the other customer's own ticket does not open someone else's file either
    expect((await call(other, 'GET', `${MINE}/${otherId}/attachments/${key}`)).statusCode).toBe(404);
    expect((await call(other, 'GET', `${MINE}/${otherId}/attachments/AAAAAAAAAAAAAAAAAAAAAA`)).statusCode).toBe(404);

    // staff whose role sees only General do not see a Billing ticket's file
    const scopedRole = await roleWith(panel, ['admin.tickets.list', 'admin.tickets.view']);
    await call(root, 'PATCH', `/api/admin/departments/${general}`, { role_ids: [scopedRole] });
    try {
      const scoped = await userWithRole(panel, scopedRole);
      expect((await call(scoped, 'GET', `${STAFF}/${id}/attachments/${key}`)).statusCode).toBe(404);
      expect((await call(scoped, 'GET', `${STAFF}/${otherId}/attachments/${key}`)).statusCode).toBe(404);
      // a customer has no staff route
      expect((await call(owner, 'GET', `${STAFF}/${id}/attachments/${key}`)).statusCode).toBe(403);
    } finally {
      await call(root, 'PATCH', `/api/admin/departments/${general}`, { role_ids: [] });
    }

    // a note's file: staff see it, the customer neither sees nor fetches it
    expect((await post(root, `${STAFF}/${id}/notes`, { message: 'Internal: the customer runs a cracked jar' }, [log('evidence.txt')])).statusCode).toBe(200);
    expect((await post(root, `${STAFF}/${id}/replies`, { message: 'Fixed, see the log' }, [log('fix.log')])).statusCode).toBe(200);
    const staffView = await messagesAs(root, `${STAFF}/${id}`);
    const note = staffView.find((m) => m.internal);
    const noteKey = note?.attachments[0]?.key ?? '';
    expect(note?.attachments.map((a) => a.name)).toEqual(['evidence.txt']);
    expect((await call(root, 'GET', `${STAFF}/${id}/attachments/${noteKey}`)).statusCode).toBe(200);
    const customerView = await messagesAs(owner, `${MINE}/${id}`);
    expect(customerView.flatMap((m) => m.attachments.map((a) => a.name))).toEqual(['screenshot.png', 'fix.log']);
    expect((await call(owner, 'GET', `${MINE}/${id}/attachments/${noteKey}`)).statusCode).toBe(404);
  });

  it('refuses a file whose bytes are not what its name says (a .png holding PHP or HTML), keeping no ticket, message or file', async () => {
    const customer = await userWithRole(panel, 1);
    const before = await storedCount();
    const spoofs: FormFile[] = [
      { name: 'shell.png', bytes: Buffer.from('<?php system($_GET["c"]); ?>'), claim: 'image/png' },
      { name: 'page.png', bytes: Buffer.from('<html><script>alert(1)</script></html>'), claim: 'image/png' },
      { name: 'page.html', bytes: Buffer.from('<html><script>alert(1)</script></html>'), claim: 'text/html' },
      { name: 'photo.jpg', bytes: PNG, claim: 'image/jpeg' },
      { name: 'tool.exe', bytes: Buffer.from([0x4d, 0x5a, 0x90, 0x00]), claim: 'image/png' },
    ];
    for (const spoof of spoofs) {
      const res = await post(customer, MINE, { department_id: String(general), subject: 'Spoofed', message: 'Look' }, [png(), spoof]);
      expect(res.statusCode, spoof.name).toBe(415);
      expect(res.json().error.code).toBe('FILE_TYPE_REFUSED');
    }
    expect(await rowsOf(customer.id)).toEqual({ tickets: 0, messages: 0 });
    expect(await storedCount()).toBe(before);
  });

  it('refuses an oversize file (413) and too many files (400), keeping nothing, under limits the settings change at once', async () => {
    const customer = await userWithRole(panel, 1);
    const before = await storedCount();
    try {
      const big = log('big.log', 'x'.repeat(5 * 1024 * 1024 + 1));
      const over = await post(customer, MINE, { department_id: String(general), subject: 'Big file', message: 'Here' }, [png(), big]);
      expect(over.statusCode).toBe(413);
      expect(over.json().error.code).toBe('FILE_TOO_LARGE');
      const six = Array.from({ length: 6 }, (_, i) => log(`part${i}.log`));
      const many = await post(customer, MINE, { department_id: String(general), subject: 'Many files', message: 'Here' }, six);
      expect(many.statusCode).toBe(400);
      expect(many.json().error.code).toBe('TOO_MANY_FILES');
      expect(await rowsOf(customer.id)).toEqual({ tickets: 0, messages: 0 });
      expect(await storedCount()).toBe(before);

      // the settings move the limits, and the limits the pages read follow them
      await setting('tickets_attachment_max_mb', 1);
      await setting('tickets_attachment_max_files', 2);
      await setting('tickets_attachment_types', 'pdf, log');
      const limits = (await call(customer, 'GET', `${MINE}/attachments/limits`)).json();
      expect(limits).toEqual({ max_files: 2, max_bytes: 1024 * 1024, types: ['application/pdf', 'text/plain'], extensions: ['pdf', 'log'] });
      expect((await call(root, 'GET', `${STAFF}/attachments/limits`)).json()).toEqual(limits);
      const fields = { department_id: String(general), subject: 'Under new limits', message: 'Here' };
      expect((await post(customer, MINE, fields, [log('a.log', 'x'.repeat(1024 * 1024 + 1))])).statusCode).toBe(413);
      expect((await post(customer, MINE, fields, [log('a.log'), log('b.log'), log('c.log')])).statusCode).toBe(400);
      expect((await post(customer, MINE, fields, [png()])).json().error.code).toBe('FILE_TYPE_REFUSED');
      // txt is no longer listed: a text file named .txt is refused, one named .log taken
      expect((await post(customer, MINE, fields, [log('notes.txt')])).statusCode).toBe(415);
      expect(await storedCount()).toBe(before);
      expect((await post(customer, MINE, fields, [log('a.log'), log('b.log')])).statusCode).toBe(201);
      expect(await storedCount()).toBe(before + 2);

      // 0 files: attachments are off — a form is refused, JSON goes on working
      await setting('tickets_attachment_max_files', 0);
      expect((await call(customer, 'GET', `${MINE}/attachments/limits`)).json().max_files).toBe(0);
      const ticketId = (await db().selectFrom('tickets').select('id').where('user_id', '=', customer.id).executeTakeFirstOrThrow()).id;
      expect((await post(customer, `${MINE}/${ticketId}/replies`, { message: 'file' }, [log('c.log')])).statusCode).toBe(400);
      expect((await call(customer, 'POST', `${MINE}/${ticketId}/replies`, { message: 'no file' })).statusCode).toBe(200);
      expect(await storedCount()).toBe(before + 2);
    } finally {
      await defaults();
    }
  });

  it('deletes the files when the ticket rules refuse after the upload (open-ticket limit, a closed ticket, a bad field)', async () => {
    const customer = await userWithRole(panel, 1);
    await setting('tickets_max_open', 1);
    try {
      const id = await open(customer, [png()]);
      const before = await storedCount();
      const second = await post(customer, MINE, { department_id: String(general), subject: 'Second ticket', message: 'Again' }, [png(), log()]);
      expect(second.statusCode).toBe(409);
      expect(second.json().error.code).toBe('TOO_MANY_OPEN_TICKETS');
      const badField = await post(customer, MINE, { department_id: String(general), subject: 'Bad', message: 'x', priority: 'critical' }, [png()]);
      expect(badField.statusCode).toBe(400);
      const unknownField = await post(customer, `${MINE}/${id}/replies`, { message: 'x', zz: '1' }, [png()]);
      expect(unknownField.statusCode).toBe(400);

      expect((await call(customer, 'POST', `${MINE}/${id}/close`)).statusCode).toBe(200);
      const onClosed = await post(customer, `${MINE}/${id}/replies`, { message: 'Still broken' }, [png()]);
      expect(onClosed.statusCode).toBe(409);
      const staffOnClosed = await post(root, `${STAFF}/${id}/replies`, { message: 'Closed' }, [png()]);
      expect(staffOnClosed.statusCode).toBe(409);
      expect(await rowsOf(customer.id)).toEqual({ tickets: 1, messages: 1 });
      expect(await storedCount()).toBe(before);
    } finally {
      await setting('tickets_max_open', 3);
    }
  });

  it('removes EXIF (GPS) from a JPEG before keeping it', async () => {
    const customer = await userWithRole(panel, 1);
    const photo = jpegWithExif();
    expect(photo.includes(Buffer.from(GPS))).toBe(true);
    const id = await open(customer, [{ name: 'phone.jpg', bytes: photo, claim: 'image/jpeg' }]);
    const [first] = await messagesAs(customer, `${MINE}/${id}`);
    const file = first?.attachments[0];
    expect(file).toMatchObject({ name: 'phone.jpg', type: 'image/jpeg' });
    const served = await call(customer, 'GET', `${MINE}/${id}/attachments/${file?.key}`);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.includes(Buffer.from(GPS))).toBe(false);
    expect(served.rawPayload.length).toBe(file?.size);
    expect(served.rawPayload.subarray(0, 2).equals(Buffer.from([0xff, 0xd8]))).toBe(true);
  });

  it("deletes a deleted account's ticket files from the store", async () => {
    const customer = await userWithRole(panel, 1);
    const before = await storedCount();
    const id = await open(customer, [png(), log()]);
    await post(root, `${STAFF}/${id}/replies`, { message: 'Answer with a file' }, [log('answer.log')]);
    expect(await storedCount()).toBe(before + 3);
    expect((await call(root, 'DELETE', `/api/admin/users/${customer.uuid}`)).statusCode).toBe(200);
    expect(await db().selectFrom('ticket_attachments').select('id').where('ticket_id', '=', id).execute()).toEqual([]);
    expect(await storedCount()).toBe(before);
  });
});

describe('attachmentLimits', () => {
  it('reads the settings: known names only, jpeg and jpg as one, sizes bounded, no type means no attachments', () => {
    expect(attachmentLimits({ tickets_attachment_types: 'PNG, .jpg;exe svg txt', tickets_attachment_max_mb: 2, tickets_attachment_max_files: 3 })).toEqual({
      maxFiles: 3,
      maxBytes: 2 * 1024 * 1024,
      types: ['image/png', 'image/jpeg', 'text/plain'],
      extensions: ['png', 'jpeg', 'jpg', 'txt'],
    });
    expect(attachmentLimits({ tickets_attachment_types: 'exe', tickets_attachment_max_mb: 5, tickets_attachment_max_files: 5 }).maxFiles).toBe(0);
    expect(attachmentLimits({ tickets_attachment_types: 'png', tickets_attachment_max_mb: 1000, tickets_attachment_max_files: 99 })).toMatchObject({
      maxFiles: 20,
      maxBytes: 25 * 1024 * 1024,
    });
  });
});
