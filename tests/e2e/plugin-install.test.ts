// Issue 16's must-show, in chromium against the built panel, with no restart of it from start to end:
// a plugin author, outside the repository, scaffolds a plugin with the @orepanel/sdk tarball as it is
// published, runs its tests and builds it (`orepanel-sdk build . --pack`); a root administrator
// uploads the archive at /mc-admin/plugins, reads what it asks for and enables it; a customer writes
// an entry on its page. The author ships a second version; the administrator uploads it while the
// customer has the page open: that page keeps working (it saves again, its first version's files are
// still served) and a reload shows the second version. Then the administrator disables and removes
// it, dropping its tables: its page and API are gone and its folder is deleted.
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packSdk } from '../../scripts/sdk-package.mjs';
import { installSdk, runIn } from '../contract/support/author-project';
import { mainText, openPage, registerThroughApi, signInThroughApi, uniqueName, usePanelAndBrowser, type PageProbe } from './harness';

const env = usePanelAndBrowser();
const PASSWORD = 'admin-password-1';
const WAIT = { timeout: 30_000 };
const LANGUAGES = ['en', 'de', 'es', 'fr', 'md', 'ro'];

// realpath: on some systems the temporary folder is itself a link (macOS /var → /private/var)
const work = realpathSync(mkdtempSync(join(tmpdir(), 'orepanel-plugin-author-')));
let project: string;
let admin: PageProbe;
let customer: PageProbe;
/** requests for the plugin's own files that failed, seen by the customer's page */
const brokenFiles: string[] = [];

beforeAll(async () => {
  const packed = await packSdk({ outDir: join(work, 'pack') });
  const made = await runIn(work, process.execPath, [join(packed.dir, 'bin', 'orepanel-sdk.mjs'), 'init', 'notes', '--sdk', `file:${packed.tarball}`]);
  if (made.code !== 0) throw new Error(`orepanel-sdk init failed:\n${made.output}`);
  project = join(work, 'notes');
  await installSdk(project, packed.tarball);

  const name = uniqueName('root');
  const created = env.panel.cli(['user', 'create', '--username', name, '--email', `${name}@example.com`, '--password', PASSWORD, '--role', '8']);
  expect(created.status, created.stderr).toBe(0);
  admin = await signInThroughApi(env.browser, env.panel.url, name, PASSWORD);
  customer = await openPage(env.browser);
  await customer.page.goto(env.panel.url);
  const login = uniqueName('cust');
  await registerThroughApi(customer.page, { username: login, email: `${login}@example.com`, password: 'customer-password-1' });
  customer.page.on('response', (response) => {
    if (response.url().includes('/plugins/notes/') && response.status() >= 400) brokenFiles.push(`${response.status()} ${response.url()}`);
  });
}, 600_000);
afterAll(async () => {
  await admin?.context.close();
  await customer?.context.close();
  rmSync(work, { recursive: true, force: true });
});

/** The author's build: the archive `orepanel-sdk build . --pack` wrote. */
async function build(version: string): Promise<string> {
  const built = await runIn(project, 'orepanel-sdk', ['build', '.', '--pack'], 400_000);
  expect(built.code, built.output).toBe(0);
  const archive = join(project, 'dist', `notes-${version}.tgz`);
  expect(existsSync(archive), built.output).toBe(true);
  return archive;
}

async function openPlugins(page: Page): Promise<void> {
  await page.goto(`${env.panel.url}/mc-admin/plugins`);
  await page.getByRole('button', { name: 'Upload plugin' }).waitFor(WAIT);
}

async function upload(page: Page, archive: string): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles(archive);
}

const row = (page: Page, name: string) => page.getByRole('button', { name }).locator('xpath=ancestor::tr[1]');

describe('a third-party plugin from scaffold to removal, with no restart', () => {
  it('the author scaffolds, tests and builds the plugin outside the repository', async () => {
    expect(project.startsWith(env.panel.dataDir)).toBe(false);
    // the project's own timeouts are an idle machine's; this one shares its cores with the panel and chromium
    const tests = await runIn(project, 'vitest', ['run', '--testTimeout', '60000'], 400_000);
    expect(tests.code, tests.output).toBe(0);
    await build('1.0.0');
  }, 600_000);

  it('the administrator uploads it: it arrives disabled and shows what it asks for; enabling it serves its page', async () => {
    const { page } = admin;
    await openPlugins(page);
    await upload(page, join(project, 'dist', 'notes-1.0.0.tgz'));
    await expect.poll(() => mainText(page), WAIT).toContain('Notes 1.0.0 is installed. It is disabled');
    const notes = row(page, 'Enable Notes');
    const asks = await notes.innerText();
    expect(asks).toContain('admin.notes.list');
    expect(asks).toContain('/notes');
    expect(asks).toMatch(/Tables\s+notes/);
    expect(asks).toContain('Yes: it runs on the server once enabled');
    // nothing of it is served before it is enabled
    expect(await page.evaluate(async () => (await fetch('/api/plugins/notes/entries')).status)).toBe(404);

    await page.getByRole('button', { name: 'Enable Notes' }).click();
    await expect.poll(() => mainText(page), WAIT).toContain('Notes is enabled on the server.');
    expect(existsSync(join(env.panel.dataDir, 'plugins', 'notes', 'current'))).toBe(true);
  });

  it('a customer uses its page: writes an entry and reads it back', async () => {
    const { page } = customer;
    await page.goto(`${env.panel.url}/notes`);
    await page.getByRole('heading', { name: 'Notes', level: 1 }).waitFor(WAIT);
    await page.getByLabel('Text').fill('first entry');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('first entry').waitFor(WAIT);
  });

  it('an update while the customer has the page open: the open page keeps working, a reload shows the new version', async () => {
    const { page } = customer;
    const before = (await page.evaluate(async () => (await (await fetch('/api/system/plugins')).json()) as { id: string; entry?: string }[])).find((p) => p.id === 'notes');
    expect(before?.entry).toBeTruthy();

    // the author's second version: a new title in every language, the version bumped
    for (const language of LANGUAGES) {
      const file = join(project, 'locales', `${language}.json`);
      const texts = JSON.parse(readFileSync(file, 'utf8')) as { title: string };
      writeFileSync(file, JSON.stringify({ ...texts, title: `${texts.title} 2` }, null, 2));
    }
    const manifestFile = join(project, 'plugin.json');
    writeFileSync(manifestFile, JSON.stringify({ ...JSON.parse(readFileSync(manifestFile, 'utf8')), version: '1.1.0' }, null, 2));
    const v2 = await build('1.1.0');

    await openPlugins(admin.page);
    await upload(admin.page, v2);
    // the administrator's own tab reloads onto the new version and says so
    await expect.poll(() => mainText(admin.page), WAIT).toContain('Notes is updated from 1.0.0 to 1.1.0.');
    expect(readdirSync(join(env.panel.dataDir, 'plugins', 'notes', 'versions'))).toHaveLength(2);

    // the customer's page, loaded with the first version, still saves (through the new server part)
    await page.getByLabel('Text').fill('second entry');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('second entry').waitFor(WAIT);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Notes');
    // and the first version's files are still there for it
    expect(await page.evaluate(async (entry) => (await fetch(entry)).status, before!.entry!)).toBe(200);
    expect(brokenFiles).toEqual([]);
    expect(customer.errors).toEqual([]);

    await page.reload();
    await page.getByRole('heading', { name: 'Notes 2', level: 1 }).waitFor(WAIT);
    await expect.poll(() => mainText(page), WAIT).toContain('first entry');
    expect(brokenFiles).toEqual([]);
  }, 600_000);

  it('the administrator disables and removes it, dropping its tables: its page and API are gone', async () => {
    const { page } = admin;
    await openPlugins(page);
    await page.getByRole('button', { name: 'Disable Notes' }).click();
    await page.locator('.swal2-confirm').click();
    await expect.poll(() => mainText(page), WAIT).toContain('is disabled on the server.');
    await page.getByRole('button', { name: 'Remove Notes' }).click();
    await page.getByLabel('Also delete its tables and settings (cannot be undone)').check();
    await page.getByRole('button', { name: 'Remove and delete its data' }).click();
    await expect.poll(() => mainText(page), WAIT).toContain('Notes is removed with its tables (notes, op_migrations_notes).');
    await expect.poll(() => page.getByRole('button', { name: 'Enable Notes' }).count(), WAIT).toBe(0);
    expect(existsSync(join(env.panel.dataDir, 'plugins', 'notes'))).toBe(false);

    await customer.page.goto(`${env.panel.url}/notes`);
    await expect.poll(() => customer.page.locator('body').innerText(), WAIT).toContain('Page not found');
    expect(await customer.page.evaluate(async () => (await fetch('/api/plugins/notes/entries')).status)).toBe(404);
  });
});
