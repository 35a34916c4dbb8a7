// @vitest-environment jsdom
// The image host's pages: /images shows the quota, the grid (copy link, delete after a confirm), an
// empty state and a load error; a chosen image goes up as a form in the field "file" and the grid
// reloads. /images/config keeps the key hidden until revealed, rotates it after a confirm and saves
// the embed settings (a colour that is no #rrggbb is not sent). The public report form posts the
// reason; the administrators' queue resolves or dismisses after a confirm, and hides both without
// admin.image.reports.edit.
import { cleanup, renderPlugin, type HttpHandlers, type RenderedPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import en from '../locales/en.json';
import manifest from '../plugin.json';

afterEach(() => cleanup());

const CUSTOMER = { user: { role: 1, role_name: 'Default' }, permissions: [] };
const settings = { image_hosting_enabled: true };
const usage = { used_bytes: 512 * 1024, quota_bytes: 2 * 1024 * 1024, max_bytes: 1024 * 1024, types: ['image/png', 'image/jpeg'], coins_per_upload: 0 };
const image = (id: number, name: string) => ({
  id,
  name,
  original_name: `shot-${id}.png`,
  type: 'image/png',
  size: 2048,
  created_at: '2026-11-20T10:00:00.000Z',
  url: `https://panel.test/api/i/${name}`,
});
const page = (data: unknown[]) => ({ body: { data, meta: { page: 1, per_page: 24, total: data.length, total_pages: 1 }, usage } });

const render = (route: string, http: HttpHandlers, session: unknown = CUSTOMER) =>
  renderPlugin(plugin, { manifest, route, settings, catalogues: { en }, http, session: session as never });

async function choose(app: RenderedPlugin, files: File[]) {
  const input = app.container.querySelector<HTMLInputElement>('[data-testid="file-picker-input"]') as HTMLInputElement;
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await app.waitFor(() => undefined);
}

const deleteButtons = (app: RenderedPlugin) => [...app.container.querySelectorAll('button')].filter((button) => button.textContent?.trim() === en.list.delete);

describe('/images', () => {
  it('shows the quota and the grid, copies nothing by itself, and deletes after a confirm', async () => {
    let rows = [image(1, 'AAAAAAAAAAAAAAAA'), image(2, 'BBBBBBBBBBBBBBBB')];
    const app = await render('/images', {
      'GET /api/user/images': () => page(rows),
      'DELETE /api/user/images/:id': (call) => {
        rows = rows.filter((row) => String(row.id) !== call.params.id);
        return { body: { success: true } };
      },
    });
    await app.findByText('shot-1.png');
    expect(app.getByText('512 kB of 2 MB used')).toBeTruthy();
    expect(app.getByText('1.5 MB left')).toBeTruthy();
    const thumb = app.container.querySelector('img[alt="shot-1.png"]');
    expect(thumb?.getAttribute('src')).toBe('/api/i/AAAAAAAAAAAAAAAA?raw=true');
    expect(app.container.querySelector('a[href="https://panel.test/api/i/AAAAAAAAAAAAAAAA"]')).not.toBeNull();

    await app.click(deleteButtons(app)[0] as Element);
    await app.answerDialog(en.delete.title, 'cancel');
    expect(app.httpCalls.some((call) => call.method === 'DELETE')).toBe(false);
    await app.click(deleteButtons(app)[0] as Element);
    await app.answerDialog(en.delete.title, 'confirm');
    await app.waitFor(() => expect(app.queryByText('shot-1.png')).toBeNull());
    expect(app.httpCalls.find((call) => call.method === 'DELETE')?.path).toBe('/api/user/images/1');
  });

  it('uploads a chosen image as a form in the field "file" and reloads the grid', async () => {
    let rows: ReturnType<typeof image>[] = [];
    const app = await render('/images', {
      'GET /api/user/images': () => page(rows),
      'POST /api/user/images': () => {
        rows = [image(3, 'CCCCCCCCCCCCCCCC')];
        return { status: 201, body: { image: rows[0], url: rows[0]?.url } };
      },
    });
    await app.findByText(en.list.emptyTitle);
    await choose(app, [new File([new Uint8Array(10)], 'notes.txt', { type: 'text/plain' }), new File([new Uint8Array(10)], 'cat.png', { type: 'image/png' })]);
    await app.findByText('notes.txt is not an accepted kind of file (png, jpg, jpeg).');
    await app.click(app.getByRole('button', en.upload.send));
    await app.findByText('shot-3.png');
    const form = app.httpCalls.find((call) => call.method === 'POST')?.body;
    expect(form).toBeInstanceOf(FormData);
    expect((form as FormData).getAll('file').map((f) => (f as File).name)).toEqual(['cat.png']);
  });

  it("shows the server's refusal in the customer's words", async () => {
    const app = await render('/images', {
      'GET /api/user/images': page([]),
      'POST /api/user/images': { status: 409, body: { error: { code: 'QUOTA_EXCEEDED', message: 'no' } } },
    });
    await app.findByText(en.list.emptyTitle);
    await choose(app, [new File([new Uint8Array(10)], 'cat.png', { type: 'image/png' })]);
    await app.click(app.getByRole('button', en.upload.send));
    await app.findByText(en.errors.QUOTA_EXCEEDED);
  });

  it('shows a load error with a retry', async () => {
    let fail = true;
    const app = await render('/images', {
      'GET /api/user/images': () => (fail ? { status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'Something went wrong.' } } } : page([])),
    });
    const retry = await app.findByRole('button', /Try again|Retry/);
    fail = false;
    await app.click(retry);
    await app.findByText(en.list.emptyTitle);
  });
});

describe('/images/config', () => {
  it('keeps the key hidden until revealed, rotates it after a confirm, and saves the embed settings', async () => {
    const app = await render('/images/config', {
      'GET /api/user/images/key': { body: { key: 'ohk_firstKeyfirstKeyfirstKeyfirstKey' } },
      'POST /api/user/images/key/rotate': { body: { key: 'ohk_secondKeysecondKeysecondKeyseco' } },
      'GET /api/user/images/embed': { body: { enabled: false, title: '', description: '', color: '#5865f2' } },
      'PUT /api/user/images/embed': (call) => ({ body: call.body }),
    });
    await app.findByText(en.key.title);
    expect(app.queryByText(/ohk_/)).toBeNull();
    expect(app.httpCalls.some((call) => call.path === '/api/user/images/key')).toBe(false);
    await app.click(app.getByRole('button', en.key.reveal));
    await app.findByText('ohk_firstKeyfirstKeyfirstKeyfirstKey');
    await app.click(app.getByRole('button', en.key.hide));
    expect(app.queryByText(/ohk_/)).toBeNull();

    await app.click(app.getByRole('button', en.key.rotate));
    await app.answerDialog(en.key.rotateTitle, 'confirm');
    await app.findByText('ohk_secondKeysecondKeysecondKeyseco');
    expect(app.container.querySelector('a[href="/api/user/images/sharex"]')).not.toBeNull();

    await app.waitFor(() => app.getByLabelText(en.embed.enabled));
    await app.click(app.getByLabelText(en.embed.enabled));
    await app.type(app.getByLabelText(en.embed.cardTitle), 'My shots');
    await app.type(app.getByLabelText(en.embed.color), 'red');
    await app.findByText(en.embed.colorInvalid);
    expect((app.getByRole('button', en.embed.save) as HTMLButtonElement).disabled).toBe(true);
    await app.type(app.getByLabelText(en.embed.color), '#ff0066');
    await app.click(app.getByRole('button', en.embed.save));
    await app.waitFor(() => expect(app.httpCalls.some((call) => call.method === 'PUT')).toBe(true));
    expect(app.httpCalls.find((call) => call.method === 'PUT')?.body).toEqual({ enabled: true, title: 'My shots', description: '', color: '#ff0066' });
  });
});

describe('the report form and the reports queue', () => {
  it('posts a report without a session', async () => {
    const app = await render('/images/report/AAAAAAAAAAAAAAAA', { 'POST /api/i/:name/report': { status: 201, body: { success: true } } }, null);
    await app.findByText(en.report.description);
    await app.type(app.getByLabelText(en.report.reason), 'spam');
    await app.type(app.getByLabelText(en.report.details), 'ads everywhere');
    await app.click(app.getByRole('button', en.report.send));
    await app.waitFor(() => expect(app.container.textContent).toContain(en.report.thanks));
    const sent = app.httpCalls.find((call) => call.method === 'POST');
    expect(sent?.path).toBe('/api/i/AAAAAAAAAAAAAAAA/report');
    expect(sent?.body).toEqual({ reason: 'spam', details: 'ads everywhere' });
  });

  it('refuses a link that is not an image name', async () => {
    const app = await render('/images/report/nope', {}, null);
    await app.findByText(en.report.unknown);
    expect(app.queryByRole('button', en.report.send)).toBeNull();
  });

  const report = {
    id: 7,
    image_name: 'AAAAAAAAAAAAAAAA',
    image_url: '/api/i/AAAAAAAAAAAAAAAA?raw=true',
    image_present: true,
    owner: 'steve',
    reason: 'spam',
    details: 'ads',
    status: 'pending',
    created_at: '2026-11-20T10:00:00.000Z',
    handled_at: null,
  };
  const queue = { body: { data: [report], meta: { page: 1, per_page: 20, total: 1, total_pages: 1 } } };

  it('resolves a report after a confirm', async () => {
    const app = await render(
      '/mc-admin/image-reports',
      { 'GET /api/admin/image-reports': queue, 'POST /api/admin/image-reports/:id/resolve': { body: { success: true } } },
      { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.image.reports.list', 'admin.image.reports.edit'] },
    );
    await app.findByText('steve');
    await app.click(app.getByRole('button', en.admin.resolve.button));
    await app.answerDialog(en.admin.resolve.title, 'confirm');
    await app.waitFor(() => expect(app.httpCalls.some((call) => call.path === '/api/admin/image-reports/7/resolve')).toBe(true));
  });

  it('shows no actions without admin.image.reports.edit', async () => {
    const app = await render(
      '/mc-admin/image-reports',
      { 'GET /api/admin/image-reports': queue },
      { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.image.reports.list'] },
    );
    await app.findByText('steve');
    expect(app.queryByRole('button', en.admin.resolve.button)).toBeNull();
    expect(app.queryByRole('button', en.admin.dismiss.button)).toBeNull();
  });
});
