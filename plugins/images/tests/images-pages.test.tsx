// @vitest-environment jsdom
// The image library's pages: the grid (thumbnails, names, sizes, a copy button, delete by
// permission, the empty and failed states), the upload (name and one picture checked by the
// published limits, sent as a form; a taken name lands on the name field), the delete page (asks
// first; a picture in use lists what shows it, linked, and offers no delete) — and the picker the
// server catalog's forms show while this plugin runs: its pictures as thumbnails, picking one
// fills the image address, and without this plugin the form has no picker at all.
import { cleanup, renderPlugin, type RecordedHttpCall, type RenderedPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import catalogPlugin from '../../server-catalog/client';
import catalogEn from '../../server-catalog/locales/en.json';
import catalogManifest from '../../server-catalog/plugin.json';
import plugin from '../client';
import en from '../locales/en.json';
import manifest from '../plugin.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const KEY = 'AAAAAAAAAAAAAAAAAAAAAA';

const image = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Picture ${id}`,
  url: `/api/library-images/${String(id).padStart(22, 'B')}.png`,
  type: 'image/png',
  size: 2048,
  width: 64,
  height: 32,
  created_by: 1,
  created_at: '2026-01-01T12:00:00.000Z',
  ...extra,
});

const page =
  <T,>(rows: T[]) =>
  (call: RecordedHttpCall) => {
    const search = (call.query.get('search') ?? '').toLowerCase();
    const found = rows.filter((row) =>
      String((row as { name: string }).name)
        .toLowerCase()
        .includes(search),
    );
    return { body: { data: found, meta: { page: 1, per_page: 24, total: found.length, total_pages: 1 } } };
  };

async function choose(app: RenderedPlugin, files: File[]) {
  const input = app.container.querySelector<HTMLInputElement>('[data-testid="file-picker-input"]') as HTMLInputElement;
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await app.waitFor(() => undefined);
}

describe('the library (/mc-admin/images)', () => {
  it('shows each picture as a thumbnail with its name, size and pixel size, a copy button and delete', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/images',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/images': page([image(1, { name: 'Spawn map', url: `/api/library-images/${KEY}.png` }), image(2, { width: null, height: null })]) },
    });
    await app.findByText('Spawn map');
    expect(app.container.querySelector('img')?.getAttribute('src')).toBe(`/api/library-images/${KEY}.png`);
    expect(app.getByText('2 kB · 64×32')).toBeTruthy();
    expect(app.getByText('2 kB')).toBeTruthy();
    expect(app.getByRole('link', 'Delete Spawn map').getAttribute('href')).toBe('/mc-admin/images/1/delete');
    expect(app.getByRole('link', en.list.create).getAttribute('href')).toBe('/mc-admin/images/create');
    expect([...app.container.querySelectorAll('button')].filter((button) => button.textContent === en.list.copy)).toHaveLength(2);
  });

  it('offers neither upload nor delete without their permissions, and says when the library is empty or a search finds nothing', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/images',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.images.list'] },
      http: { 'GET /api/admin/images': page([]) },
    });
    await app.findByText(en.list.empty);
    expect(app.queryByRole('link', en.list.create)).toBeNull();
    await app.type(app.getByLabelText(en.list.search), 'zzz');
    await app.findByText(en.list.noMatch);
  });

  it('says the library could not be loaded and loads it again on request', async () => {
    let fail = true;
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/images',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/images': (call) => (fail ? { status: 500, body: { error: { code: 'SERVER_ERROR', message: 'down' } } } : page([image(3)])(call)) },
    });
    await app.findByText(en.list.loadFailed);
    fail = false;
    await app.click(app.getByRole('button', 'Try again'));
    await app.findByText('Picture 3');
  });
});

describe('uploading (/mc-admin/images/create)', () => {
  const open = (post: (call: RecordedHttpCall) => { status: number; body: unknown }) =>
    renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/images/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/images/limits': { body: { max_bytes: 1024, types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] } },
        'POST /api/admin/images': post,
        'GET /api/admin/images': page([]),
      },
    });

  it('asks for a name and a picture, refuses an SVG or a too large file by the limits, then sends the form', async () => {
    const app = await open(() => ({ status: 201, body: { image: image(5, { name: 'Lobby' }) } }));
    await app.findByRole('button', en.create.submit);
    await app.click(app.getByRole('button', en.create.submit));
    await app.findByText(en.create.nameRequired);
    await app.type(app.getByLabelText(en.create.name), 'Lobby');
    await app.click(app.getByRole('button', en.create.submit));
    await app.findByText(en.create.fileRequired);
    expect(app.httpCalls.some((call) => call.method === 'POST')).toBe(false);

    await choose(app, [new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' })]);
    await app.findByText(/logo\.svg is not an accepted kind of file/);
    await choose(app, [new File([new Uint8Array(4096)], 'huge.png', { type: 'image/png' })]);
    await app.findByText(/huge\.png is larger than/);
    await choose(app, [new File([new Uint8Array(16)], 'lobby.png', { type: 'image/png' })]);
    await app.click(app.getByRole('button', en.create.submit));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/images'));
    const sent = app.httpCalls.find((call) => call.method === 'POST')?.body as FormData;
    expect(sent).toBeInstanceOf(FormData);
    expect(sent.get('name')).toBe('Lobby');
    expect((sent.get('file') as File).name).toBe('lobby.png');
  });

  it('puts the server refusing a taken name on the name field', async () => {
    const app = await open(() => ({ status: 409, body: { error: { code: 'IMAGE_NAME_TAKEN', message: 'taken', field: 'name' } } }));
    await app.findByRole('button', en.create.submit);
    await app.type(app.getByLabelText(en.create.name), 'Lobby');
    await choose(app, [new File([new Uint8Array(16)], 'lobby.png', { type: 'image/png' })]);
    await app.click(app.getByRole('button', en.create.submit));
    await app.findByText(en.errors.IMAGE_NAME_TAKEN);
    expect(app.location().pathname).toBe('/mc-admin/images/create');
  });
});

describe('deleting (/mc-admin/images/:id/delete)', () => {
  it('lists what shows a picture in use, linked to their edit screens, and offers no delete', async () => {
    const users = [
      { kind: 'location', id: 4, name: 'Frankfurt' },
      { kind: 'egg', id: 9, name: 'Paper' },
    ];
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/images/1/delete',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/images/1': { body: { image: image(1), used_by: users } } },
    });
    await app.findByText('Picture 1 is in use');
    expect(app.getByRole('link', 'Location Frankfurt').getAttribute('href')).toBe('/mc-admin/locations/4/edit');
    expect(app.getByRole('link', 'Egg Paper').getAttribute('href')).toBe('/mc-admin/eggs/9/edit');
    expect(app.queryByRole('button', en.delete.confirm)).toBeNull();
  });

  it('asks first, deletes, and shows the users when the server refuses because one appeared meanwhile', async () => {
    let used: unknown[] = [];
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/images/1/delete',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/images/1': () => ({ body: { image: image(1), used_by: used } }),
        'DELETE /api/admin/images/1': () => ({ status: 409, body: { error: { code: 'IMAGE_IN_USE', message: 'in use' } } }),
      },
    });
    await app.findByText('Delete Picture 1?');
    used = [{ kind: 'category', id: 2, name: 'Minecraft' }];
    await app.click(app.getByRole('button', en.delete.confirm));
    await app.findByText('Picture 1 is in use');
    expect(app.getByRole('link', 'Egg category Minecraft').getAttribute('href')).toBe('/mc-admin/egg-categories/2/edit');
  });
});

describe('the picker in the server catalog’s forms', () => {
  const catalogHttp = {
    'GET /api/admin/catalog/panel-objects/locations': { body: { locations: [{ id: 2, short: 'us-nyc', long: null, linked_id: null }] } },
    'POST /api/admin/locations': (call: RecordedHttpCall) => ({ status: 201, body: { location: { id: 7, ...(call.body as object) } } }),
    'GET /api/admin/locations': { body: { data: [], meta: { page: 1, per_page: 20, total: 0, total_pages: 0 } } },
  };

  it('shows the library’s pictures as thumbnails; picking one fills the address the location is saved with', async () => {
    const app = await renderPlugin(catalogPlugin, {
      manifest: catalogManifest,
      route: '/mc-admin/locations/create',
      catalogues: { en: catalogEn },
      session: ROOT,
      alongside: [{ plugin, manifest }],
      http: { ...catalogHttp, 'GET /api/admin/images': page([image(1, { name: 'Frankfurt skyline', url: `/api/library-images/${KEY}.png` }), image(2, { name: 'Moon' })]) },
    });
    await app.click(await app.findByRole('button', 'Choose from the library'));
    await app.type(app.getByLabelText('Search pictures'), 'frank');
    const pick = await app.findByRole('button', 'Use Frankfurt skyline');
    await app.waitFor(() => expect(app.queryByRole('button', 'Use Moon')).toBeNull());
    expect(pick.querySelector('img')?.getAttribute('src')).toBe(`/api/library-images/${KEY}.png`);
    await app.click(pick);
    expect((app.getByLabelText(catalogEn.form.image) as HTMLInputElement).value).toBe(`/api/library-images/${KEY}.png`);

    await app.type(await app.findByRole('combobox', catalogEn.locations.form.panelLocation), '2');
    await app.type(app.getByLabelText(catalogEn.locations.form.slots), '10');
    await app.click(app.getByRole('button', catalogEn.form.create));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/locations'));
    expect(app.httpCalls.find((call) => call.method === 'POST')?.body).toMatchObject({ image: `/api/library-images/${KEY}.png`, slots: 10 });
  });

  it('still takes a typed address, says when the library cannot be read, and is gone without the library or its permission', async () => {
    const app = await renderPlugin(catalogPlugin, {
      manifest: catalogManifest,
      route: '/mc-admin/locations/create',
      catalogues: { en: catalogEn },
      session: ROOT,
      alongside: [{ plugin, manifest }],
      http: { ...catalogHttp, 'GET /api/admin/images': { status: 500, body: { error: { code: 'SERVER_ERROR', message: 'down' } } } },
    });
    await app.click(await app.findByRole('button', 'Choose from the library'));
    await app.findByText('The library could not be loaded; an address still works.');
    await app.type(app.getByLabelText(catalogEn.form.image), 'https://cdn.example.com/a.png');
    expect((app.getByLabelText(catalogEn.form.image) as HTMLInputElement).value).toBe('https://cdn.example.com/a.png');
    app.unmount();

    const noPermission = await renderPlugin(catalogPlugin, {
      manifest: catalogManifest,
      route: '/mc-admin/locations/create',
      catalogues: { en: catalogEn },
      session: { user: { role: 4 }, permissions: ['admin.locations.create', 'admin.locations.list'] },
      alongside: [{ plugin, manifest }],
      http: catalogHttp,
    });
    await noPermission.findByRole('button', catalogEn.form.create);
    expect(noPermission.queryByRole('button', 'Choose from the library')).toBeNull();
    noPermission.unmount();

    const alone = await renderPlugin(catalogPlugin, {
      manifest: catalogManifest,
      route: '/mc-admin/locations/create',
      catalogues: { en: catalogEn },
      session: ROOT,
      http: catalogHttp,
    });
    await alone.findByRole('button', catalogEn.form.create);
    expect(alone.queryByRole('button', 'Choose from the library')).toBeNull();
  });
});
