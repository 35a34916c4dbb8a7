// @vitest-environment jsdom
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };

describe('settings', () => {
  const groups = {
    groups: [
      {
        id: 'general',
        label: 'General',
        settings: [
          { key: 'app_name', type: 'string', label: 'Application name', value: 'Orepanel', default: 'Orepanel', secret: false, public: true, updated_at: null },
          { key: 'default_ram', type: 'number', label: 'Memory', value: 1024, default: 1024, min: 0, secret: false, public: true, updated_at: null },
        ],
      },
      {
        id: 'mail',
        label: 'Mail',
        settings: [{ key: 'smtp_pass', type: 'string', label: 'SMTP password', value: { set: true }, default: null, secret: true, public: false, updated_at: null }],
      },
    ],
  };

  it('never shows a secret, sends it only when replaced, and shows server field errors on the field', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/settings',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/settings': { body: groups },
        'PATCH /api/admin/settings': (call) => {
          const values = (call.body as { values: Record<string, unknown> }).values;
          if (values.app_name === 'bad') return { status: 400, body: { error: { code: 'VALIDATION_ERROR', message: 'app_name must be text.', field: 'app_name' } } };
          return { body: groups };
        },
      },
    });
    await app.findByRole('tab', 'Mail');
    const secret = app.getByLabelText(/SMTP password/) as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(secret.type).toBe('password');
    expect(app.getByText('set')).toBeTruthy();

    await app.type(app.getByLabelText(/Application name/), 'My panel');
    await app.click(app.getByRole('button', 'Save changes'));
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(app.httpCalls.find((c) => c.method === 'PATCH')?.body).toEqual({ values: { app_name: 'My panel' } });

    await app.type(app.getByLabelText(/SMTP password/), 'n3w-secret');
    await app.type(app.getByLabelText(/Memory/), '-1');
    await app.click(app.getByRole('button', 'Save changes'));
    await app.findByText('Enter 0 or more.');

    await app.type(app.getByLabelText(/Memory/), '2048');
    await app.type(app.getByLabelText(/Application name/), 'bad');
    await app.click(app.getByRole('button', 'Save changes'));
    await app.findByText('app_name must be text.');
    expect(app.getByLabelText(/Application name/).getAttribute('aria-invalid')).toBe('true');
    expect(app.httpCalls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({ values: { app_name: 'bad', default_ram: 2048, smtp_pass: 'n3w-secret' } });
  });

  it('says on the features tab that join for rewards and link for rewards keep their own switches, with the way there', async () => {
    const features = {
      groups: [
        {
          id: 'features',
          label: 'Features',
          settings: [{ key: 'store_enabled', type: 'boolean', label: 'Store', value: true, default: true, secret: false, public: true, updated_at: null }],
        },
      ],
    };
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin/settings', catalogues: { en }, session: ROOT, http: { 'GET /api/admin/settings': { body: features } } });
    await app.findByText(/keep their own switches/);
    expect(app.getByRole('link', en.ownSwitches.j4r).getAttribute('href')).toBe('/mc-admin/plugins/earn-j4r/config');
    expect(app.getByRole('link', en.ownSwitches.links).getAttribute('href')).toBe('/mc-admin/plugins/earn-links/config');
    cleanup();
    // without admin.plugins.edit the note still says so, without links it could not follow
    const viewer = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/settings',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.settings.view'] },
      http: { 'GET /api/admin/settings': { body: features } },
    });
    await viewer.findByText(/keep their own switches/);
    expect(viewer.queryByRole('link', en.ownSwitches.j4r)).toBeNull();
  });

  it('is read-only without admin.settings.edit', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/settings',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.settings.view'] },
      http: { 'GET /api/admin/settings': { body: groups } },
    });
    await app.findByText('You may look at the settings but not change them: that needs the permission to edit settings.');
    expect(app.queryByRole('button', 'Save changes')).toBeNull();
    expect((app.getByLabelText(/Application name/) as HTMLInputElement).disabled).toBe(true);
  });
});
