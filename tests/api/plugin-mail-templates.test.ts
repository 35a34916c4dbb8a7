// Plugins' own mail templates (plugin.json "mailTemplates", texts in <plugin>/mail/): stored when
// missing and never over an administrator's edits — at every start and when a plugin is enabled later —,
// a name declared twice refuses the later plugin, a declared template cannot be renamed or deleted, and
// the editor's preview takes the declared sample values. The seven templates migration 0001 stores are
// the auth and servers plugins' files to the byte.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { REPO_PLUGINS, secondInstance, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

interface Fixture {
  manifest: Record<string, unknown>;
  /** file name under mail/ → content */
  mail: Record<string, string>;
}

const NOTICE_HTML = '<p>Hello ${first_name},</p>\n<p>${note}</p>\n<p>${app_name}</p>';

function declared(id: string, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: `Fixture: ${id}`,
    version: '1.0.0',
    sdk: '^2.0.0',
    client: false,
    mailTemplates: [{ name, description: `Sent by ${id}.`, placeholders: { first_name: 'Ada', note: 'Remember the milk' } }],
    ...extra,
  };
}

function parts(name: string, subject = 'A note for ${first_name}'): Record<string, string> {
  // the final line break an editor adds is not part of the template
  return { [`${name}.subject.txt`]: `${subject}\n`, [`${name}.html`]: `${NOTICE_HTML}\n`, [`${name}.txt`]: 'Hello ${first_name},\n\n${note}' };
}

const FIXTURES: Record<string, Fixture> = {
  'fx-mail': { manifest: declared('fx-mail', 'fx_notice'), mail: parts('fx_notice') },
  'fx-mail-later': { manifest: declared('fx-mail-later', 'fx_later', { enabledByDefault: false }), mail: parts('fx_later') },
  'fx-mail-clash': { manifest: declared('fx-mail-clash', 'verify'), mail: parts('verify') },
  'fx-mail-clash-plugin': { manifest: declared('fx-mail-clash-plugin', 'fx_notice'), mail: parts('fx_notice') },
  'fx-mail-undeclared': { manifest: declared('fx-mail-undeclared', 'fx_undeclared'), mail: parts('fx_undeclared', 'Your ${secret}') },
  'fx-mail-missing': { manifest: declared('fx-mail-missing', 'fx_missing'), mail: { 'fx_missing.subject.txt': 'Hi', 'fx_missing.html': '<p>Hi</p>' } },
};

function writeFixtures(): string {
  const dir = mkdtempSync(join(tmpdir(), 'orepanel-mail-plugins-'));
  for (const [id, { manifest, mail }] of Object.entries(FIXTURES)) {
    mkdirSync(join(dir, id, 'mail'), { recursive: true });
    writeFileSync(join(dir, id, 'plugin.json'), JSON.stringify(manifest));
    for (const [file, content] of Object.entries(mail)) writeFileSync(join(dir, id, 'mail', file), content);
  }
  return dir;
}

const SHIPPED: Record<string, string[]> = {
  auth: ['verify', 'reset_password', 'new_login', 'welcome'],
  servers: ['server_renewal_reminder', 'server_suspended', 'server_deleted'],
};

describe.each(testDialects())('plugins declare their own mail templates, on %s', (dialect) => {
  let fixtures: string;
  let panel: TestPanel;
  let root: SignedInUser;
  const restarted: FastifyInstance[] = [];

  beforeAll(async () => {
    fixtures = writeFixtures();
    panel = await startPanel(dialect, { pluginDirs: [REPO_PLUGINS, fixtures] });
    root = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    for (const app of restarted) await app.close();
    await panel?.close();
    if (fixtures) rmSync(fixtures, { recursive: true, force: true });
  });

  const db = () => panel.services.database.db;
  const row = (name: string) => db().selectFrom('mail_templates').select(['id', 'name', 'description', 'subject', 'html', 'text']).where('name', '=', name).executeTakeFirst();
  const reasonOf = (id: string) => panel.services.plugins.refused.find((r) => r.id === id)?.reason;
  const api = (method: 'DELETE' | 'PATCH' | 'POST', url: string, payload?: Record<string, unknown>) =>
    panel.app.inject({ method, url: `/api/admin/mail-templates${url}`, payload, headers: { cookie: root.cookie } });
  /** the panel started again on the same database: plugins are prepared and registered anew */
  const restart = async () => {
    restarted.push(await secondInstance(panel, { pluginDirs: [REPO_PLUGINS, fixtures] }));
  };

  it('keeps the declarations out of the manifests served to browsers', async () => {
    const served = (await panel.app.inject({ url: '/api/system/plugins' })).json() as { id: string; mailTemplates?: unknown }[];
    expect(served.find((m) => m.id === 'auth')).toBeDefined();
    expect(served.filter((m) => m.mailTemplates !== undefined)).toEqual([]);
  });

  it('stores a declared template from the plugin folder, without the files’ final line break', async () => {
    expect(await row('fx_notice')).toMatchObject({
      description: 'Sent by fx-mail.',
      subject: 'A note for ${first_name}',
      html: NOTICE_HTML,
      text: 'Hello ${first_name},\n\n${note}',
    });
  });

  it('the seven templates a fresh panel stores are the auth and servers plugins’ files to the byte', async () => {
    for (const [plugin, names] of Object.entries(SHIPPED)) {
      const manifest = JSON.parse(readFileSync(join(REPO_PLUGINS, plugin, 'plugin.json'), 'utf8')) as { mailTemplates: { name: string; description: string }[] };
      expect(manifest.mailTemplates.map((t) => t.name)).toEqual(names);
      for (const { name, description } of manifest.mailTemplates) {
        const file = (suffix: string) => readFileSync(join(REPO_PLUGINS, plugin, 'mail', `${name}${suffix}`), 'utf8').replace(/\n$/, '');
        expect(await row(name), name).toMatchObject({ description, subject: file('.subject.txt'), html: file('.html'), text: file('.txt') });
      }
    }
  });

  it('refuses a plugin declaring a name another plugin already declared, and keeps the first one’s', async () => {
    expect(reasonOf('fx-mail-clash')).toBe('its mail template "verify" is already declared by plugin "auth"');
    expect(reasonOf('fx-mail-clash-plugin')).toBe('its mail template "fx_notice" is already declared by plugin "fx-mail"');
    expect((await row('verify'))?.subject).toBe('Verify your e-mail address for ${app_name}');
    expect((await row('fx_notice'))?.description).toBe('Sent by fx-mail.');
  });

  it('refuses a template using a placeholder it does not declare, or missing one of its files', async () => {
    expect(reasonOf('fx-mail-undeclared')).toBe('its mail template "fx_undeclared" uses ${secret}, which its placeholders do not declare');
    expect(reasonOf('fx-mail-missing')).toBe('its mail template "fx_missing" has no readable mail/fx_missing.txt');
    expect(await row('fx_undeclared')).toBeUndefined();
    expect(await row('fx_missing')).toBeUndefined();
  });

  it('protects a plugin-declared template from renaming and deletion; its texts stay editable', async () => {
    const { id } = (await row('fx_notice'))!;
    const deleted = await api('DELETE', `/${id}`);
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json().error.code).toBe('MAIL_TEMPLATE_PROTECTED');
    const renamed = await api('PATCH', `/${id}`, { name: 'fx_notice2' });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().error).toMatchObject({ code: 'MAIL_TEMPLATE_PROTECTED', field: 'name' });
    expect((await row('fx_notice'))?.name).toBe('fx_notice');
    // an administrator's own template is neither: it can go
    const own = await api('POST', '', { name: 'fx_own', subject: 'Own', html: '<p>Own</p>' });
    expect(own.statusCode).toBe(201);
    expect((await api('DELETE', `/${own.json().template.id}`)).statusCode).toBe(200);
  });

  it('previews with the sample values the declarations give', async () => {
    const { id } = (await row('fx_notice'))!;
    const preview = await api('POST', `/${id}/preview`, {});
    expect(preview.statusCode).toBe(200);
    expect(preview.json().html).toContain('<p>Remember the milk</p>');
    // the shipped templates keep their samples
    expect(panel.services.mailer.templates.samplePlaceholders).toMatchObject({ first_name: 'Ada', server_name: 'survival-1', days_left: '7', ip: '203.0.113.7' });
  });

  it('stores a missing template again at the next start, and never overwrites an edited one', async () => {
    const edited = await api('PATCH', `/${(await row('fx_notice'))!.id}`, { subject: 'Edited by the administrator' });
    expect(edited.statusCode).toBe(200);
    // removed behind the panel's back (a restore, a hand edit): the next start brings it back
    await db().deleteFrom('mail_templates').where('name', '=', 'reset_password').execute();
    await restart();
    expect((await row('fx_notice'))?.subject).toBe('Edited by the administrator');
    expect((await row('reset_password'))?.subject).toBe('Reset your ${app_name} password');
  });

  it('a plugin enabled later stores its own templates then, and they are protected while it is off', async () => {
    expect(await row('fx_later')).toBeUndefined();
    expect(panel.services.mailer.templates.isProtected('fx_later')).toBe(true);
    await panel.services.plugins.setEnabled('fx-mail-later', true);
    expect(await row('fx_later')).toMatchObject({ description: 'Sent by fx-mail-later.', subject: 'A note for ${first_name}', html: NOTICE_HTML });
  });
});
