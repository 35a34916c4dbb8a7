// @vitest-environment jsdom
// The guild list on the plugin's configuration page: the admin-plugins plugin's real
// /mc-admin/plugins/:identifier/config page renders this plugin's slot under the settings form.
import { i18n } from '@orepanel/sdk';
import { cleanup, renderPlugin, sessionReply, type HttpHandlers, type RecordedHttpCall, type TestSession } from '@orepanel/sdk/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import adminPlugin from '../../admin-plugins/client';
import adminManifest from '../../admin-plugins/plugin.json';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());
// the page under test is admin-plugins': this plugin's texts are added as the kernel would
beforeAll(() => {
  i18n.addResourceBundle('en', 'earn-j4r', en, true, true);
});

const admin: TestSession = { user: { username: 'root', role: 8 }, permissions: ['admin.plugins.edit'] };
const community = {
  id: 1,
  guild_id: '112233445566778899',
  name: 'Orepanel Community',
  invite_url: 'https://discord.gg/orepanel',
  icon_url: null,
  coins: 50,
  enabled: true,
  claims: 12,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};
const flagSetting = { key: 'j4r_enabled', type: 'boolean', label: 'Join for rewards', value: true, default: false, secret: false, public: true, updated_at: null };

function handlers(extra: HttpHandlers = {}): HttpHandlers {
  return {
    'GET /api/admin/plugins/earn-j4r/config': { body: { id: 'earn-j4r', settings: [flagSetting] } },
    'GET /api/admin/plugins/earn-j4r': {
      body: {
        plugin: {
          id: 'earn-j4r',
          name: 'Join for rewards',
          description: '',
          version: '1.0.0',
          origin: 'bundled',
          core: false,
          state: 'enabled',
          enabled: true,
          active: true,
          refused_reason: null,
          requires: ['auth'],
          permissions: [],
          settings: [],
        },
      },
    },
    'GET /api/admin/j4r/guilds': { body: { data: [community] } },
    'GET /api/user/session': sessionReply(admin),
    ...extra,
  };
}

async function open(extra: HttpHandlers = {}, session: TestSession = admin) {
  return renderPlugin(adminPlugin, {
    manifest: adminManifest,
    route: '/mc-admin/plugins/earn-j4r/config',
    session,
    alongside: [{ plugin, manifest }],
    http: handlers(extra),
  });
}

type App = Awaited<ReturnType<typeof open>>;
/** a table or form by its aria-label (the kit's role queries know neither) */
const labelled = (tag: 'table' | 'form', label: string) => document.querySelector<HTMLElement>(`${tag}[aria-label="${label}"]`);
const findLabelled = (app: App, tag: 'table' | 'form', label: string) =>
  app.waitFor(() => {
    const found = labelled(tag, label);
    if (!found) throw new Error(`no ${tag} "${label}" yet`);
    return found;
  });
const calls = (app: App, method: string, path: string) => app.httpCalls.filter((c: RecordedHttpCall) => c.method === method && c.path === path);

describe('join-for-rewards servers on the plugin configuration page', () => {
  it('lists the servers with their reward and how many users each paid', async () => {
    const app = await open();
    const table = await findLabelled(app, 'table', 'Discord servers');
    expect(table.textContent).toContain('Orepanel Community');
    expect(table.textContent).toContain('112233445566778899');
    expect(table.textContent).toContain('50');
    expect(table.textContent).toContain('12');
  });

  it('adds a server: checks the form first, then sends every field', async () => {
    let listed = [community];
    const app = await open({
      'GET /api/admin/j4r/guilds': () => ({ body: { data: listed } }),
      'POST /api/admin/j4r/guilds': (call) => {
        listed = [...listed, { ...community, id: 2, ...(call.body as object), claims: 0 }];
        return { status: 201, body: { guild: listed[1] } };
      },
    });
    await app.click(await app.findByRole('button', 'Add a server'));
    const form = await findLabelled(app, 'form', 'Add a Discord server');
    await app.type(app.getByLabelText('Discord server id'), 'abc');
    await app.type(app.getByLabelText('Invite link'), 'javascript:alert(1)');
    await app.click(app.getByRole('button', 'Add server'));
    await app.findByText(en.config.validation.guildId);
    expect(form.textContent).toContain(en.config.validation.required);
    expect(form.textContent).toContain(en.config.validation.invite);
    expect(calls(app, 'POST', '/api/admin/j4r/guilds')).toHaveLength(0);

    await app.type(app.getByLabelText('Discord server id'), '998877665544332211');
    await app.type(app.getByLabelText('Name'), '  Builders ');
    await app.type(app.getByLabelText('Invite link'), 'https://discord.gg/builders');
    await app.type(app.getByLabelText('Coins for joining'), '25');
    await app.click(app.getByRole('button', 'Add server'));
    await app.waitFor(() => expect(calls(app, 'POST', '/api/admin/j4r/guilds')).toHaveLength(1));
    expect(calls(app, 'POST', '/api/admin/j4r/guilds')[0].body).toEqual({
      guild_id: '998877665544332211',
      name: 'Builders',
      invite_url: 'https://discord.gg/builders',
      icon_url: null,
      coins: 25,
      enabled: true,
    });
    await app.waitFor(() => expect(labelled('form', 'Add a Discord server')).toBeNull());
    await app.waitFor(() => expect(labelled('table', 'Discord servers')!.textContent).toContain('Builders'));
  });

  it('edits only what changed; the Discord id cannot change', async () => {
    const app = await open({ 'PATCH /api/admin/j4r/guilds/:id': (call) => ({ body: { guild: { ...community, ...(call.body as object) } } }) });
    await app.click(await app.findByRole('button', 'Edit Orepanel Community'));
    await findLabelled(app, 'form', 'Edit Orepanel Community');
    expect((app.getByLabelText('Discord server id') as HTMLInputElement).disabled).toBe(true);
    await app.click(app.getByRole('button', 'Save'));
    await app.findByText(en.config.form.nothingChanged);
    await app.type(app.getByLabelText('Coins for joining'), '60');
    await app.click(app.getByRole('checkbox', 'Offer this server'));
    await app.click(app.getByRole('button', 'Save'));
    await app.waitFor(() => expect(calls(app, 'PATCH', '/api/admin/j4r/guilds/1')).toHaveLength(1));
    expect(calls(app, 'PATCH', '/api/admin/j4r/guilds/1')[0].body).toEqual({ coins: 60, enabled: false });
  });

  it("shows the server's refusal next to the field it is about", async () => {
    const app = await open({
      'POST /api/admin/j4r/guilds': { status: 409, body: { error: { code: 'J4R_GUILD_EXISTS', message: 'That Discord server is on the list already.', field: 'guild_id' } } },
    });
    await app.click(await app.findByRole('button', 'Add a server'));
    await app.type(app.getByLabelText('Discord server id'), community.guild_id);
    await app.type(app.getByLabelText('Name'), 'Again');
    await app.type(app.getByLabelText('Invite link'), 'https://discord.gg/again');
    await app.click(app.getByRole('button', 'Add server'));
    await app.findByText(en.errors.J4R_GUILD_EXISTS);
    expect(labelled('form', 'Add a Discord server')!).toBeTruthy();
  });

  it('removes a server after confirming', async () => {
    let listed = [community];
    const app = await open({
      'GET /api/admin/j4r/guilds': () => ({ body: { data: listed } }),
      'DELETE /api/admin/j4r/guilds/:id': () => {
        listed = [];
        return { body: { success: true } };
      },
    });
    await app.click(await app.findByRole('button', 'Remove Orepanel Community'));
    await app.answerDialog('Remove Orepanel Community?', 'confirm');
    await app.waitFor(() => expect(calls(app, 'DELETE', '/api/admin/j4r/guilds/1')).toHaveLength(1));
    await app.findByText(en.config.empty);
  });

  it('is not there for someone who may not configure plugins', async () => {
    const app = await open({}, { ...admin, permissions: ['admin.plugins.list'] });
    await app.waitFor(() => expect(calls(app, 'GET', '/api/admin/plugins/earn-j4r/config')).toHaveLength(1));
    expect(labelled('table', 'Discord servers')).toBeNull();
    expect(calls(app, 'GET', '/api/admin/j4r/guilds')).toHaveLength(0);
  });
});
