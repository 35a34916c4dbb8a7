// @vitest-environment jsdom
// The staff desk's assigning, sorting and department hours in the pages: the list's assignee filter
// (me, nobody, a person) and order are kept in the address and sent to the server; the ticket's
// assignee picker offers the department's staff, "Nobody" and "Assign to me", and says why a choice
// was refused; the department form edits the weekly hours and refuses a day that ends before it
// starts; the new-ticket page shows the chosen department's hours and whether it is open now.
import { cleanup, renderPlugin, type RecordedHttpCall } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import plugin from '../client';
import en from '../locales/en.json';
import manifest from '../plugin.json';

afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const staff = en.staff;
const hours = en.hours;

const OFFICE = {
  time_zone: 'Europe/Bucharest',
  days: { mon: { from: '09:00', to: '17:00' }, tue: { from: '09:00', to: '17:00' }, wed: null, thu: null, fri: null, sat: null, sun: null },
};

const department = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: id === 1 ? 'Billing' : 'Technical',
  description: '',
  hours: null,
  hours_note: '',
  enabled: true,
  role_ids: [],
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
  ...extra,
});

const person = (id: number, username: string) => ({ id, uuid: `u-${id}`, username, role_id: 4, role_name: 'Support', role_color: null });
const assignees = { body: { data: [person(3, 'ada'), person(5, 'grace')], me: 3 } };

const ticket = (extra: Record<string, unknown> = {}) => ({
  id: 7,
  department_id: 2,
  subject: 'Server 7 will not start',
  priority: 'medium',
  status: 'open',
  unread: false,
  assigned_to: null,
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-02T12:00:00.000Z',
  closed_at: null,
  ...extra,
});

function ticketsPage() {
  const rows = [{ ...ticket({ assigned_to: 5 }), customer: { uuid: 'u-1', username: 'steve' } }];
  return { body: { data: rows, meta: { page: 1, per_page: 20, total: 1, total_pages: 1 } } };
}

const lastCall = (calls: RecordedHttpCall[], method: string, path: string) => calls.filter((c) => c.method === method && c.path === path).at(-1);

describe('staff list: assignee and order', () => {
  it('sends the chosen assignee and order to the server and keeps them in the address', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets': ticketsPage,
        'GET /api/admin/tickets/counts': { body: { counts: { open: 1, inprogress: 0, waiting: 0, replied: 0, closed: 0 } } },
        'GET /api/admin/tickets/assignees': assignees,
        'GET /api/admin/departments': { body: { data: [department(1), department(2)] } },
      },
    });
    await app.findByText('#7 Server 7 will not start');
    // the assignee column names the person
    await app.waitFor(() => expect(app.container.querySelector('tbody tr')?.textContent).toContain('grace'));
    const list = () => lastCall(app.httpCalls, 'GET', '/api/admin/tickets')!;
    expect(list().query.has('sort')).toBe(false);

    await app.type(app.getByLabelText(staff.tickets.filters.assignee), 'me');
    await app.waitFor(() => expect(list().query.get('assignee')).toBe('me'));
    await app.type(app.getByLabelText(staff.tickets.filters.assignee), '5');
    await app.waitFor(() => expect(list().query.get('assigned_to')).toBe('5'));
    expect(list().query.has('assignee')).toBe(false);
    await app.type(app.getByLabelText(staff.tickets.filters.assignee), 'nobody');
    await app.waitFor(() => expect(list().query.get('assignee')).toBe('nobody'));

    await app.type(app.getByLabelText(staff.tickets.sort.label), 'priority');
    await app.waitFor(() => expect(list().query.get('sort')).toBe('priority'));
    const address = new URLSearchParams(app.location().search);
    expect(address.get('sort')).toBe('priority');
    expect(address.get('assignee')).toBe('nobody');
    await app.type(app.getByLabelText(staff.tickets.sort.label), 'activity');
    await app.waitFor(() => expect(list().query.has('sort')).toBe(false));
    expect(new URLSearchParams(app.location().search).has('sort')).toBe(false);
  });

  it('reads them from the address and drops what is not an assignee or an order', async () => {
    const open = async (search: string) => {
      const app = await renderPlugin(plugin, {
        manifest,
        route: `/mc-admin/tickets${search}`,
        catalogues: { en },
        session: ROOT,
        http: {
          'GET /api/admin/tickets': ticketsPage,
          'GET /api/admin/tickets/counts': { body: { counts: { open: 1, inprogress: 0, waiting: 0, replied: 0, closed: 0 } } },
          'GET /api/admin/tickets/assignees': assignees,
        },
      });
      await app.findByText('#7 Server 7 will not start');
      const query = app.httpCalls.find((c) => c.method === 'GET' && c.path === '/api/admin/tickets')!.query;
      cleanup();
      return query;
    };
    const kept = await open('?assignee=5&sort=priority');
    expect([kept.get('assigned_to'), kept.get('sort'), kept.has('assignee')]).toEqual(['5', 'priority', false]);
    const dropped = await open('?assignee=everyone&sort=subject');
    expect([dropped.has('assigned_to'), dropped.has('assignee'), dropped.has('sort')]).toEqual([false, false, false]);
  });
});

describe('staff ticket: assignee picker', () => {
  // first: a refusal's dialog waits behind the toasts of the saves in the next test
  it('says why an assignment was refused, and shows an assignee who no longer sees the department', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets/7',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets/7': { body: { ticket: ticket({ assigned_to: 9 }), customer: null, messages: [] } },
        'GET /api/admin/tickets/assignees?department_id=2': assignees,
        'PATCH /api/admin/tickets/7': { status: 400, body: { error: { code: 'ASSIGNEE_OUT_OF_SCOPE', message: 'no', field: 'assigned_to' } } },
      },
    });
    const picker = await app.waitFor(() => app.getByLabelText(staff.assignee.label));
    await app.waitFor(() => expect((picker as HTMLSelectElement).value).toBe('9'));
    expect(picker.textContent).toContain('#9 (may no longer take it)');
    await app.type(picker, '5');
    await app.waitFor(() => expect(app.httpCalls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ assigned_to: 5 }]));
    // the sdk's dialogs open after their animation
    await app.waitFor(() => expect(document.body.textContent).toContain(staff.errors.ASSIGNEE_OUT_OF_SCOPE), { timeout: 8000 });
    await app.answerDialog(staff.ticket.changeFailed, 'confirm');
  });

  it('offers the department’s staff, Nobody and Assign to me, each one PATCH', async () => {
    let current = ticket();
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets/7',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets/7': () => ({ body: { ticket: current, customer: null, messages: [] } }),
        'GET /api/admin/tickets/assignees?department_id=2': assignees,
        'PATCH /api/admin/tickets/7': (call) => {
          current = { ...current, ...(call.body as object) };
          return { body: { ticket: current } };
        },
      },
    });
    const picker = await app.waitFor(() => app.getByLabelText(staff.assignee.label));
    await app.waitFor(() => expect(picker.textContent).toContain('grace (Support)'));
    expect((picker as HTMLSelectElement).value).toBe('nobody');
    const patches = () => app.httpCalls.filter((c) => c.method === 'PATCH').map((c) => c.body);

    await app.type(picker, '5');
    await app.waitFor(() => expect(patches()).toEqual([{ assigned_to: 5 }]));
    await app.click(await app.findByRole('button', staff.assignee.assignToMe));
    await app.waitFor(() => expect(patches().at(-1)).toEqual({ assigned_to: 3 }));
    // assigned to me already: nothing more to take
    await app.waitFor(() => expect(app.queryByRole('button', staff.assignee.assignToMe)).toBeNull());
    await app.type(app.getByLabelText(staff.assignee.label), 'nobody');
    await app.waitFor(() => expect(patches().at(-1)).toEqual({ assigned_to: null }));
  });
});

describe('staff ticket: departments by name', () => {
  it('offers the departments the staff member works in, by name, without the departments permission', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets/7',
      catalogues: { en },
      session: { user: { role: 4, role_name: 'Support' }, permissions: ['admin.tickets.list', 'admin.tickets.view'] },
      http: {
        'GET /api/admin/tickets/7': { body: { ticket: ticket(), customer: null, messages: [] } },
        'GET /api/admin/tickets/departments': {
          body: {
            data: [
              { id: 2, name: 'Technical', enabled: true },
              { id: 4, name: 'Hardware', enabled: true },
            ],
          },
        },
        'PATCH /api/admin/tickets/7': { body: { ticket: ticket({ department_id: 4 }) } },
      },
    });
    const select = (await app.waitFor(() => app.getByLabelText(staff.tickets.filters.department))) as HTMLSelectElement;
    await app.waitFor(() => expect([...select.options].map((o) => o.textContent)).toEqual(['Technical', 'Hardware']));
    expect(select.value).toBe('2');
    expect(app.httpCalls.some((c) => c.path === '/api/admin/departments')).toBe(false);
    await app.type(select, '4');
    await app.waitFor(() => expect(app.httpCalls.find((c) => c.method === 'PATCH')?.body).toEqual({ department_id: 4 }));
  });
});

describe('department form: opening hours', () => {
  const roles = { body: { data: [] } };

  it('adds a weekly schedule, refuses a day that ends before it starts, and sends the hours and the note', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/departments/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/roles': roles,
        'POST /api/admin/departments': (call) => ({ status: 201, body: { department: department(3, call.body as Record<string, unknown>) } }),
        'GET /api/admin/departments': { body: { data: [] } },
      },
    });
    await app.findByRole('heading', staff.titles.departmentCreate);
    await app.type(app.getByLabelText(staff.departments.form.name), 'Billing');
    expect(() => app.getByLabelText(hours.form.timeZone)).toThrow();
    await app.click(app.getByLabelText(hours.form.state));
    await app.type(app.getByLabelText(hours.form.timeZone), 'UTC');
    // office hours to start with: Monday to Friday open, the weekend closed
    expect((app.getByLabelText('Open on Monday') as HTMLInputElement).checked).toBe(true);
    expect((app.getByLabelText('Open on Sunday') as HTMLInputElement).checked).toBe(false);
    await app.click(app.getByLabelText('Open on Friday'));
    await app.click(app.getByLabelText('Open on Saturday'));
    await app.type(app.getByLabelText('Saturday from'), '18:00');
    await app.type(app.getByLabelText('Saturday to'), '10:00');
    await app.findByText(hours.form.fromAfterTo);
    await app.click(app.getByRole('button', staff.departments.form.create));
    await app.findByText(hours.form.invalid);
    expect(app.httpCalls.some((c) => c.method === 'POST')).toBe(false);

    await app.type(app.getByLabelText('Saturday from'), '10:00');
    await app.type(app.getByLabelText('Saturday to'), '24:00');
    await app.type(app.getByLabelText(hours.form.note), ' Closed on public holidays. ');
    await app.click(app.getByRole('button', staff.departments.form.create));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/departments'));
    const nine = { from: '09:00', to: '17:00' };
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Billing',
      description: '',
      enabled: true,
      role_ids: [],
      hours: { time_zone: 'UTC', days: { mon: nine, tue: nine, wed: nine, thu: nine, fri: null, sat: { from: '10:00', to: '24:00' }, sun: null } },
      hours_note: 'Closed on public holidays.',
    });
  });

  it('puts the server’s refusal on the field it names, and sends only the hours when only they changed', async () => {
    const billing = department(1, { hours: OFFICE });
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/departments/1/edit',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/departments/1': { body: { department: billing } },
        'GET /api/admin/roles': roles,
        'PATCH /api/admin/departments/1': (call) =>
          (call.body as { hours?: { days: { wed: unknown } } }).hours?.days.wed
            ? { status: 400, body: { error: { code: 'VALIDATION_ERROR', message: 'Tuesday is not right.', field: 'hours.days.tue.to' } } }
            : { body: { department: { ...billing, ...(call.body as object), updated_at: '2026-02-01T00:00:00.000Z' } } },
      },
    });
    await app.findByRole('heading', 'Edit Billing');
    await app.click(app.getByLabelText('Open on Wednesday'));
    await app.click(app.getByRole('button', staff.departments.form.save));
    await app.findByText('Tuesday is not right.');
    expect(app.getByLabelText('Tuesday to').getAttribute('aria-invalid')).toBe('true');
    await app.click(app.getByLabelText('Open on Wednesday'));
    await app.click(app.getByLabelText('Open on Tuesday'));
    await app.click(app.getByRole('button', staff.departments.form.save));
    await app.waitFor(() => expect(app.httpCalls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect(app.httpCalls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({ hours: { ...OFFICE, days: { ...OFFICE.days, tue: null } } });
  });

  it('lists each department’s hours in short', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/departments',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/departments': { body: { data: [department(1, { hours: OFFICE }), department(2)] } }, 'GET /api/admin/roles': roles },
    });
    await app.findByText('Mon–Tue 09:00–17:00');
    expect(app.getByText('Europe/Bucharest')).toBeTruthy();
    expect(app.getByText(hours.none)).toBeTruthy();
  });
});

describe('new ticket: the department’s hours', () => {
  const departments = {
    data: [
      { id: 1, name: 'Technical', description: 'Servers', hours: OFFICE, hours_note: 'Closed on public holidays.' },
      { id: 2, name: 'Billing', description: '', hours: null, hours_note: '' },
    ],
  };
  const open = () =>
    renderPlugin(plugin, {
      manifest,
      route: '/ticket/create',
      settings: { allow_tickets: true },
      catalogues: { en },
      http: { 'GET /api/user/tickets/departments': { body: departments } },
    });

  it('says when a closed department opens, in its own zone, and that a ticket can still be opened', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Tuesday 2030-07-02 18:00 in Bucharest (UTC+3): closed until Monday 09:00
    vi.setSystemTime(new Date('2030-07-02T15:00:00Z'));
    const app = await open();
    await app.type(await app.waitFor(() => app.getByLabelText(en.customer.create.department)), '1');
    await app.findByText('Closed — opens Monday 09:00');
    expect(document.body.textContent).toContain('Mon–Tue 09:00–17:00');
    expect(document.body.textContent).toContain('times in Europe/Bucharest');
    expect(document.body.textContent).toContain('Closed on public holidays.');
    expect(document.body.textContent).toContain(hours.outsideHours);
    // a department without hours shows none
    await app.type(app.getByLabelText(en.customer.create.department), '2');
    await app.waitFor(() => expect(app.container.querySelector(`[aria-label="${hours.title}"]`)).toBeNull());
  });

  it('says it is open now, and until when', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Monday 2030-07-01 10:00 in Bucharest
    vi.setSystemTime(new Date('2030-07-01T07:00:00Z'));
    const app = await open();
    await app.type(await app.waitFor(() => app.getByLabelText(en.customer.create.department)), '1');
    await app.findByText('Open now — until 17:00');
    expect(document.body.textContent).not.toContain(hours.outsideHours);
  });
});

describe('my tickets: department names', () => {
  it('names a ticket’s department even when it no longer takes tickets', async () => {
    const row = { ...ticket({ department_id: 9 }), department_name: 'Old desk' };
    delete (row as { assigned_to?: unknown }).assigned_to;
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/ticket',
      settings: { allow_tickets: true },
      catalogues: { en },
      http: {
        'GET /api/user/tickets/departments': { body: { data: [] } },
        'GET /api/user/tickets': { body: { data: [row], meta: { page: 1, per_page: 20, total: 1, total_pages: 1 } } },
      },
    });
    await app.findByText('Server 7 will not start');
    expect(app.container.querySelector('tbody tr')?.textContent).toContain('Old desk');
  });
});
