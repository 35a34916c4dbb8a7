// @vitest-environment jsdom
// The linked server in the ticket pages: the create form offers the customer's own servers (none
// offered: no field) and sends the chosen one; the ticket names its server; the staff card shows the
// customer's name, e-mail, coins, the linked server and their servers with panel links, and checks a
// support PIN (6 digits, else refused before asking) saying only whether it matches.
import { cleanup, renderPlugin, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import en from '../locales/en.json';
import manifest from '../plugin.json';

afterEach(() => cleanup());

const l = en.linkedServer;
const c = en.customer;
const settings = { allow_tickets: true };
const departments = { data: [{ id: 1, name: 'Technical', description: '', hours: null, hours_note: '' }] };
const summary = {
  id: 9,
  department_id: 1,
  subject: 'Lag spikes',
  priority: 'medium',
  status: 'open',
  unread: false,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  closed_at: null,
};
const survival = { id: 3, name: 'Survival', identifier: 'a1b2c3d4' };

const customerApp = (route: string, http: HttpHandlers) =>
  renderPlugin(plugin, { manifest, route, settings, catalogues: { en }, http: { 'GET /api/user/tickets/departments': { body: departments }, ...http } });

describe('the create form’s server choice', () => {
  it("offers the customer's servers and sends the chosen one", async () => {
    const app = await customerApp('/ticket/create', {
      'GET /api/user/tickets/servers': { body: { available: true, data: [survival, { id: 4, name: 'Creative', identifier: 'e5f6a7b8' }] } },
      'POST /api/user/tickets': { status: 201, body: { ticket: summary } },
      'GET /api/user/tickets/9': { body: { ticket: summary, messages: [] } },
      'GET /api/user/tickets/9/server': { body: { server: survival } },
    });
    const field = await app.waitFor(() => app.getByLabelText(l.field));
    expect([...field.querySelectorAll('option')].map((o) => o.textContent)).toEqual([l.none, 'Survival (a1b2c3d4)', 'Creative (e5f6a7b8)']);
    await app.type(app.getByLabelText(c.create.department), '1');
    await app.type(field, '3');
    await app.type(app.getByLabelText(c.create.subject), 'Lag spikes');
    await app.type(app.getByLabelText(c.create.message), 'Since noon');
    await app.click(app.getByRole('button', c.create.submit));
    await app.waitFor(() => expect(app.location().pathname).toBe('/ticket/9'));
    expect(app.httpCalls.find((call) => call.method === 'POST' && call.path === '/api/user/tickets')?.body).toMatchObject({ department_id: 1, server_id: 3 });
    // the ticket names its server
    await app.findByText('Survival');
  });

  it('sends no server when none is chosen, and shows no field without servers to choose', async () => {
    const app = await customerApp('/ticket/create', {
      'GET /api/user/tickets/servers': { body: { available: false, data: [] } },
      'POST /api/user/tickets': { status: 201, body: { ticket: summary } },
      'GET /api/user/tickets/9': { body: { ticket: summary, messages: [] } },
      'GET /api/user/tickets/9/server': { body: { server: null } },
    });
    await app.waitFor(() => app.getByLabelText(c.create.department));
    await app.waitFor(() => expect(app.httpCalls.some((call) => call.path === '/api/user/tickets/servers')).toBe(true));
    expect(() => app.getByLabelText(l.field)).toThrow();
    await app.type(app.getByLabelText(c.create.department), '1');
    await app.type(app.getByLabelText(c.create.subject), 'Lag spikes');
    await app.type(app.getByLabelText(c.create.message), 'Since noon');
    await app.click(app.getByRole('button', c.create.submit));
    await app.waitFor(() => expect(app.location().pathname).toBe('/ticket/9'));
    expect(app.httpCalls.find((call) => call.method === 'POST' && call.path === '/api/user/tickets')?.body).not.toHaveProperty('server_id');
  });

  it("puts the server's refusal of a server that is not theirs on the field, in the customer's words", async () => {
    const app = await customerApp('/ticket/create', {
      'GET /api/user/tickets/servers': { body: { available: true, data: [survival] } },
      'POST /api/user/tickets': { status: 400, body: { error: { code: 'SERVER_NOT_YOURS', message: 'Choose one of your own servers.', field: 'server_id' } } },
    });
    const field = await app.waitFor(() => app.getByLabelText(l.field));
    await app.type(app.getByLabelText(c.create.department), '1');
    await app.type(field, '3');
    await app.type(app.getByLabelText(c.create.subject), 'Lag spikes');
    await app.type(app.getByLabelText(c.create.message), 'Since noon');
    await app.click(app.getByRole('button', c.create.submit));
    await app.waitFor(() => expect(app.getByLabelText(l.field).getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(`${app.getByLabelText(l.field).id}-error`)?.textContent).toContain(c.errors.SERVER_NOT_YOURS);
  });
});

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const staffView = {
  ticket: { ...summary, id: 7, assigned_to: null },
  customer: { uuid: 'u-1', username: 'steve', avatar: null, role_name: 'Default', role_color: null, banned: false, verified: true, created_at: '2026-01-01T00:00:00.000Z' },
  messages: [{ id: 1, body: 'It crashes on boot.', staff: false, internal: false, author: 'steve', created_at: '2026-01-01T12:00:00.000Z' }],
};
const card = {
  customer: {
    uuid: 'u-1',
    username: 'steve',
    first_name: 'Steve',
    last_name: 'Miner',
    email: 'steve@example.com',
    role_name: 'Default',
    role_color: null,
    coins: 1250,
    has_pin: true,
  },
  linked_server: { id: 3, owned: true, server: { ...survival, status: 'active', panel_url: 'https://panel.example.com/server/a1b2c3d4' } },
  servers: [
    { ...survival, status: 'active', panel_url: 'https://panel.example.com/server/a1b2c3d4' },
    { id: 4, name: 'Creative', identifier: 'e5f6a7b8', status: 'suspended', panel_url: null },
  ],
};

describe('the staff customer card', () => {
  it('shows name, e-mail, coins, the linked server and their servers with panel links, and checks a PIN', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets/7',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets/7': { body: staffView },
        'GET /api/admin/departments': { body: { data: [] } },
        'GET /api/admin/tickets/7/customer': { body: card },
        'POST /api/admin/tickets/7/customer/pin': (call) => ({ body: { matches: (call.body as { pin: string }).pin === '482913' } }),
      },
    });
    await app.findByText('Steve Miner');
    expect(app.getByText('steve@example.com').getAttribute('href')).toBe('mailto:steve@example.com');
    expect(app.getByText((1250).toLocaleString())).toBeTruthy();
    const links = [...app.container.querySelectorAll(`a[aria-label="${l.openPanel.replace('{{name}}', 'Survival')}"]`)];
    // the linked server and the same server in the list
    expect(links).toHaveLength(2);
    expect(links[0].getAttribute('href')).toBe('https://panel.example.com/server/a1b2c3d4');
    expect(links[0].getAttribute('rel')).toBe('noopener noreferrer');
    expect(app.getByRole('list', l.servers).textContent).toContain(l.suspended);

    const pin = app.getByLabelText(l.pin.label);
    await app.type(pin, '12');
    await app.click(app.getByRole('button', l.pin.check));
    await app.findByText(l.pin.invalid);
    expect(app.httpCalls.some((call) => call.path === '/api/admin/tickets/7/customer/pin')).toBe(false);
    await app.type(pin, '111111');
    await app.click(app.getByRole('button', l.pin.check));
    await app.findByText(l.pin.noMatch);
    await app.type(pin, '482913');
    await app.click(app.getByRole('button', l.pin.check));
    await app.findByText(l.pin.match);
  });

  it('says when the servers plugin is off and when the linked server is unknown', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/tickets/7',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/tickets/7': { body: staffView },
        'GET /api/admin/departments': { body: { data: [] } },
        'GET /api/admin/tickets/7/customer': {
          body: { ...card, customer: { ...card.customer, has_pin: false }, linked_server: { id: 3, owned: false, server: null }, servers: null },
        },
      },
    });
    await app.findByText(l.serversOff);
    expect(app.getByText(l.unknown.replace('{{id}}', '3'))).toBeTruthy();
    expect(app.getByText(l.pin.none)).toBeTruthy();
  });
});
