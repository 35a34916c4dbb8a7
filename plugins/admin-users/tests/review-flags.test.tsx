// @vitest-environment jsdom
// The anti-abuse review flags in the admin screens: a "To review" badge and a review-queue filter on
// the user list, the flags with their evidence on the user's page, and clearing one with a note
// (only with admin.users.edit; the server's refusal is shown).
import { cleanup, renderPlugin, type RecordedHttpCall } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const UUID = '00000000-0000-4000-8000-000000000007';
const MAIN = { uuid: '00000000-0000-4000-8000-000000000001', username: 'mainaccount' };

function adminUser(extra: Record<string, unknown> = {}) {
  return {
    uuid: UUID,
    username: 'suspect',
    email: 'suspect@example.com',
    first_name: 'Sus',
    last_name: 'Pect',
    avatar: null,
    background: null,
    role: 1,
    role_name: 'Default',
    verified: true,
    two_fa_enabled: false,
    banned: false,
    ban_reason: null,
    coins: 0,
    ram: 1024,
    disk: 1024,
    cpu: 100,
    ports: 2,
    databases: 1,
    backups: 5,
    server_slots: 1,
    minutes_afk: 0,
    review_flags: ['shared_device', 'vpn_detected'],
    created_at: '2025-03-01T10:00:00.000Z',
    updated_at: '2025-03-01T10:00:00.000Z',
    ...extra,
  };
}

const deviceFlag = {
  id: 11,
  kind: 'alt',
  reason: 'shared_device',
  status: 'open',
  linked_accounts: [MAIN],
  addresses: [],
  ip: '203.0.113.9',
  detail: null,
  created_at: '2025-03-02T10:00:00.000Z',
  updated_at: '2025-03-03T10:00:00.000Z',
  cleared_at: null,
  cleared_by: null,
  clear_note: null,
};
const vpnFlag = { ...deviceFlag, id: 12, kind: 'vpn', reason: 'vpn_detected', linked_accounts: [], addresses: ['198.51.100.4'], ip: '198.51.100.4', detail: 'VPN' };

const pageHandlers = (extra: Record<string, unknown> = {}) => ({
  [`GET /api/admin/users/${UUID}`]: { body: { user: adminUser() } },
  [`GET /api/admin/users/${UUID}/activity`]: { body: { data: [], meta: { page: 1, per_page: 10, total: 0, total_pages: 0 } } },
  [`GET /api/admin/users/${UUID}/transactions`]: { body: { data: [], meta: { page: 1, per_page: 10, total: 0, total_pages: 0 } } },
  [`GET /api/admin/users/${UUID}/flags`]: { body: { data: [deviceFlag, vpnFlag] } },
  ...extra,
});

/** The clear form of a flag (forms are found by their accessible name). */
const clearForm = (reason: string) => document.querySelector<HTMLFormElement>(`form[aria-label="Clear the flag: ${reason}"]`);

describe('review flags in the admin screens', () => {
  it('marks flagged accounts on the user list and asks the server for the review queue', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/users',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/users': (call) => {
          const flaggedOnly = call.query.get('flagged') === 'true';
          const users = flaggedOnly ? [adminUser()] : [adminUser({ uuid: MAIN.uuid, username: MAIN.username, review_flags: [] }), adminUser()];
          return { body: { data: users, meta: { page: 1, per_page: 20, total: users.length, total_pages: 1 } } };
        },
      },
    });
    await app.findByText('suspect');
    expect(app.getByText(MAIN.username)).toBeTruthy();
    // one badge: only the flagged account has one
    expect(app.getByText(en.reviewFlags.badge)).toBeTruthy();

    await app.click(app.getByLabelText(en.reviewFlags.onlyFlagged));
    await app.waitFor(() => expect(app.queryByText(MAIN.username)).toBeNull());
    expect(app.httpCalls.some((c) => c.path === '/api/admin/users' && c.query.get('flagged') === 'true')).toBe(true);
  });

  it('shows the flags with their evidence and clears one with a note', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: `/mc-admin/users/${UUID}/edit`,
      catalogues: { en },
      session: ROOT,
      http: pageHandlers({
        [`POST /api/admin/users/${UUID}/flags/11/clear`]: (call: RecordedHttpCall) => ({
          body: {
            flag: {
              ...deviceFlag,
              status: 'cleared',
              cleared_at: '2025-03-04T10:00:00.000Z',
              cleared_by: { uuid: 'x', username: 'rootadmin' },
              clear_note: (call.body as { note?: string }).note ?? null,
            },
          },
        }),
      }),
    });
    const device = await app.findByRole('listitem', en.reviewFlags.reason.sharedDevice);
    expect(device.textContent).toContain(en.reviewFlags.open);
    expect(device.querySelector(`a[href="/mc-admin/users/${MAIN.uuid}/edit"]`)?.textContent).toBe(MAIN.username);
    const vpn = app.getByRole('listitem', en.reviewFlags.reason.vpnDetected);
    expect(vpn.textContent).toContain('Address: 198.51.100.4');
    expect(vpn.textContent).toContain('Checker: VPN');

    const form = clearForm(en.reviewFlags.reason.sharedDevice)!;
    await app.type(form.querySelector('input[name="note"]')!, 'Siblings sharing a PC');
    await app.click(form.querySelector('button[type="submit"]')!);
    await app.waitFor(() => expect(device.textContent).toContain('Cleared by rootadmin'));
    expect(device.textContent).toContain('Siblings sharing a PC');
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({ note: 'Siblings sharing a PC' });
    // the other flag is still open with its own clear form
    expect(clearForm(en.reviewFlags.reason.vpnDetected)).not.toBeNull();
    expect(clearForm(en.reviewFlags.reason.sharedDevice)).toBeNull();
  });

  it("shows the server's refusal of a clear", async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: `/mc-admin/users/${UUID}/edit`,
      catalogues: { en },
      session: ROOT,
      http: pageHandlers({
        [`POST /api/admin/users/${UUID}/flags/12/clear`]: { status: 409, body: { error: { code: 'FLAG_ALREADY_CLEARED', message: 'This flag has already been cleared.' } } },
      }),
    });
    await app.findByRole('listitem', en.reviewFlags.reason.vpnDetected);
    const form = clearForm(en.reviewFlags.reason.vpnDetected)!;
    await app.click(form.querySelector('button[type="submit"]')!);
    await app.waitFor(() => expect(form.textContent).toContain('This flag has already been cleared.'));
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({});
  });

  it('lets an administrator without admin.users.edit read the flags but not clear them', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: `/mc-admin/users/${UUID}/edit`,
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.users.list'] },
      http: pageHandlers(),
    });
    await app.findByRole('listitem', en.reviewFlags.reason.sharedDevice);
    expect(clearForm(en.reviewFlags.reason.sharedDevice)).toBeNull();
    expect(app.queryByRole('button', en.reviewFlags.clear)).toBeNull();
  });

  it('says when there is nothing to review', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: `/mc-admin/users/${UUID}/edit`,
      catalogues: { en },
      session: ROOT,
      http: pageHandlers({ [`GET /api/admin/users/${UUID}/flags`]: { body: { data: [] } } }),
    });
    expect(await app.findByText(en.reviewFlags.none)).toBeTruthy();
  });
});
