// @vitest-environment jsdom
// Attachments on the ticket pages: the picker follows the limits the server publishes (refusing a
// file too large, of a kind not listed, or one too many, before anything is sent), a pasted
// screenshot is attached, chosen files can be removed, and the message goes as a form with its files
// (JSON without any); a conversation shows images as thumbnails opening full size and other files as
// download chips, each through that side's own route.
import { cleanup, renderPlugin, type HttpHandlers, type RenderedPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import en from '../locales/en.json';
import manifest from '../plugin.json';

afterEach(() => cleanup());

const limits = { body: { max_files: 2, max_bytes: 1024, types: ['image/png', 'text/plain'], extensions: ['png', 'log'] } };
const departments = { body: { data: [{ id: 1, name: 'Technical', description: '', hours: null, hours_note: '' }] } };
const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };

const file = (name: string, size: number, type = 'text/plain') => new File([new Uint8Array(size)], name, { type });

/** Picks files in the hidden file input, as the browser's chooser would. */
async function choose(app: RenderedPlugin, input: HTMLInputElement, files: File[]) {
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await app.waitFor(() => undefined);
}

const pickerInput = (app: RenderedPlugin, index = 0) => app.container.querySelectorAll<HTMLInputElement>('[data-testid="file-picker-input"]')[index] as HTMLInputElement;

const ticketView = (messages: unknown[]) => ({
  ticket: {
    id: 5,
    department_id: 1,
    subject: 'Server will not start',
    priority: 'high',
    status: 'open',
    unread: false,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-21T10:00:00.000Z',
    closed_at: null,
  },
  messages,
});

const withFiles = {
  id: 1,
  body: 'See the screenshot.',
  staff: false,
  internal: false,
  author: 'steve',
  created_at: '2026-11-20T10:00:00.000Z',
  attachments: [
    { key: 'AAAAAAAAAAAAAAAAAAAAAA', name: 'screenshot.png', type: 'image/png', size: 2048 },
    { key: 'BBBBBBBBBBBBBBBBBBBBBB', name: 'latest.log', type: 'text/plain', size: 3 * 1024 * 1024 },
  ],
};

describe('attaching files to a new ticket (/ticket/create)', () => {
  const open = (http: HttpHandlers) =>
    renderPlugin(plugin, {
      manifest,
      route: '/ticket/create',
      settings: { allow_tickets: true },
      catalogues: { en },
      http: { 'GET /api/user/tickets/departments': departments, 'GET /api/user/tickets/attachments/limits': limits, ...http },
    });

  it('refuses by the published limits, takes a pasted screenshot, removes a file, and sends a form with the files', async () => {
    const app = await open({ 'POST /api/user/tickets': { status: 201, body: { ticket: { id: 9 } } }, 'GET /api/user/tickets/9': { body: ticketView([]) } });
    await app.findByText(/Up to 2 files of 1 kB each \(png, log\)/);

    await choose(app, pickerInput(app), [file('notes.txt', 10), file('huge.log', 4096), file('latest.log', 10)]);
    await app.findByText('notes.txt is not an accepted kind of file (png, log).');
    expect(app.getByText('huge.log is larger than 1 kB.')).toBeTruthy();
    expect(app.getByText('latest.log')).toBeTruthy();

    // a screenshot pasted into the message box is attached under a name with the right ending
    const box = app.getByLabelText(en.customer.create.message);
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(paste, 'clipboardData', { value: { files: [new File([new Uint8Array(8)], 'image.png', { type: 'image/png' })] } });
    box.dispatchEvent(paste);
    await app.findByText(/^screenshot-\d{14}\.png$/);
    // previewed as a data: image (the panel's CSP allows data: images, not blob: ones)
    await app.waitFor(() => expect(app.container.querySelector('img[src^="data:image/png"]')).not.toBeNull());
    // the picker is full: a third file is refused
    await choose(app, pickerInput(app), [file('more.log', 5)]);
    await app.findByText('more.log was not added: at most 2 files.');
    await app.click(app.getByRole('button', 'Remove latest.log'));
    expect(app.queryByText('latest.log')).toBeNull();

    await app.type(app.getByLabelText(en.customer.create.subject), 'Server down');
    await app.type(box, 'Down since noon');
    await app.click(app.getByRole('button', en.customer.create.submit));
    await app.waitFor(() => expect(app.location().pathname).toBe('/ticket/9'));
    const sent = app.httpCalls.find((call) => call.method === 'POST' && call.path === '/api/user/tickets');
    expect(sent?.body).toBeInstanceOf(FormData);
    const form = sent?.body as FormData;
    expect(Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === 'string'))).toEqual({
      department_id: '1',
      subject: 'Server down',
      priority: 'medium',
      message: 'Down since noon',
    });
    expect(form.getAll('files').map((f) => (f as File).name)).toEqual([expect.stringMatching(/^screenshot-\d{14}\.png$/)]);
  });

  it("sends JSON when no file is attached, and shows the server's refusal of a file in the customer's words", async () => {
    let refuse = true;
    const app = await open({
      'POST /api/user/tickets': () => (refuse ? { status: 415, body: { error: { code: 'FILE_TYPE_REFUSED', message: 'no' } } } : { status: 201, body: { ticket: { id: 9 } } }),
      'GET /api/user/tickets/9': { body: ticketView([]) },
    });
    await app.findByText(/Up to 2 files/);
    await choose(app, pickerInput(app), [file('latest.log', 10)]);
    await app.type(app.getByLabelText(en.customer.create.subject), 'Server down');
    await app.type(app.getByLabelText(en.customer.create.message), 'Down');
    await app.click(app.getByRole('button', en.customer.create.submit));
    await app.findByText(en.customer.errors.FILE_TYPE_REFUSED);

    refuse = false;
    await app.click(app.getByRole('button', 'Remove latest.log'));
    await app.click(app.getByRole('button', en.customer.create.submit));
    await app.waitFor(() => expect(app.location().pathname).toBe('/ticket/9'));
    const last = app.httpCalls.filter((call) => call.method === 'POST' && call.path === '/api/user/tickets').at(-1);
    expect(last?.body).toEqual({ department_id: 1, subject: 'Server down', priority: 'medium', message: 'Down' });
  });

  it('shows no picker while the limits allow no file', async () => {
    const app = await open({ 'GET /api/user/tickets/attachments/limits': { body: { max_files: 0, max_bytes: 1024, types: [], extensions: [] } } });
    await app.waitFor(() => app.getByLabelText(en.customer.create.message));
    await app.waitFor(() => expect(app.httpCalls.some((call) => call.path === '/api/user/tickets/attachments/limits')).toBe(true));
    expect(app.queryByRole('button', 'Attach files')).toBeNull();
  });
});

describe('attachments in a conversation', () => {
  it('shows the customer images as thumbnails that open full size and other files as download chips, through the customer route', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/ticket/5',
      settings: { allow_tickets: true },
      catalogues: { en },
      http: {
        'GET /api/user/tickets/departments': departments,
        'GET /api/user/tickets/attachments/limits': limits,
        'GET /api/user/tickets/5': { body: ticketView([withFiles]) },
        'POST /api/user/tickets/5/replies': { body: { success: true } },
      },
    });
    const full = await app.findByRole('link', 'Open screenshot.png full size');
    expect(full.getAttribute('href')).toBe('/api/user/tickets/5/attachments/AAAAAAAAAAAAAAAAAAAAAA');
    expect(full.getAttribute('target')).toBe('_blank');
    expect(full.querySelector('img')?.getAttribute('src')).toBe('/api/user/tickets/5/attachments/AAAAAAAAAAAAAAAAAAAAAA');
    const chip = app.getByRole('link', 'Download latest.log');
    expect(chip.getAttribute('href')).toBe('/api/user/tickets/5/attachments/BBBBBBBBBBBBBBBBBBBBBB');
    expect(chip.textContent).toContain('3 MB');

    // a reply with a file goes as a form
    await choose(app, pickerInput(app), [file('crash.log', 10)]);
    await app.type(app.getByLabelText(en.customer.ticket.yourReply), 'Here is the log');
    await app.click(app.getByRole('button', en.customer.ticket.send));
    await app.waitFor(() => expect(app.httpCalls.some((call) => call.method === 'POST' && call.path === '/api/user/tickets/5/replies')).toBe(true));
    const sent = app.httpCalls.find((call) => call.method === 'POST' && call.path === '/api/user/tickets/5/replies')?.body as FormData;
    expect(sent.get('message')).toBe('Here is the log');
    expect((sent.get('files') as File).name).toBe('crash.log');
    await app.waitFor(() => expect(app.queryByText('crash.log')).toBeNull());
  });

  it('shows staff the files of notes too, through the staff route, and attaches files to a note', async () => {
    const note = {
      ...withFiles,
      id: 2,
      body: 'Cracked jar',
      staff: true,
      internal: true,
      author: 'ada',
      attachments: [{ key: 'CCCCCCCCCCCCCCCCCCCCCC', name: 'evidence.log', type: 'text/plain', size: 10 }],
    };
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets/5',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets/5': { body: { ...ticketView([withFiles, note]), ticket: { ...ticketView([]).ticket, assigned_to: null }, customer: null } },
        'GET /api/admin/tickets/attachments/limits': limits,
        'POST /api/admin/tickets/5/notes': { body: { success: true } },
      },
    });
    const evidence = await app.findByRole('link', 'Download evidence.log');
    expect(evidence.getAttribute('href')).toBe('/api/admin/tickets/5/attachments/CCCCCCCCCCCCCCCCCCCCCC');
    expect(app.getByRole('link', 'Open screenshot.png full size').getAttribute('href')).toBe('/api/admin/tickets/5/attachments/AAAAAAAAAAAAAAAAAAAAAA');

    // the note box (the second picker) sends its own files
    await app.waitFor(() => expect(app.container.querySelectorAll('[data-testid="file-picker-input"]')).toHaveLength(2));
    await choose(app, pickerInput(app, 1), [file('proof.png', 10, 'image/png')]);
    await app.type(app.getByLabelText(en.staff.ticket.note), 'See the proof');
    await app.click(app.getByRole('button', en.staff.ticket.addNote));
    await app.waitFor(() => expect(app.httpCalls.some((call) => call.method === 'POST' && call.path === '/api/admin/tickets/5/notes')).toBe(true));
    const sent = app.httpCalls.find((call) => call.path === '/api/admin/tickets/5/notes')?.body as FormData;
    expect(sent.get('message')).toBe('See the proof');
    expect((sent.get('files') as File).name).toBe('proof.png');
  });
});
