// @vitest-environment jsdom
// Installing without a restart at /mc-admin/plugins (issue 16): a root administrator uploads a built
// archive (its progress shown) and the new plugin is listed disabled with what it asks for; Rescan
// says what it found and what it refused; a disabled third-party plugin is removed keeping its
// tables unless the box is ticked. Someone without admin.root can rescan but neither upload nor remove.
import { cleanup, type RenderedPlugin } from '@orepanel/sdk/testing';
import { act } from 'react';
import { afterEach, expect, it } from 'vitest';
import { openPluginsScreen } from './screen-kit';
import en from '../locales/en.json';

afterEach(() => cleanup());

const EDITOR = { user: { role: 5, role_name: 'Editor' }, permissions: ['admin.plugins.list', 'admin.plugins.edit'] };

function notes(state: 'enabled' | 'disabled') {
  return {
    id: 'notes',
    name: 'Notes',
    description: 'Write notes.',
    version: '1.0.0',
    origin: 'third-party',
    core: false,
    state,
    enabled: state === 'enabled',
    active: state === 'enabled',
    refused_reason: null,
    failed_reason: null,
    requires: [],
    permissions: ['admin.notes.edit'],
    settings: [],
    asks: {
      permissions: [{ name: 'admin.notes.edit', description: 'Edit notes' }],
      settings: ['notes_greeting'],
      pages: [{ path: '/notes', permission: null }],
      tables: ['notes_items'],
      server: true,
    },
    removable: true,
  };
}

/** Picks `file` in the page's hidden archive input, as the browser's file chooser would. */
async function choose(app: RenderedPlugin, file: File) {
  const input = app.getByLabelText(en.install.choose) as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

it('uploads an archive as root and lists the new plugin disabled, showing what it asks for', async () => {
  let installed = false;
  const app = await openPluginsScreen({
    http: {
      'GET /api/admin/plugins': () => ({ body: { data: installed ? [notes('disabled')] : [] } }),
      'POST /api/admin/plugins/install': () => {
        installed = true;
        return { status: 201, body: { plugin: notes('disabled'), action: 'installed', previous_version: null } };
      },
    },
  });
  await app.findByText(en.plugins.empty);
  await choose(app, new File([new Uint8Array([0x1f, 0x8b, 8, 0])], 'notes-1.0.0.tgz', { type: 'application/gzip' }));
  await app.findByText('Notes 1.0.0 is installed. It is disabled: read what it asks for below, then enable it.');
  const call = app.httpCalls.find((c) => c.path === '/api/admin/plugins/install');
  expect(call?.headers['Content-Type'] ?? call?.headers['content-type']).toBe('application/gzip');
  expect(call?.body).toBeInstanceOf(Blob);
  await app.findByText('Notes');
  // disabled: what it asks for is shown open before anyone enables it
  expect(app.getByText('admin.notes.edit (Edit notes)')).toBeTruthy();
  expect(app.getByText('notes_items')).toBeTruthy();
  expect(app.getByText(en.asks.serverYes)).toBeTruthy();
  expect(app.getByRole('button', 'Enable Notes')).toBeTruthy();
});

it('says why an upload was refused, and refuses a too-large file before sending it', async () => {
  const app = await openPluginsScreen({
    http: {
      'GET /api/admin/plugins': () => ({ body: { data: [] } }),
      'POST /api/admin/plugins/install': () => ({
        status: 400,
        body: { error: { code: 'PLUGIN_ARCHIVE_REFUSED', message: 'The plugin archive is refused: "../x" points outside the plugin\'s folder.' } },
      }),
    },
  });
  await app.findByText(en.plugins.empty);
  await choose(app, new File(['x'], 'evil.tgz'));
  await app.findByText('The plugin was not installed: The plugin archive is refused: "../x" points outside the plugin\'s folder.');
  const huge = new File(['x'], 'huge.tgz');
  Object.defineProperty(huge, 'size', { value: 21 * 1024 * 1024 });
  const sent = app.httpCalls.length;
  await choose(app, huge);
  await app.findByText(/A plugin archive may be at most 20/);
  expect(app.httpCalls.length).toBe(sent);
});

it('Rescan says what it found and what it refused', async () => {
  const app = await openPluginsScreen({
    session: EDITOR,
    http: {
      'GET /api/admin/plugins': () => ({ body: { data: [notes('disabled')] } }),
      'POST /api/admin/plugins/rescan': () => ({ body: { added: ['notes'], refused: [{ id: 'odd', reason: 'its plugin.json is missing' }] } }),
    },
  });
  await app.findByText('Notes');
  // without admin.root: no upload, no removal
  expect(app.queryByRole('button', en.install.button)).toBeNull();
  expect(app.queryByRole('button', 'Remove Notes')).toBeNull();
  await app.click(app.getByRole('button', en.rescan.button));
  await app.findByText('Found: notes (disabled until you enable them). odd was refused: its plugin.json is missing');
});

it('removes a disabled plugin, keeping its tables unless the box is ticked', async () => {
  let removed = false;
  const app = await openPluginsScreen({
    http: {
      'GET /api/admin/plugins': () => ({ body: { data: removed ? [] : [notes('disabled')] } }),
      'POST /api/admin/plugins/notes/remove': () => {
        removed = true;
        return { body: { id: 'notes', dropped_tables: ['notes_items', 'op_migrations_notes'] } };
      },
    },
  });
  await app.findByText('Notes');
  await app.click(app.getByRole('button', 'Remove Notes'));
  await app.findByText('Remove Notes?');
  expect(app.getByText('Its tables: notes_items. Kept unless ticked, so a reinstall finds its data.')).toBeTruthy();
  await app.click(app.getByLabelText(en.remove.dropTables));
  await app.click(app.getByRole('button', en.remove.confirmDrop));
  await app.findByText('Notes is removed with its tables (notes_items, op_migrations_notes).');
  expect(app.httpCalls.find((c) => c.path === '/api/admin/plugins/notes/remove')?.body).toEqual({ drop_tables: true });
  await app.findByText(en.plugins.empty);
});

it('offers no removal of an enabled plugin', async () => {
  const app = await openPluginsScreen({
    http: { 'GET /api/admin/plugins': () => ({ body: { data: [notes('enabled')] } }) },
  });
  await app.findByText('Notes');
  expect(app.queryByRole('button', 'Remove Notes')).toBeNull();
  expect(app.getByRole('button', 'Disable Notes')).toBeTruthy();
});
