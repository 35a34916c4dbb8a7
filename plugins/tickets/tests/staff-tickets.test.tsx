// @vitest-environment jsdom
// /mc-admin/tickets and /mc-admin/tickets/:id: the list asks the server for exactly the chosen
// filters (and shows the counts per status); the ticket marks internal notes so nobody mistakes them
// for replies, sends a note to the notes endpoint and a reply to the replies endpoint, and changes
// status, priority and department through one PATCH each.
import { cleanup, renderPlugin, type RecordedHttpCall } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const text = en.staff;

const departments = {
  body: {
    data: [
      { id: 1, name: 'Billing', description: '', enabled: true, role_ids: [], created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' },
      { id: 2, name: 'Technical', description: '', enabled: true, role_ids: [], created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' },
    ],
  },
};

const ticket = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  department_id: 2,
  subject: `Server ${id} will not start`,
  priority: 'medium',
  status: 'open',
  unread: false,
  assigned_to: null,
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-02T12:00:00.000Z',
  closed_at: null,
  ...extra,
});

function ticketsPage(call: RecordedHttpCall) {
  const rows = call.query.get('status') === 'waiting' ? [] : [{ ...ticket(7, { unread: true }), customer: { uuid: 'u-1', username: 'steve' } }];
  return { body: { data: rows, meta: { page: 1, per_page: 20, total: rows.length, total_pages: rows.length ? 1 : 0 } } };
}

describe('staff tickets list', () => {
  it('shows the counts per status and sends each filter to the server', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets': ticketsPage,
        'GET /api/admin/tickets/counts': { body: { counts: { open: 3, inprogress: 1, waiting: 0, replied: 2, closed: 9 } } },
        'GET /api/admin/departments': departments,
        'GET /api/admin/tickets/departments': departments,
      },
    });
    await app.findByText('#7 Server 7 will not start');
    expect(app.getByText('steve')).toBeTruthy();
    expect(app.getByText(text.tickets.unread)).toBeTruthy();
    await app.findByText('9');
    const lastList = () => app.httpCalls.filter((c) => c.method === 'GET' && c.path === '/api/admin/tickets').at(-1)!;

    await app.type(app.getByLabelText(text.tickets.filters.priority), 'urgent');
    await app.waitFor(() => expect(lastList().query.get('priority')).toBe('urgent'));
    await app.type(app.getByLabelText(text.tickets.filters.department), '2');
    await app.waitFor(() => expect(lastList().query.get('department_id')).toBe('2'));
    await app.click(app.getByLabelText(text.tickets.filters.unanswered));
    await app.waitFor(() => expect(lastList().query.get('unanswered')).toBe('true'));
    expect(lastList().query.get('priority')).toBe('urgent');
    expect(lastList().query.get('page')).toBe('1');

    // a count is a filter too
    await app.click(app.getByRole('button', /Waiting/));
    await app.waitFor(() => expect(lastList().query.get('status')).toBe('waiting'));
    await app.findByText(text.tickets.emptyFiltered);

    await app.type(app.getByLabelText(text.tickets.search), 'crash');
    await app.waitFor(() => expect(lastList().query.get('search')).toBe('crash'), { timeout: 3000 });
    expect(lastList().query.get('status')).toBe('waiting');
    expect(new URLSearchParams(app.location().search).get('priority')).toBe('urgent');
  });

  it('takes its filters from the address and drops what is not a filter value', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets?status=closed&priority=whenever&department_id=1;drop&unanswered=true',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets': ticketsPage,
        'GET /api/admin/tickets/counts': { body: { counts: { open: 0, inprogress: 0, waiting: 0, replied: 0, closed: 1 } } },
        'GET /api/admin/departments': departments,
        'GET /api/admin/tickets/departments': departments,
      },
    });
    await app.findByText('#7 Server 7 will not start');
    const call = app.httpCalls.find((c) => c.method === 'GET' && c.path === '/api/admin/tickets')!;
    expect(call.query.get('status')).toBe('closed');
    expect(call.query.get('unanswered')).toBe('true');
    expect(call.query.has('priority')).toBe(false);
    expect(call.query.has('department_id')).toBe(false);
    expect(app.getByRole('button', /Closed/).getAttribute('aria-pressed')).toBe('true');
  });
});

describe('staff ticket view', () => {
  const view = (status = 'open') => ({
    ticket: ticket(7, { status }),
    customer: { uuid: 'u-1', username: 'steve', avatar: null, role_name: 'Default', role_color: null, banned: false, verified: true, created_at: '2025-06-01T00:00:00.000Z' },
    messages: [
      { id: 1, body: 'It crashes on boot.', staff: false, internal: false, author: 'steve', created_at: '2026-01-01T12:00:00.000Z' },
      { id: 2, body: 'Probably the Java version.', staff: true, internal: true, author: 'ada', created_at: '2026-01-01T12:05:00.000Z' },
      { id: 3, body: 'Please try again now.', staff: true, internal: false, author: 'ada', created_at: '2026-01-01T12:10:00.000Z' },
    ],
  });

  it('marks internal notes and sends notes and replies to their own endpoints', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets/7',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets/7': { body: view() },
        'GET /api/admin/departments': departments,
        'GET /api/admin/tickets/departments': departments,
        'POST /api/admin/tickets/7/notes': { body: { success: true } },
        'POST /api/admin/tickets/7/replies': { body: { success: true } },
      },
    });
    await app.findByText('It crashes on boot.');
    const note = app.getByText('Probably the Java version.').closest('li')!;
    expect(note.getAttribute('data-internal')).toBe('true');
    expect(note.textContent).toContain(text.ticket.internalLabel);
    expect(app.getByText('Please try again now.').closest('li')!.textContent).not.toContain(text.ticket.internalLabel);
    expect(document.body.textContent?.split(text.ticket.internalLabel).length).toBe(2);
    expect(app.getByRole('link', 'steve').getAttribute('href')).toBe('/mc-admin/users/u-1/edit');

    await app.type(app.getByLabelText(text.ticket.note), 'Asked them for the log.');
    await app.click(app.getByRole('button', text.ticket.addNote));
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.method === 'POST' && c.path === '/api/admin/tickets/7/notes')).toBe(true));
    expect(app.httpCalls.find((c) => c.path === '/api/admin/tickets/7/notes')?.body).toEqual({ message: 'Asked them for the log.' });
    expect(app.httpCalls.some((c) => c.path === '/api/admin/tickets/7/replies')).toBe(false);

    await app.type(app.getByLabelText(text.ticket.reply), 'Could you send the log?');
    await app.click(app.getByRole('button', text.ticket.sendReply));
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.method === 'POST' && c.path === '/api/admin/tickets/7/replies')).toBe(true));
    expect(app.httpCalls.find((c) => c.path === '/api/admin/tickets/7/replies')?.body).toEqual({ message: 'Could you send the log?' });
    expect(app.httpCalls.filter((c) => c.path === '/api/admin/tickets/7/notes')).toHaveLength(1);
  });

  it('says a ticket that is gone or outside the staff member’s departments is not there, with the way back and no retry', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets/7',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets/7': { status: 404, body: { error: { code: 'TICKET_NOT_FOUND', message: 'No such ticket.' } } },
        'GET /api/admin/tickets/departments': departments,
      },
    });
    await app.findByText(text.errors.TICKET_NOT_FOUND);
    expect(document.body.textContent).not.toContain('No such ticket.');
    expect(app.queryByRole('button', 'Try again')).toBeNull();
    await app.click(app.getByRole('link', text.ticket.back));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/tickets'));
  });

  it('says in the staff member’s words why a reply or a move was refused', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets/7',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets/7': { body: view() },
        'GET /api/admin/departments': departments,
        'GET /api/admin/tickets/departments': departments,
        'POST /api/admin/tickets/7/replies': { status: 409, body: { error: { code: 'TICKET_CLOSED', message: 'The ticket is closed.' } } },
        'PATCH /api/admin/tickets/7': { status: 400, body: { error: { code: 'DEPARTMENT_UNAVAILABLE', message: 'outside yours', field: 'department_id' } } },
      },
    });
    await app.findByText('It crashes on boot.');
    await app.type(app.getByLabelText(text.ticket.reply), 'Hello?');
    await app.click(app.getByRole('button', text.ticket.sendReply));
    await app.findByText(text.errors.TICKET_CLOSED);
    await app.type(app.getByLabelText(text.tickets.filters.department), '1');
    await app.waitFor(() => expect(document.body.textContent).toContain(text.errors.DEPARTMENT_UNAVAILABLE), { timeout: 4000 });
    await app.answerDialog(text.ticket.changeFailed, 'confirm');
  });

  it('changes the priority and department, closes, and offers reopen on a closed ticket', async () => {
    let current = view();
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets/7',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets/7': () => ({ body: current }),
        'GET /api/admin/departments': departments,
        'GET /api/admin/tickets/departments': departments,
        'PATCH /api/admin/tickets/7': (call) => {
          current = { ...current, ticket: { ...current.ticket, ...(call.body as object) } };
          return { body: { ticket: current.ticket } };
        },
      },
    });
    await app.findByText('It crashes on boot.');
    await app.type(app.getByLabelText(text.tickets.filters.priority), 'urgent');
    await app.waitFor(() => expect(app.httpCalls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ priority: 'urgent' }]));
    await app.type(app.getByLabelText(text.tickets.filters.department), '1');
    await app.waitFor(() => expect(app.httpCalls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({ department_id: 1 }));
    await app.click(app.getByRole('button', text.ticket.close));
    await app.waitFor(() => expect(app.httpCalls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({ status: 'closed' }));
    await app.findByRole('button', text.ticket.reopen);
    expect(app.getByText(text.ticket.closedNote)).toBeTruthy();
    expect(app.queryByRole('button', text.ticket.sendReply)).toBeNull();
  });
});
