// @vitest-environment jsdom
// The customer's ticket pages: the list marks unread tickets and filters by status; opening a ticket
// puts the server's refusals on the field they name and goes to the new ticket; the conversation
// replies, closes and reopens (each asked first), hides the reply box on a closed ticket, and shows a
// staff answer by itself by asking again while the page is in view.
import { cleanup, renderPlugin, type HttpHandlers, type RecordedHttpCall } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import plugin from '../client';
import type { MessageView, TicketSummary, TicketView } from '../client/customer/api';
import { TICKET_POLL_MS } from '../client/customer/use-visible-poll';
import en from '../locales/en.json';
import manifest from '../plugin.json';

afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

const c = en.customer;
const settings = { allow_tickets: true };
const departments = {
  data: [
    { id: 1, name: 'Technical', description: 'Servers that do not start. Mon–Fri 9–17.' },
    { id: 2, name: 'Billing', description: '' },
  ],
};

function ticket(over: Partial<TicketSummary> = {}): TicketSummary {
  return {
    id: 5,
    department_id: 1,
    subject: 'Server will not start',
    priority: 'high',
    status: 'open',
    unread: false,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-21T10:00:00.000Z',
    closed_at: null,
    ...over,
  };
}

function message(over: Partial<MessageView> = {}): MessageView {
  return { id: 1, body: 'It crashes on boot.', staff: false, internal: false, author: 'steve', created_at: '2026-11-20T10:00:00.000Z', ...over };
}

const page = (rows: TicketSummary[]) => ({ data: rows, meta: { page: 1, per_page: 20, total: rows.length, total_pages: 1 } });

async function open(route: string, http: HttpHandlers) {
  return renderPlugin(plugin, { manifest, route, settings, catalogues: { en }, http: { 'GET /api/user/tickets/departments': { body: departments }, ...http } });
}

const calls = (app: { httpCalls: RecordedHttpCall[] }, method: string, path: string) => app.httpCalls.filter((call) => call.method === method && call.path === path);

describe('my tickets (/ticket)', () => {
  it('lists the tickets with their status, priority, department and an unread marker only where staff answered', async () => {
    const app = await open('/ticket', {
      'GET /api/user/tickets': {
        body: page([ticket({ id: 5, status: 'replied', unread: true }), ticket({ id: 4, subject: 'Invoice question', department_id: 2, priority: 'low', status: 'closed' })]),
      },
    });
    await app.findByText('Server will not start');
    expect(app.getByText('Invoice question')).toBeTruthy();
    const rows = [...app.container.querySelectorAll('tbody tr')].map((row) => row.textContent ?? '');
    expect(rows[0]).toContain(c.status.replied);
    expect(rows[0]).toContain(c.priority.high);
    expect(rows[0]).toContain('Technical');
    expect(rows[1]).toContain(c.status.closed);
    expect(rows[1]).toContain('Billing');
    expect(app.container.querySelectorAll(`[aria-label="${c.list.unread}"]`)).toHaveLength(1);
    const unreadRow = app.container.querySelector(`[aria-label="${c.list.unread}"]`)?.closest('tr');
    expect(unreadRow?.textContent).toContain('Server will not start');
    expect(app.getByRole('link', 'Server will not start').getAttribute('href')).toBe('/ticket/5');
  });

  it('filters by status through the server and keeps the filter in the address', async () => {
    const app = await open('/ticket', {
      'GET /api/user/tickets': (call) => ({ body: page(call.query.get('status') === 'closed' ? [ticket({ id: 4, subject: 'Old one', status: 'closed' })] : [ticket()]) }),
    });
    await app.findByText('Server will not start');
    await app.type(app.getByLabelText(c.list.filter), 'closed');
    await app.findByText('Old one');
    expect(app.location().search).toBe('?status=closed');
    expect(calls(app, 'GET', '/api/user/tickets').at(-1)?.query.get('status')).toBe('closed');
    expect(app.queryByText('Server will not start')).toBeNull();
  });

  it('invites to open a ticket when there is none', async () => {
    const app = await open('/ticket', { 'GET /api/user/tickets': { body: page([]) } });
    await app.findByText(c.list.none);
    const links = app.container.querySelectorAll('a[href="/ticket/create"]');
    expect(links.length).toBeGreaterThanOrEqual(2); // the page's button and the empty state's
  });

  it('says when the list could not be loaded and retries', async () => {
    let fail = true;
    const app = await open('/ticket', {
      'GET /api/user/tickets': () => (fail ? { status: 500, body: { error: { code: 'SERVER_ERROR', message: 'Boom' } } } : { body: page([ticket()]) }),
    });
    const retry = await app.findByRole('button', 'Try again');
    fail = false;
    await app.click(retry);
    await app.findByText('Server will not start');
  });
});

describe('opening a ticket (/ticket/create)', () => {
  it('refuses a missing department and subject without asking the server, and shows the chosen department’s description', async () => {
    const app = await open('/ticket/create', {});
    await app.waitFor(() => app.getByLabelText(c.create.department));
    await app.click(app.getByRole('button', c.create.submit));
    await app.findByText(c.create.pickDepartment);
    expect(app.getByLabelText(c.create.subject).getAttribute('aria-invalid')).toBe('true');
    expect(calls(app, 'POST', '/api/user/tickets')).toHaveLength(0);
    await app.type(app.getByLabelText(c.create.department), '1');
    await app.findByText('Servers that do not start. Mon–Fri 9–17.');
  });

  it("puts the server's refusal on the field it names", async () => {
    const app = await open('/ticket/create', {
      'POST /api/user/tickets': { status: 400, body: { error: { code: 'VALIDATION_ERROR', message: 'The subject is too short.', field: 'subject' } } },
    });
    await app.waitFor(() => app.getByLabelText(c.create.department));
    await app.type(app.getByLabelText(c.create.department), '2');
    await app.type(app.getByLabelText(c.create.subject), 'Hey there');
    await app.type(app.getByLabelText(c.create.message), 'Please help');
    await app.click(app.getByRole('button', c.create.submit));
    await app.waitFor(() => expect(app.getByLabelText(c.create.subject).getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(`${app.getByLabelText(c.create.subject).id}-error`)?.textContent).toContain('The subject is too short.');
    expect(app.location().pathname).toBe('/ticket/create');
  });

  it('says in its own words that too many tickets are open', async () => {
    const app = await open('/ticket/create', {
      'POST /api/user/tickets': { status: 409, body: { error: { code: 'TOO_MANY_OPEN_TICKETS', message: 'You may have at most 3 open tickets; close one first.' } } },
    });
    await app.waitFor(() => app.getByLabelText(c.create.department));
    await app.type(app.getByLabelText(c.create.department), '1');
    await app.type(app.getByLabelText(c.create.subject), 'Server down');
    await app.type(app.getByLabelText(c.create.message), 'Down since noon');
    await app.click(app.getByRole('button', c.create.submit));
    await app.findByText(c.errors.TOO_MANY_OPEN_TICKETS);
  });

  it('sends the trimmed ticket and goes to it', async () => {
    const app = await open('/ticket/create', {
      'POST /api/user/tickets': { status: 201, body: { ticket: ticket({ id: 9 }) } },
      'GET /api/user/tickets/:id': { body: { ticket: ticket({ id: 9 }), messages: [message()] } },
    });
    await app.waitFor(() => app.getByLabelText(c.create.department));
    await app.type(app.getByLabelText(c.create.department), '1');
    await app.type(app.getByLabelText(c.create.priority), 'urgent');
    await app.type(app.getByLabelText(c.create.subject), '  Server will not start ');
    await app.type(app.getByLabelText(c.create.message), ' It crashes on boot. ');
    await app.click(app.getByRole('button', c.create.submit));
    await app.waitFor(() => expect(app.location().pathname).toBe('/ticket/9'));
    expect(calls(app, 'POST', '/api/user/tickets')[0].body).toEqual({ department_id: 1, subject: 'Server will not start', priority: 'urgent', message: 'It crashes on boot.' });
  });
});

describe('a ticket (/ticket/{id})', () => {
  /** A server that keeps the ticket: replies add messages, close and reopen change its status. */
  function desk(start: TicketView) {
    const state: TicketView = structuredClone(start);
    const handlers: HttpHandlers = {
      'GET /api/user/tickets/:id': () => ({ body: structuredClone(state) }),
      'POST /api/user/tickets/:id/replies': (call) => {
        state.messages.push(message({ id: state.messages.length + 1, body: (call.body as { message: string }).message }));
        state.ticket.status = 'open';
        return { body: { success: true } };
      },
      'POST /api/user/tickets/:id/close': () => {
        state.ticket = { ...state.ticket, status: 'closed', closed_at: '2026-11-22T10:00:00.000Z' };
        return { body: { success: true } };
      },
      'POST /api/user/tickets/:id/reopen': () => {
        state.ticket = { ...state.ticket, status: 'open', closed_at: null };
        return { body: { success: true } };
      },
    };
    return { state, handlers };
  }

  it('shows the conversation with author, role and time, and sends a reply', async () => {
    const { handlers } = desk({ ticket: ticket(), messages: [message(), message({ id: 2, staff: true, author: 'ada', body: 'Try again now.' })] });
    const app = await open('/ticket/5', handlers);
    await app.findByText('Try again now.');
    const items = app.getByRole('list', c.ticket.conversation).querySelectorAll('li');
    expect(items).toHaveLength(2);
    expect(items[0].textContent).toContain('steve');
    expect(items[0].textContent).toContain(c.ticket.roleYou);
    expect(items[1].textContent).toContain('ada');
    expect(items[1].textContent).toContain(c.ticket.roleStaff);
    expect(items[1].querySelector('time')?.getAttribute('datetime')).toBe('2026-11-20T10:00:00.000Z');

    await app.click(app.getByRole('button', c.ticket.send));
    await app.findByText(c.validation.required);
    expect(calls(app, 'POST', '/api/user/tickets/5/replies')).toHaveLength(0);
    await app.type(app.getByLabelText(c.ticket.yourReply), ' Still crashing. ');
    await app.click(app.getByRole('button', c.ticket.send));
    await app.findByText('Still crashing.');
    expect(calls(app, 'POST', '/api/user/tickets/5/replies')[0].body).toEqual({ message: 'Still crashing.' });
    expect((app.getByLabelText(c.ticket.yourReply) as HTMLTextAreaElement).value).toBe('');
  });

  it('closes after asking, then hides the reply box with a note, and reopens after asking', async () => {
    const { handlers } = desk({ ticket: ticket(), messages: [message()] });
    const app = await open('/ticket/5', handlers);
    await app.findByText('It crashes on boot.');

    await app.click(app.getByRole('button', c.ticket.close));
    await app.answerDialog(c.ticket.closeTitle, 'cancel');
    expect(calls(app, 'POST', '/api/user/tickets/5/close')).toHaveLength(0);

    await app.click(app.getByRole('button', c.ticket.close));
    await app.answerDialog(c.ticket.closeTitle, 'confirm');
    await app.findByText(c.ticket.closedTitle);
    expect(calls(app, 'POST', '/api/user/tickets/5/close')).toHaveLength(1);
    expect(app.container.querySelector('textarea[name="message"]')).toBeNull();

    await app.click(app.getByRole('button', c.ticket.reopen));
    await app.answerDialog(c.ticket.reopenTitle, 'confirm');
    await app.waitFor(() => app.getByLabelText(c.ticket.yourReply));
    expect(calls(app, 'POST', '/api/user/tickets/5/reopen')).toHaveLength(1);
    expect(app.queryByText(c.ticket.closedTitle)).toBeNull();
  });

  it('says why a reopen was refused, in its own words', async () => {
    const { handlers } = desk({ ticket: ticket({ status: 'closed', closed_at: '2026-10-01T10:00:00.000Z' }), messages: [message()] });
    handlers['POST /api/user/tickets/:id/reopen'] = {
      status: 409,
      body: { error: { code: 'REOPEN_EXPIRED', message: 'A ticket can be reopened only within 7 days of closing; open a new one.' } },
    };
    const app = await open('/ticket/5', handlers);
    await app.findByText(c.ticket.closedTitle);
    await app.click(app.getByRole('button', c.ticket.reopen));
    await app.answerDialog(c.ticket.reopenTitle, 'confirm');
    await app.findByText(c.errors.REOPEN_EXPIRED, { timeout: 6000 });
  });

  it('shows a new staff answer by itself while the page is in view, and does not ask while it is hidden', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { state, handlers } = desk({ ticket: ticket(), messages: [message()] });
    const app = await open('/ticket/5', handlers);
    await app.findByText('It crashes on boot.');
    const gets = () => calls(app, 'GET', '/api/user/tickets/5').length;

    state.messages.push(message({ id: 2, staff: true, author: 'ada', body: 'Fixed on our side.' }));
    state.ticket.status = 'replied';
    vi.advanceTimersByTime(TICKET_POLL_MS);
    await app.findByText('Fixed on our side.');
    expect(app.getByText(c.status.replied)).toBeTruthy();

    const hidden = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const before = gets();
    vi.advanceTimersByTime(TICKET_POLL_MS * 3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gets()).toBe(before);

    // back in view: asked at once, not at the next tick
    hidden.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await app.waitFor(() => expect(gets()).toBe(before + 1));
    hidden.mockRestore();
  });

  it('says when the ticket is not among the customer’s', async () => {
    const app = await open('/ticket/99', { 'GET /api/user/tickets/:id': { status: 404, body: { error: { code: 'TICKET_NOT_FOUND', message: 'No such ticket.' } } } });
    await app.findByText(c.errors.TICKET_NOT_FOUND);
    expect(app.container.querySelector('a[href="/ticket"]')).toBeTruthy();
    expect(app.queryByRole('button', c.ticket.close)).toBeNull();
  });
});
