// @vitest-environment jsdom
// /mc-admin/departments: the list (state and limited roles per row), create (checked before sending,
// the server's field errors on the field, the roles chosen from the core's role list), edit (only
// what changed) and delete (a department with tickets is refused with 409: the page says so and
// offers to disable it instead).
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const text = en.staff.departments;

const department = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: id === 1 ? 'Billing' : 'Technical',
  description: '',
  enabled: true,
  role_ids: [],
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
  ...extra,
});

const roles = {
  body: {
    data: [
      { id: 1, name: 'default', real_name: 'Default', color: '#999', permissions: [], users: 40, protected: true },
      { id: 4, name: 'support', real_name: 'Support Buddy', color: '#0f0', permissions: ['admin.tickets.list', 'admin.tickets.view'], users: 2, protected: false },
      { id: 5, name: 'billing', real_name: 'Billing Team', color: '#00f', permissions: ['admin.tickets.view'], users: 1, protected: false },
      { id: 8, name: 'admin', real_name: 'Administrator', color: '#f00', permissions: ['admin.root'], users: 1, protected: true },
    ],
  },
};

describe('departments list', () => {
  it('shows each department with its state and limited roles, and its actions', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/departments',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/departments': { body: { data: [department(1, { role_ids: [5], description: 'Invoices and refunds' }), department(2, { enabled: false })] } },
        'GET /api/admin/roles': roles,
      },
    });
    await app.findByText('Billing Team');
    expect(app.getByText('Invoices and refunds')).toBeTruthy();
    expect(app.getByText(text.disabled)).toBeTruthy();
    expect(app.getByText(text.noRoles)).toBeTruthy();
    expect(app.getByRole('link', 'Edit Billing').getAttribute('href')).toBe('/mc-admin/departments/1/edit');
    expect(app.getByRole('link', 'Delete Technical').getAttribute('href')).toBe('/mc-admin/departments/2/delete');
  });

  it('says so when there are none', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/departments',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.departments.list'] },
      http: { 'GET /api/admin/departments': { body: { data: [] } } },
    });
    await app.findByText(text.empty);
    expect(app.queryByRole('link', text.create)).toBeNull();
  });
});

describe('department create', () => {
  it('refuses an empty name before sending, then puts the server’s field error on the field', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/departments/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/roles': roles,
        'POST /api/admin/departments': { status: 400, body: { error: { code: 'VALIDATION_ERROR', message: 'The name is too long.', field: 'name' } } },
      },
    });
    await app.findByRole('heading', en.staff.titles.departmentCreate);
    await app.click(app.getByRole('button', text.form.create));
    await app.findByText(en.staff.validation.required);
    expect(app.getByLabelText(text.form.name).getAttribute('aria-invalid')).toBe('true');
    expect(app.httpCalls.some((c) => c.method === 'POST')).toBe(false);

    await app.type(app.getByLabelText(text.form.name), 'Billing');
    await app.click(app.getByRole('button', text.form.create));
    await app.findByText('The name is too long.');
    expect(app.getByLabelText(text.form.name).getAttribute('aria-invalid')).toBe('true');
    expect(app.location().pathname).toBe('/mc-admin/departments/create');
  });

  it('sends every field with the chosen roles and goes back to the list', async () => {
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
    await app.findByText('Billing Team');
    // a customer role and an admin.root one (which sees every department) are no use here
    expect(app.queryByRole('checkbox', 'Default')).toBeNull();
    expect(app.queryByRole('checkbox', 'Administrator')).toBeNull();
    await app.type(app.getByLabelText(text.form.name), '  Billing ');
    await app.type(app.getByLabelText(text.form.description), 'Invoices');
    await app.click(app.getByLabelText('Billing Team'));
    await app.click(app.getByLabelText(text.form.enabled));
    await app.click(app.getByRole('button', text.form.create));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/departments'));
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Billing', description: 'Invoices', enabled: false, role_ids: [5] });
  });
});

describe('department edit', () => {
  it('sends only what changed', async () => {
    const billing = department(1, { role_ids: [5] });
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/departments/1/edit',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/departments/1': { body: { department: billing } },
        // the page's webhook card: none set up
        'GET /api/admin/departments/1/webhook': { body: { webhook: null } },
        'GET /api/admin/roles': roles,
        'PATCH /api/admin/departments/1': (call) => ({ body: { department: { ...billing, ...(call.body as object), updated_at: '2026-02-01T00:00:00.000Z' } } }),
      },
    });
    await app.findByRole('heading', 'Edit Billing');
    await app.findByText('Support Buddy');
    await app.click(app.getByRole('button', text.form.save));
    await app.findByText(text.form.nothingChanged);
    await app.click(app.getByLabelText('Support Buddy'));
    await app.click(app.getByRole('button', text.form.save));
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(app.httpCalls.find((c) => c.method === 'PATCH')?.body).toEqual({ role_ids: [4, 5] });
  });
});

describe('department delete', () => {
  it('deletes an empty department and goes back to the list', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/departments/2/delete',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/departments/2': { body: { department: department(2) } },
        'DELETE /api/admin/departments/2': { body: { success: true } },
        'GET /api/admin/departments': { body: { data: [] } },
        'GET /api/admin/roles': roles,
      },
    });
    await app.findByText('Delete the department Technical?');
    await app.click(app.getByRole('button', text.deleteConfirm));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/departments'));
  });

  it('shows the 409 of a department with tickets and offers to disable it instead', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/departments/1/delete',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/departments/1': { body: { department: department(1) } },
        'DELETE /api/admin/departments/1': {
          status: 409,
          body: { error: { code: 'DEPARTMENT_HAS_TICKETS', message: 'This department has tickets and cannot be deleted; disable it instead.' } },
        },
        'PATCH /api/admin/departments/1': { body: { department: department(1, { enabled: false }) } },
        'GET /api/admin/departments': { body: { data: [] } },
        'GET /api/admin/roles': roles,
      },
    });
    await app.findByText('Delete the department Billing?');
    await app.click(app.getByRole('button', text.deleteConfirm));
    await app.findByText('Billing has tickets, so it cannot be deleted');
    expect(document.body.textContent).toContain(text.hasTickets);
    expect(app.location().pathname).toBe('/mc-admin/departments/1/delete');
    await app.click(app.getByRole('button', text.disableInstead));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/departments'));
    expect(app.httpCalls.find((c) => c.method === 'PATCH')?.body).toEqual({ enabled: false });
  });
});
