// @vitest-environment jsdom
// The catalog's admin pages: the lists (status, VIP and disabled markers, thumbnails, actions by
// permission, empty state), "Sync from panel" (only with the three create permissions; its result
// per kind and the note that new entries arrive disabled), the forms (checked before sending, the
// panel pickers, a typed id when the panel cannot be asked), and a category that still holds eggs
// offering no delete button.
import { cleanup, renderPlugin, type RecordedHttpCall } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const STAMP = { created_at: '2026-01-01T12:00:00.000Z', updated_at: '2026-01-01T12:00:00.000Z' };

const location = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Location ${id}`,
  description: null,
  panel_location_id: id,
  slots: 10,
  status: 'online',
  vip_only: false,
  enabled: true,
  image: null,
  ...STAMP,
  ...extra,
});

const page =
  <T,>(rows: T[]) =>
  (call: RecordedHttpCall) => {
    const p = Number(call.query.get('page') ?? 1);
    const perPage = Number(call.query.get('per_page') ?? 20);
    return { body: { data: rows.slice((p - 1) * perPage, p * perPage), meta: { page: p, per_page: perPage, total: rows.length, total_pages: Math.ceil(rows.length / perPage) } } };
  };

const LOCATIONS = [
  location(1, { name: 'Bucharest', status: 'maintenance', vip_only: true, image: 'https://cdn.example.com/ro.png' }),
  location(2, { name: 'New York', enabled: false, status: 'offline' }),
];

const REPORT = {
  locations: { created: 1, updated: 2, missing_on_panel: [{ id: 9, name: 'Closed DC', panel_id: 90 }] },
};

describe('locations list', () => {
  it('shows status, markers and thumbnails, offers edit and delete, and runs the sync with its result', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/locations',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/locations': page(LOCATIONS), 'POST /api/admin/catalog/sync/locations': { body: REPORT } },
    });
    await app.findByText('Bucharest');
    expect(app.getByText(en.status.maintenance)).toBeTruthy();
    expect(app.getByText(en.status.offline)).toBeTruthy();
    expect(app.getByText(en.markers.vip)).toBeTruthy();
    expect(app.getByText(en.markers.disabled)).toBeTruthy();
    expect(app.container.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example.com/ro.png');
    expect(app.getByRole('link', 'Edit Bucharest').getAttribute('href')).toBe('/mc-admin/locations/1/edit');
    expect(app.getByRole('link', 'Delete New York').getAttribute('href')).toBe('/mc-admin/locations/2/delete');

    const listCalls = app.httpCalls.filter((c) => c.method === 'GET').length;
    await app.click(app.getByRole('button', en.sync.button));
    await app.findByText(en.sync.done);
    expect(app.getByText('Locations: 1 added, 2 renamed, 1 no longer on the panel.')).toBeTruthy();
    expect(app.getByText('Not on the panel: Closed DC.')).toBeTruthy();
    expect(app.getByText(en.sync.review)).toBeTruthy();
    // the list is read again after the sync
    await app.waitFor(() => expect(app.httpCalls.filter((c) => c.method === 'GET').length).toBeGreaterThan(listCalls));
  });

  it('flags a location whose stored values cannot be read, naming them', async () => {
    const rows = [location(1, { name: 'Bucharest', broken: false, broken_fields: [] }), location(3, { name: 'Mangled', slots: 0, broken: true, broken_fields: ['slots'] })];
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin/locations', catalogues: { en }, session: ROOT, http: { 'GET /api/admin/locations': page(rows) } });
    await app.findByText('Mangled');
    expect(app.getByRole('note').textContent).toBe(en.markers.broken.replace('{{fields}}', 'slots'));
    expect(app.getByText('Bucharest')).toBeTruthy();
    app.unmount();
  });

  it('says why the sync failed', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/locations',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/locations': page(LOCATIONS),
        'POST /api/admin/catalog/sync/locations': { status: 503, body: { error: { code: 'PANEL_UNREACHABLE', message: 'down' } } },
      },
    });
    await app.findByText('Bucharest');
    await app.click(app.getByRole('button', en.sync.button));
    await app.findByText(en.errors.PANEL_UNREACHABLE);
  });

  it('hides the sync, create, edit and delete without their permissions, and says when there are none', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/locations',
      catalogues: { en },
      // importing locations adds locations: the other kinds' create permissions are not enough
      session: { user: { role: 4 }, permissions: ['admin.locations.list', 'admin.nests.create', 'admin.egg.create'] },
      http: { 'GET /api/admin/locations': page([]) },
    });
    await app.findByText(en.locations.empty);
    expect(app.queryByRole('button', en.sync.button)).toBeNull();
    expect(app.queryByRole('link', en.locations.create)).toBeNull();
  });
});

describe('location form', () => {
  it('checks the fields before sending, then sends the panel location picked from the panel', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/locations/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/catalog/panel-objects/locations': {
          body: {
            locations: [
              { id: 1, short: 'ro-buh', long: 'Bucharest, Romania', linked_id: 5 },
              { id: 2, short: 'us-nyc', long: null, linked_id: null },
            ],
          },
        },
        'POST /api/admin/locations': (call) => ({ status: 201, body: { location: location(7, call.body as Record<string, unknown>) } }),
        'GET /api/admin/locations': page(LOCATIONS),
      },
    });
    const picker = (await app.findByRole('combobox', en.locations.form.panelLocation)) as HTMLSelectElement;
    // the one linked already cannot be picked twice
    expect([...picker.options].find((o) => o.value === '1')?.disabled).toBe(true);
    await app.type(app.getByLabelText(en.locations.form.slots), '-3');
    await app.type(app.getByLabelText(en.form.image), 'javascript:alert(1)');
    await app.click(app.getByRole('button', en.form.create));
    await app.findByText(en.validation.pickPanel);
    expect(app.getByText(en.validation.slots)).toBeTruthy();
    expect(app.getByText(en.validation.image)).toBeTruthy();
    expect(app.httpCalls.some((c) => c.method === 'POST')).toBe(false);

    await app.type(picker, '2');
    // the panel's name fills the empty name field
    expect((app.getByLabelText(en.form.name) as HTMLInputElement).value).toBe('us-nyc');
    await app.type(app.getByLabelText(en.locations.form.slots), '40');
    await app.type(app.getByLabelText(en.form.image), '/images/us.png');
    await app.click(app.getByRole('button', en.form.create));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/locations'));
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'us-nyc',
      description: null,
      image: '/images/us.png',
      vip_only: false,
      enabled: true,
      panel_location_id: 2,
      slots: 40,
      status: 'online',
    });
  });

  it('takes a typed panel id when the panel cannot be asked, and shows the server’s field error there', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/locations/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/catalog/panel-objects/locations': { status: 409, body: { error: { code: 'PANEL_NOT_CONFIGURED', message: 'not configured' } } },
        'POST /api/admin/locations': { status: 409, body: { error: { code: 'LOCATION_LINK_TAKEN', message: 'taken', field: 'panel_location_id' } } },
      },
    });
    await app.findByText(en.errors.PANEL_NOT_CONFIGURED);
    await app.type(app.getByLabelText(en.locations.form.panelLocation), '12');
    await app.type(app.getByLabelText(en.form.name), 'Paris');
    await app.click(app.getByRole('button', en.form.create));
    await app.findByText(en.errors.LOCATION_LINK_TAKEN);
    expect(app.getByLabelText(en.locations.form.panelLocation).getAttribute('aria-invalid')).toBe('true');
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toMatchObject({ panel_location_id: 12, name: 'Paris' });
  });

  it('sends only what changed when editing', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/locations/1/edit',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/locations/1': { body: { location: LOCATIONS[0] } },
        'GET /api/admin/catalog/panel-objects/locations': { body: { locations: [{ id: 1, short: 'ro-buh', long: 'Bucharest, Romania', linked_id: 1 }] } },
        'PATCH /api/admin/locations/1': (call) => ({ body: { location: { ...LOCATIONS[0], ...(call.body as object), updated_at: '2026-01-02T00:00:00.000Z' } } }),
      },
    });
    await app.findByRole('heading', 'Edit Bucharest');
    await app.click(app.getByRole('button', en.form.save));
    await app.findByText(en.form.nothingChanged);
    await app.type(app.getByLabelText(en.locations.form.status), 'online');
    await app.click(app.getByLabelText(en.form.vipOnly));
    await app.click(app.getByRole('button', en.form.save));
    await app.waitFor(() => expect(app.httpCalls.find((c) => c.method === 'PATCH')?.body).toEqual({ status: 'online', vip_only: false }));
  });
});

describe('egg categories and eggs', () => {
  it('offers no delete for a category that still holds eggs, and points at its eggs', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/egg-categories/3/delete',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/egg-categories/3': {
          body: { category: { id: 3, name: 'Minecraft', description: null, panel_nest_id: 1, vip_only: false, enabled: true, image: null, eggs: 2, ...STAMP } },
        },
      },
    });
    await app.findByText('Minecraft cannot be deleted yet');
    expect(app.queryByRole('button', en.deleteConfirm)).toBeNull();
    expect(app.getByRole('link', en.categories.showEggs).getAttribute('href')).toBe('/mc-admin/eggs?category=3');
  });

  it('offers the panel eggs of the chosen category’s nest and sends the egg', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/eggs/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/eggs/category-choices': {
          body: {
            categories: [
              { id: 10, name: 'Minecraft', panel_nest_id: 1, enabled: true },
              { id: 11, name: 'Rust', panel_nest_id: 2, enabled: true },
            ],
          },
        },
        'GET /api/admin/catalog/panel-objects/eggs': {
          body: {
            nests: [
              {
                id: 1,
                name: 'Minecraft',
                description: null,
                linked_id: 10,
                eggs: [
                  { id: 5, nest: 1, name: 'Paper', description: 'Fast', linked_id: null },
                  { id: 6, nest: 1, name: 'Vanilla', description: null, linked_id: 99 },
                ],
              },
              { id: 2, name: 'Rust', description: null, linked_id: 11, eggs: [{ id: 7, nest: 2, name: 'Rust', description: null, linked_id: null }] },
            ],
          },
        },
        'POST /api/admin/eggs': (call) => ({ status: 201, body: { egg: { id: 1, category_name: 'Minecraft', panel_nest_id: 1, ...STAMP, ...(call.body as object) } } }),
        'GET /api/admin/eggs': page([]),
      },
    });
    const category = (await app.findByRole('combobox', en.eggs.form.category)) as HTMLSelectElement;
    await app.waitFor(() => expect(category.options.length).toBe(3));
    await app.type(category, '10');
    const egg = (await app.findByRole('combobox', en.eggs.form.panelEgg)) as HTMLSelectElement;
    await app.waitFor(() => expect([...egg.options].map((o) => o.value)).toEqual(['', '5', '6']));
    expect([...egg.options].find((o) => o.value === '6')?.disabled).toBe(true);
    await app.type(egg, '5');
    expect((app.getByLabelText(en.form.name) as HTMLInputElement).value).toBe('Paper');
    await app.click(app.getByRole('button', en.form.create));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/eggs'));
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toMatchObject({ category_id: 10, panel_egg_id: 5, name: 'Paper', description: 'Fast', enabled: true });
  });
});
