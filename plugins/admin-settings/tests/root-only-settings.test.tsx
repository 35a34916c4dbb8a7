// @vitest-environment jsdom
// /mc-admin/settings with root-only settings (issue 9, defect 4): a settings editor who is not root
// sees them read-only with the reason, and never sends them; admin.root edits them as any other.
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const setting = (key: string, label: string, type: string, value: string, rootOnly: boolean, editable: boolean) => ({
  key,
  type,
  label,
  value,
  default: '',
  secret: false,
  public: false,
  root_only: rootOnly,
  editable,
  updated_at: null,
});
const groups = (asRoot: boolean) => ({
  groups: [
    {
      id: 'general',
      label: 'General',
      settings: [setting('app_url', 'Public address', 'url', 'https://panel.example.com', true, asRoot), setting('company_name', 'Company name', 'string', 'Ore', false, true)],
    },
    { id: 'appearance', label: 'Appearance', settings: [setting('custom_js', 'Custom JavaScript', 'text', '', true, asRoot)] },
  ],
});

describe('root-only settings', () => {
  it('are read-only, with the reason, to a settings editor who is not root', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/settings',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.settings.view', 'admin.settings.edit'] },
      http: { 'GET /api/admin/settings': { body: groups(false) }, 'PATCH /api/admin/settings': { body: groups(false) } },
    });
    const address = (await app.waitFor(() => app.getByLabelText(/Public address/))) as HTMLInputElement;
    expect(address.disabled).toBe(true);
    expect(app.getByText('Only a root administrator can change this: it decides where links, requests and secrets are sent.')).toBeTruthy();
    expect(address.labels?.[0]?.textContent).toContain('root only');
    expect((app.getByLabelText(/Company name/) as HTMLInputElement).labels?.[0]?.textContent).not.toContain('root only');
    // the rest of the form stays editable, and a save sends only what may change
    expect((app.getByLabelText(/Company name/) as HTMLInputElement).disabled).toBe(false);
    expect(app.queryByText('You may look at the settings but not change them: that needs the permission to edit settings.')).toBeNull();
    await app.type(app.getByLabelText(/Company name/), 'Ore Hosting');
    await app.click(app.getByRole('button', 'Save changes'));
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(app.httpCalls.find((c) => c.method === 'PATCH')?.body).toEqual({ values: { company_name: 'Ore Hosting' } });

    await app.click(app.getByRole('tab', 'Appearance'));
    expect(((await app.waitFor(() => app.getByLabelText(/Custom JavaScript/))) as HTMLTextAreaElement).disabled).toBe(true);
    expect(app.getByText("Only a root administrator can change this: its code runs in every visitor's browser.")).toBeTruthy();
  });

  it('are editable by admin.root, still marked', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/settings',
      catalogues: { en },
      session: { user: { role: 8 }, permissions: ['admin.root'] },
      http: { 'GET /api/admin/settings': { body: groups(true) } },
    });
    const address = (await app.waitFor(() => app.getByLabelText(/Public address/))) as HTMLInputElement;
    expect(address.disabled).toBe(false);
    expect(address.labels?.[0]?.textContent).toContain('root only');
    expect(app.queryByText('Only a root administrator can change this: it decides where links, requests and secrets are sent.')).toBeNull();
  });
});
