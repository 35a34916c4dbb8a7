// The database boundary (issue 10 item 3) through a running panel: a plugin reads its own tables and
// the core's read-only views, and every attempt on core tables — a write, a read, raw SQL, a wallet
// effect — is refused with the plugin and table named, changing nothing. Declaring a table the core
// or another plugin owns, or a migration that changes a core table, refuses the plugin at load.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_PLUGINS, ROOT, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

const FIXTURES = join(ROOT, 'tests', 'fixtures', 'table-boundary');

describe.each(testDialects())('the database boundary on %s', (dialect) => {
  let panel: TestPanel;
  let user: SignedInUser;

  beforeAll(async () => {
    panel = await startPanel(dialect, { pluginDirs: [REPO_PLUGINS, FIXTURES] });
    user = await userWithRole(panel, 2);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const call = async (method: 'GET' | 'POST', url: string) => {
    const res = await panel.app.inject({ method, url, headers: { cookie: user.cookie } });
    return { status: res.statusCode, body: res.json() as { refused?: string | null; people?: { username: string; role_name: string | null; banned: number }[] } };
  };
  const account = () => panel.services.database.db.selectFrom('users').select(['role_id', 'coins', 'username']).where('id', '=', user.id).executeTakeFirstOrThrow();

  it('refuses a plugin that declares a table of the core or of another plugin', () => {
    const reasonOf = (id: string) => panel.services.plugins.refused.find((r) => r.id === id)?.reason;
    expect(reasonOf('fx-greedy')).toBe('its plugin.json declares table "users", which belongs to the core');
    expect(reasonOf('fx-copycat')).toBe('its plugin.json declares table "fx_reach_marks", which plugin "fx-reach" already declares');
  });

  it('refuses a plugin whose migration changes a core table, and leaves the table as it was', async () => {
    const reason = panel.services.plugins.refused.find((r) => r.id === 'fx-migrant')?.reason;
    expect(reason).toMatch(/^its database migration 0001_rows failed: plugin "fx-migrant" may not write table "users"/);
    const probe = await panel.services.database.db.selectFrom('users').selectAll().limit(1).execute();
    expect(Object.keys(probe[0] ?? {})).not.toContain('fx_migrant_flag');
  });

  it("reads accounts through the user_public view, with the role's name", async () => {
    const { status, body } = await call('GET', '/api/fx-reach/people');
    expect(status).toBe(200);
    expect(body.people).toContainEqual({ username: user.username, role_name: 'VIP', banned: 0 });
  });

  it('refuses writing users and the read-only view, reading sessions and raw SQL, and changes nothing', async () => {
    const before = await account();
    expect((await call('POST', '/api/fx-reach/promote')).body.refused).toBe(
      'plugin "fx-reach" may not write table "users": it is not one of its tables (declare the tables it creates in plugin.json "tables"; core data is reached through core services)',
    );
    expect((await call('POST', '/api/fx-reach/rename')).body.refused).toBe('plugin "fx-reach" may not write table "user_public": the core offers it read-only');
    expect((await call('GET', '/api/fx-reach/sessions')).body.refused).toMatch(/^plugin "fx-reach" may not read table "sessions"/);
    expect((await call('GET', '/api/fx-reach/raw')).body.refused).toMatch(/^plugin "fx-reach" may not run a raw SQL query/);
    expect(await account()).toEqual(before);
  });

  it('answers an unhandled refusal with a 500 that names nothing', async () => {
    const res = await panel.app.inject({ method: 'POST', url: '/api/fx-reach/promote-unhandled', headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/users|fx-reach/);
    expect((await account()).role_id).toBe(2);
  });

  it("checks a wallet effect too: the plugin's own rows and counters commit with the coins, a core write undoes the movement", async () => {
    const before = await account();
    const first = await call('POST', '/api/fx-reach/mark?key=ok');
    expect(first.body, JSON.stringify(first)).toEqual({ refused: null });
    expect((await account()).coins).toBe(before.coins + 5);
    expect(await panel.services.counters.get(user.id, 'fx_reach.marks')).toBe(1);

    expect((await call('POST', '/api/fx-reach/mark?key=sneaky&sneak=1')).body.refused).toMatch(/^plugin "fx-reach" may not write table "users"/);
    expect((await account()).coins).toBe(before.coins + 5);
    expect(await panel.services.counters.get(user.id, 'fx_reach.marks')).toBe(1);
  });
});
