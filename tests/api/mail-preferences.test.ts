// GET/PUT /api/user/mail-preferences on every dialect: the enabled plugins' declared kinds of mail with
// the account's own choices (the declared default until it chooses); only declared keys are taken
// (400, nothing stored, otherwise); one account's choice is not another's; a disabled plugin's
// preference is neither listed nor accepted; and the filter plugins send by keeps only those who accept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';
import { MailPreferences } from '../../server/mail/mail-preferences';

const URL = '/api/user/mail-preferences';
const ANNOUNCEMENTS = { plugin: 'announcements', key: 'announcements' };

describe.each(testDialects())('mail preferences on %s', (dialect) => {
  let panel: TestPanel;
  let ana: SignedInUser;
  let ben: SignedInUser;

  const call = (who: SignedInUser | null, method: 'GET' | 'PUT', payload?: unknown) =>
    panel.app.inject({ method, url: URL, payload: payload as Record<string, unknown> | undefined, headers: who ? { cookie: who.cookie } : {} });
  const accepts = async (who: SignedInUser) =>
    ((await call(who, 'GET')).json().preferences as { plugin: string; key: string; accepts: boolean }[]).find((p) => p.plugin === 'announcements')?.accepts;
  const preferences = () =>
    new MailPreferences(panel.services.database.db, () => panel.services.plugins.list().flatMap((p) => (panel.services.plugins.isActive(p.manifest.id) ? [p.manifest] : [])));

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    ana = await userWithRole(panel, 1);
    ben = await userWithRole(panel, 1);
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('lists the declared preference with its labels and the default until the account chooses', async () => {
    const res = await call(ana, 'GET');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const listed = res.json().preferences.find((p: { plugin: string }) => p.plugin === 'announcements');
    expect(listed).toMatchObject({ ...ANNOUNCEMENTS, accepts: true });
    expect(Object.keys(listed.label).sort()).toEqual(['de', 'en', 'es', 'fr', 'md', 'ro']);
  });

  it('stores a choice for this account only and answers the new list', async () => {
    const res = await call(ana, 'PUT', { preferences: [{ ...ANNOUNCEMENTS, accepts: false }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().preferences.find((p: { plugin: string }) => p.plugin === 'announcements').accepts).toBe(false);
    expect(await accepts(ana)).toBe(false);
    expect(await accepts(ben)).toBe(true);
    // choosing again replaces the choice (no duplicate row on any dialect)
    expect((await call(ana, 'PUT', { preferences: [{ ...ANNOUNCEMENTS, accepts: true }] })).statusCode).toBe(200);
    expect(await accepts(ana)).toBe(true);
    await call(ana, 'PUT', { preferences: [{ ...ANNOUNCEMENTS, accepts: false }] });
  });

  it('keeps only the accounts that accept, by choice or by default, in the given order', async () => {
    expect(await preferences().accepting('announcements', 'announcements', [ben.id, ana.id])).toEqual([ben.id]);
    expect(await preferences().accepting('announcements', 'announcements', [])).toEqual([]);
    await expect(preferences().accepting('announcements', 'newsletter', [ben.id])).rejects.toThrow(/does not declare/);
    await expect(preferences().accepting('tickets', 'announcements', [ben.id])).rejects.toThrow(/does not declare/);
  });

  it('refuses keys no enabled plugin declares and malformed bodies with 400, storing nothing', async () => {
    const before = await accepts(ben);
    const refused = [
      { preferences: [{ plugin: 'announcements', key: 'newsletter', accepts: false }] },
      { preferences: [{ plugin: 'tickets', key: 'announcements', accepts: false }] },
      // a known one with an unknown one: all or nothing
      {
        preferences: [
          { ...ANNOUNCEMENTS, accepts: false },
          { plugin: 'nope', key: 'x', accepts: false },
        ],
      },
      { preferences: [] },
      { preferences: [{ ...ANNOUNCEMENTS, accepts: 'no' }] },
      { preferences: [{ ...ANNOUNCEMENTS }] },
      { preferences: [{ ...ANNOUNCEMENTS, accepts: false, extra: 1 }] },
      { preferences: [{ plugin: 'a'.repeat(65), key: 'announcements', accepts: false }] },
      {},
    ];
    for (const body of refused) {
      const res = await call(ben, 'PUT', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toEqual(expect.any(String));
    }
    expect((await call(ben, 'PUT', refused[0])).json().error).toMatchObject({ code: 'UNKNOWN_MAIL_PREFERENCE', field: 'preferences' });
    expect(await accepts(ben)).toBe(before);
  });

  it('asks for a session', async () => {
    expect((await call(null, 'GET')).statusCode).toBe(401);
    expect((await call(null, 'PUT', { preferences: [{ ...ANNOUNCEMENTS, accepts: false }] })).statusCode).toBe(401);
  });

  it('neither lists nor takes the preference of a disabled plugin', async () => {
    await panel.services.plugins.setEnabled('announcements', false);
    try {
      expect(await accepts(ana)).toBeUndefined();
      expect((await call(ana, 'PUT', { preferences: [{ ...ANNOUNCEMENTS, accepts: true }] })).statusCode).toBe(400);
    } finally {
      await panel.services.plugins.setEnabled('announcements', true);
    }
    expect(await accepts(ana)).toBe(false);
  });
});
