// `orepanel plugin init <id>` and `npx @orepanel/sdk init <id>`: a new plugin project, outside the
// panel, that tests, type-checks and builds as it stands — a page that reads and writes through the
// sdk's http client and form, a server route over its own table, six languages with the same keys, a
// test of each part, and a README saying what to do next.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tablePrefix } from '../../sdk/table-names.mjs';

export const PLUGIN_ID_PATTERN = /^[a-z][a-z0-9-]{1,39}$/;

/** The languages of the panel: a plugin ships every one, with the same keys. */
export const LANGUAGES = ['en', 'de', 'es', 'fr', 'md', 'ro'];

/** What a plugin project installs besides the sdk: the shared modules and the tools, at the panel's versions. */
export const PLUGIN_DEV_PACKAGES = [
  '@emotion/react',
  '@types/node',
  '@types/react',
  '@types/react-dom',
  'i18next',
  'immer',
  'jsdom',
  'kysely',
  'mitt',
  'react',
  'react-dom',
  'react-i18next',
  'react-router-dom',
  'sweetalert2',
  'typescript',
  'vitest',
  'zustand',
];

/**
 * The versions a plugin project installs, as the panel's package.json pins them.
 * @param {{ dependencies?: Record<string, string>, devDependencies?: Record<string, string> }} panelPackage
 * @returns {Record<string, string>}
 */
export function pluginDevDependencies(panelPackage) {
  const all = { ...panelPackage.dependencies, ...panelPackage.devDependencies };
  return Object.fromEntries(
    PLUGIN_DEV_PACKAGES.map((name) => {
      if (!all[name]) throw new Error(`the panel's package.json does not name ${name}`);
      return [name, all[name]];
    }),
  );
}

/** `my-notes` → `My notes`. */
function titleOf(id) {
  const words = id.split('-').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `my-notes` → `MyNotes`. */
function componentOf(id) {
  return id
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/** The texts of the example page, per language; every catalogue has exactly these keys. */
function catalogues(title) {
  return {
    en: { title, nav: { page: title }, empty: 'Nothing written yet.', form: { label: 'New entry', text: 'Text', save: 'Save' }, saved: 'Saved.' },
    de: { title, nav: { page: title }, empty: 'Noch nichts geschrieben.', form: { label: 'Neuer Eintrag', text: 'Text', save: 'Speichern' }, saved: 'Gespeichert.' },
    es: { title, nav: { page: title }, empty: 'Todavía no hay nada escrito.', form: { label: 'Nueva entrada', text: 'Texto', save: 'Guardar' }, saved: 'Guardado.' },
    fr: { title, nav: { page: title }, empty: 'Rien d’écrit pour l’instant.', form: { label: 'Nouvelle entrée', text: 'Texte', save: 'Enregistrer' }, saved: 'Enregistré.' },
    md: { title, nav: { page: title }, empty: 'Nimic scris încă.', form: { label: 'Intrare nouă', text: 'Text', save: 'Salvează' }, saved: 'Salvat.' },
    ro: { title, nav: { page: title }, empty: 'Nimic scris încă.', form: { label: 'Intrare nouă', text: 'Text', save: 'Salvează' }, saved: 'Salvat.' },
  };
}

/**
 * The files of a new plugin project, path → text.
 * @param {{ id: string, sdk: string, sdkVersion: string, devDependencies: Record<string, string> }} options
 *   sdk: what package.json depends on for @orepanel/sdk (a version range, or file:…/orepanel-sdk-x.tgz);
 *   devDependencies: the versions of the shared modules and tools, as the panel pins them
 */
export function scaffoldFiles({ id, sdk, sdkVersion, devDependencies }) {
  const title = titleOf(id);
  const Page = `${componentOf(id)}Page`;
  const table = tablePrefix(id);
  const route = `/${id}`;
  const api = `/api/plugins/${id}`;
  const major = sdkVersion.split('.')[0];
  const json = (value) => `${JSON.stringify(value, null, 2)}\n`;
  /** @type {Record<string, string>} */
  const files = {};

  files['package.json'] = json({
    name: `orepanel-plugin-${id}`,
    version: '1.0.0',
    private: true,
    type: 'module',
    description: `${title}: an Orepanel plugin`,
    scripts: {
      test: 'vitest run',
      typecheck: 'tsc --noEmit',
      build: 'orepanel-sdk build . --pack',
    },
    devDependencies: { '@orepanel/sdk': sdk, ...devDependencies },
    // the install scripts the sdk's dependencies need (npm asks projects to name them): the server
    // test kit's SQLite driver compiles, esbuild fetches its binary
    allowScripts: { 'better-sqlite3': true, esbuild: true },
  });

  files['tsconfig.json'] = json({
    extends: '@orepanel/sdk/tsconfig.json',
    include: ['client', 'server', 'tests', 'vitest.config.ts'],
  });

  files['vitest.config.ts'] = `// The sdk's preset: JSX through @emotion/react, *.test.tsx in jsdom with this plugin's catalogues
// loaded, *.test.ts in node (the server test kit starts a real panel).
import { definePluginTestConfig } from '@orepanel/sdk/vitest';

export default definePluginTestConfig({ root: import.meta.dirname });
`;

  files['.gitignore'] = 'node_modules/\ndist/\n';

  files['plugin.json'] = json({
    id,
    name: title,
    version: '1.0.0',
    sdk: `^${major}.0.0`,
    description: `${title}: entries each user writes and reads back.`,
    client: true,
    server: true,
    tables: [table],
    routes: [{ path: route, component: Page, auth: true, title: 'title' }],
    nav: [{ route, label: 'nav.page', icon: 'ticket', section: 'main' }],
    permissions: [{ name: `admin.${id}.list`, description: `See every user's ${title} entries` }],
    locales: LANGUAGES,
  });

  files['client/index.tsx'] = `// Setup is synchronous and lean: it hands over loaders, the page loads when it is first opened.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: '${id}',
  setup(ctx) {
    ctx.routes.provide('${Page}', () => import('./${Page}'));
  },
});
`;

  files[`client/${Page}.tsx`] = `// Reads the user's entries (useApi) and writes a new one (Form + http.post, then reload): a refusal
// from the server with a field (400 { error: { field: 'text' } }) shows under that field.
import { Button, Card, EmptyState, Form, http, Page, Spinner, TextField, dialogs, useApi, useTranslation, type FormValues } from '@orepanel/sdk';

export interface Entry {
  id: number;
  text: string;
  created_at: string;
}

export default function ${Page}() {
  const { t } = useTranslation('${id}');
  const { data, loading, error, reload } = useApi<{ entries: Entry[] }>('${api}/entries');

  async function save(values: FormValues, event: { currentTarget: HTMLFormElement }) {
    // React lets go of currentTarget once the handler has returned: keep the form for after the await
    const form = event.currentTarget;
    await http.post('${api}/entries', { text: values.text ?? '' });
    form.reset();
    void dialogs.toast(t('saved'));
    reload();
  }

  return (
    <Page title={t('title')}>
      <Card title={t('form.label')}>
        <Form onSubmit={save} aria-label={t('form.label')}>
          <div css={{ display: 'grid', gap: 12, maxWidth: 480 }}>
            <TextField label={t('form.text')} name="text" required maxLength={500} />
            <div>
              <Button type="submit">{t('form.save')}</Button>
            </div>
          </div>
        </Form>
      </Card>
      {loading ? (
        <Spinner />
      ) : error ? (
        <EmptyState icon="ticket" title={error.message} />
      ) : data && data.entries.length > 0 ? (
        <ul css={{ display: 'grid', gap: 8, padding: 0, listStyle: 'none' }}>
          {data.entries.map((entry) => (
            <li key={entry.id}>
              <Card>{entry.text}</Card>
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState icon="ticket" title={t('empty')} />
      )}
    </Page>
  );
}
`;

  files['server/index.ts'] = `// The server part: routes under ${api}, over the plugin's own table (named after the plugin:
// \`plugin build\` refuses a table outside that namespace). Permissions are route options, checked
// before the handler runs; bodies are validated by their schema (a bad one is a 400, nothing stored).
import { defineServerPlugin, httpError, insertedId } from '@orepanel/sdk/server';
import type { Generated } from 'kysely';

// a type, not an interface: withTables<T> takes a record of tables
export type ${componentOf(id)}Tables = {
  ${table}: { id: Generated<number>; user_id: number; text: string; created_at: string };
};

export default defineServerPlugin({
  id: '${id}',
  migrations: {
    '0001_${table}': {
      async up(db, kit) {
        await kit
          .createTable('${table}')
          .addColumn('id', 'integer', (c) => kit.autoId(c))
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('text', 'varchar(500)', (c) => c.notNull())
          .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
          .execute();
      },
    },
  },
  register(app, ctx) {
    const db = ctx.db.withTables<${componentOf(id)}Tables>();

    app.get('/entries', { config: { auth: true } }, async (request) => {
      const user = await ctx.auth.currentUser(request);
      const entries = await db.selectFrom('${table}').select(['id', 'text', 'created_at']).where('user_id', '=', user!.id).orderBy('id', 'desc').limit(100).execute();
      return { entries };
    });

    app.post(
      '/entries',
      {
        config: { auth: true },
        schema: {
          body: {
            type: 'object',
            required: ['text'],
            additionalProperties: false,
            properties: { text: { type: 'string', maxLength: 500 } },
          },
        },
      },
      async (request, reply) => {
        const user = await ctx.auth.currentUser(request);
        const text = (request.body as { text: string }).text.trim();
        if (text === '') throw httpError(400, 'TEXT_REQUIRED', 'Write something first.', 'text');
        const created_at = new Date(ctx.clock.now()).toISOString();
        const id = await insertedId(ctx.dialect, db.insertInto('${table}').values({ user_id: user!.id, text, created_at }));
        reply.code(201);
        return { entry: { id, text, created_at } };
      },
    );

    app.get('/all', { config: { permission: 'admin.${id}.list' } }, async () => ({
      entries: await db.selectFrom('${table}').selectAll().orderBy('id', 'desc').limit(100).execute(),
    }));
  },
});
`;

  for (const [lang, texts] of Object.entries(catalogues(title))) files[`locales/${lang}.json`] = json(texts);

  files[`tests/${Page}.test.tsx`] = `// The page in the sdk's test kernel: the plugin is installed as the panel installs it (registering
// anything plugin.json does not declare fails), its catalogues are loaded by the preset, and the sdk's
// http client is answered by the handlers below (every call is recorded).
import { renderPlugin } from '@orepanel/sdk/testing';
import { expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';

it('lists the entries and saves a new one', async () => {
  const view = await renderPlugin(plugin, {
    manifest,
    route: '${route}',
    session: {},
    http: {
      'GET ${api}/entries': { body: { entries: [{ id: 1, text: 'first entry', created_at: '2025-01-01T00:00:00.000Z' }] } },
      'POST ${api}/entries': { status: 201, body: { entry: { id: 2, text: 'second entry', created_at: '2025-01-01T00:00:00.000Z' } } },
    },
  });
  await view.findByText('first entry');
  await view.type(view.getByLabelText('Text'), 'second entry');
  await view.click(view.getByRole('button', 'Save'));
  await view.waitFor(() => expect(view.httpCalls.some((call) => call.method === 'POST')).toBe(true));
  expect(view.httpCalls.find((call) => call.method === 'POST')?.body).toEqual({ text: 'second entry' });
  view.unmount();
});
`;

  files['tests/server.test.ts'] = `// The server part in a real panel (a fresh SQLite database in a temporary folder): the plugin is
// installed as an administrator installs it, its migration runs, and requests go through the panel's
// whole pipeline (sessions, permissions, the input policy).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPluginPanel, type PluginPanel } from '@orepanel/sdk/testing/server';

let panel: PluginPanel;
beforeAll(async () => {
  panel = await startPluginPanel({ plugin: new URL('..', import.meta.url) });
});
afterAll(() => panel?.close());

it('keeps each user\\'s entries, for signed-in users only', async () => {
  expect((await panel.inject({ url: panel.url('/entries') })).statusCode).toBe(401);
  const alice = await panel.signIn();
  const saved = await panel.inject({ method: 'POST', url: panel.url('/entries'), as: alice, payload: { text: 'hello' } });
  expect(saved.statusCode).toBe(201);
  const mine = await panel.inject({ url: panel.url('/entries'), as: alice });
  expect(mine.json().entries.map((e: { text: string }) => e.text)).toEqual(['hello']);
  const bob = await panel.signIn();
  expect((await panel.inject({ url: panel.url('/entries'), as: bob })).json().entries).toEqual([]);
});

it('refuses an empty text, naming the field, and stores nothing', async () => {
  const alice = await panel.signIn();
  const refused = await panel.inject({ method: 'POST', url: panel.url('/entries'), as: alice, payload: { text: '  ' } });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().error).toMatchObject({ code: 'TEXT_REQUIRED', field: 'text' });
  expect((await panel.inject({ url: panel.url('/entries'), as: alice })).json().entries).toEqual([]);
});

it('shows every entry to holders of admin.${id}.list only', async () => {
  expect((await panel.inject({ url: panel.url('/all'), as: await panel.signIn() })).statusCode).toBe(403);
  expect((await panel.inject({ url: panel.url('/all'), as: await panel.signIn(['admin.${id}.list']) })).statusCode).toBe(200);
});
`;

  files['README.md'] = `# ${title}

An Orepanel plugin, made by \`orepanel-sdk init ${id}\`.

\`\`\`sh
npm install        # the sdk, the shared modules and the test tools
npm test           # client test (jsdom) and server test (a real panel on SQLite)
npm run typecheck  # tsc --noEmit
npm run build      # checks (types, translation keys, table names), then dist/${id}/ and dist/${id}-1.0.0.tgz
\`\`\`

Upload \`dist/${id}-1.0.0.tgz\` at **/mc-admin/plugins** (or copy \`dist/${id}/\` into the panel's
\`DATA_DIR/plugins/\` and press Rescan), check what it asks for, and enable it: its migration runs and
its page is at **${route}**, in the sidebar for every signed-in user. No restart. A new version is
uploaded the same way and replaces the running one at once.

- \`plugin.json\` — what the plugin is: routes, nav items, permissions, settings, tables (the panel
  guards and builds navigation from it without running your code).
- \`client/\` — the browser part: \`index.tsx\` hands over loaders, \`${Page}.tsx\` is the page.
- \`server/index.ts\` — routes under \`${api}\`, the migration of the \`${table}\` table.
- \`locales/\` — the six languages, with the same keys (the build names any that is missing).
- \`tests/\` — \`*.test.tsx\` run in jsdom with the sdk's test kernel, \`*.test.ts\` in node.

The guide and the sdk's reference: docs/plugins.md and docs/sdk-reference.md in the Orepanel repository.
`;
  return files;
}

/**
 * Writes a new plugin project into `dir` (which must not exist or be empty).
 * @param {{ id: string, dir?: string, sdk: string, sdkVersion: string, devDependencies: Record<string, string> }} options
 * @returns {{ dir: string, files: string[] }}
 */
export function scaffoldPlugin({ id, dir, ...rest }) {
  if (!PLUGIN_ID_PATTERN.test(id)) {
    throw new Error(`"${id}" is not a plugin id: 2 to 40 characters, lower-case letters, digits and dashes, starting with a letter`);
  }
  const target = resolve(dir ?? id);
  if (existsSync(target) && readdirSync(target).length > 0) throw new Error(`${target} already exists and is not empty`);
  const files = scaffoldFiles({ id, ...rest });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(target, path)), { recursive: true });
    writeFileSync(join(target, path), text);
  }
  return { dir: target, files: Object.keys(files).sort() };
}
