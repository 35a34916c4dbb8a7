// The server-side render of pre-renderable pages (issue 15): the same components as the kernel mounts,
// in the language asked for, with the public settings, the refused form's state, and nothing for a
// path no enabled plugin declares pre-renderable.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import authPlugin from '../../plugins/auth/client/index';
import errorsPlugin from '../../plugins/errors/client/index';
import type { Language, ServedPluginManifest } from '../../sdk/types';
import { providePrerenderPlugin, renderPage, type PrerenderInput } from '../../kernel/prerender/render-page';

providePrerenderPlugin(authPlugin);
providePrerenderPlugin(errorsPlugin);

const root = new URL('../../', import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as Record<string, unknown>;
const manifests = ['auth', 'errors', 'legal'].map((id) => readJson(`plugins/${id}/plugin.json`) as unknown as ServedPluginManifest);

/** The kernel's catalogue file of a language, as the build bundles it: namespace -> texts. */
function catalogue(language: Language) {
  return { kernel: readJson(`locales/${language}.json`), auth: readJson(`plugins/auth/locales/${language}.json`), errors: readJson(`plugins/errors/locales/${language}.json`) };
}

const input = (over: Partial<PrerenderInput> = {}): PrerenderInput => ({
  path: '/auth/login',
  language: 'en',
  manifests,
  settings: { registration_enabled: true },
  catalogues: { en: catalogue('en'), de: catalogue('de'), fr: catalogue('fr') },
  ...over,
});

/** The markup without the inline style elements. */
const markup = (html: string | null) => (html ?? '').replace(/<style[^>]*>[^<]*<\/style>/g, '');

describe('renderPage', () => {
  it('renders the login page complete: the bare layout, its form posting to itself, its styles inline', async () => {
    const html = await renderPage(input());
    expect(html).not.toBeNull();
    const page = markup(html);
    expect(page).toContain('data-testid="language-picker"');
    expect(page).toContain('<h1');
    expect(page).toContain('Welcome back');
    expect(page).toMatch(/<form[^>]* method="post"/);
    expect(page).toContain('name="login"');
    expect(page).toContain('name="password"');
    // no boundary left for a script to fill in, no loading skeleton
    expect(page).not.toContain('<!--$!-->');
    expect(page).not.toContain('<!--$?-->');
    expect(page).not.toContain('data-plugin-loading');
    // the page is drawn at rest: the first page of a load does not fade in
    expect(html).toMatch(/<style data-emotion="css-global/);
    expect(page).toContain('data-page-transition');
    const frameClass = /data-page-transition="[^"]*" data-transition-phase="[^"]*" class="([^"]+)"/.exec(page)?.[1];
    expect(html).toMatch(new RegExp(`\\.${frameClass}\\{(-webkit-animation:none;)?animation:none;`));
  });

  it('renders in the language asked for, and back', async () => {
    const german = markup(await renderPage(input({ language: 'de' })));
    expect(german).toContain('Willkommen zurück');
    expect(german).toMatch(/<option value="de" selected="">/);
    expect(markup(await renderPage(input({ language: 'fr' })))).toContain('Bon retour');
    expect(markup(await renderPage(input()))).toContain('Welcome back');
  });

  it('follows the public settings (the register link only while registration is open)', async () => {
    expect(markup(await renderPage(input()))).toContain('href="/auth/register"');
    expect(markup(await renderPage(input({ settings: { registration_enabled: false } })))).not.toContain('href="/auth/register"');
  });

  it('shows a refused form again: the error at the top, the kept field filled in, never the password', async () => {
    const page = markup(
      await renderPage(
        input({ form: { error: { status: 401, code: 'INVALID_CREDENTIALS', message: 'Invalid username/email or password.' }, values: { login: 'ada', password: 'secret' } } }),
      ),
    );
    expect(page).toMatch(/role="alert"[\s\S]*Invalid username\/email or password\./);
    expect(page).toMatch(/value="ada"[^>]*name="login"|name="login"[^>]*value="ada"/);
    expect(page).not.toContain('secret');
  });

  it('says what to do when the form needs its script (a captcha, or a page without a form of its own)', async () => {
    const captcha = markup(
      await renderPage(input({ form: { error: { status: 400, code: 'CAPTCHA_REQUIRED', message: 'Please complete the captcha.', field: 'captcha_token' }, values: {} } })),
    );
    expect(captcha).toContain('security check that needs JavaScript');
    const register = markup(await renderPage(input({ path: '/auth/register', form: { error: { status: 400, code: 'SCRIPT_REQUIRED', message: '' }, values: {} } })));
    expect(register).toContain('This form needs JavaScript');
  });

  it('renders the other declared pages and nothing for a path that is not declared pre-renderable', async () => {
    expect(markup(await renderPage(input({ path: '/errors/403' })))).toContain('<h1');
    expect(await renderPage(input({ path: '/privacy-policy' }))).toBeNull();
    expect(await renderPage(input({ path: '/dashboard' }))).toBeNull();
    // a plugin switched off is not among the served manifests
    expect(await renderPage(input({ manifests: manifests.filter((m) => m.id !== 'auth') }))).toBeNull();
  });
});
