import { defineConfig } from 'vitest/config';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Projects: everything that runs in-process without a database dialect (unit, contract, plugin
// screens; DOM tests opt into jsdom with a `// @vitest-environment jsdom` comment); the API tests
// once per database dialect (OREPANEL_TEST_DIALECTS, default sqlite,postgres,mysql), each dialect a
// project of its own so the pool runs them side by side instead of one after another inside a file;
// and the browser end-to-end tests, which drive Debian's chromium against the built panel one file
// at a time. A plugin's API and browser tests live in its own folder (plugins/<id>/tests/*.api.test.ts,
// *.e2e.test.ts) and run in the same projects as the core's.
const DIALECTS = (process.env.OREPANEL_TEST_DIALECTS ?? 'sqlite,postgres,mysql')
  .split(',')
  .map((d) => d.trim())
  .filter(Boolean);
/** A plugin's API tests live in its own folder (plugins/<id>/tests/*.api.test.ts) and run like the core's. */
const PLUGIN_API_TEST = /\.api\.test\.ts$/;
const pluginApiFiles = readdirSync(here('./plugins'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(here(`./plugins/${entry.name}/tests`)))
  .flatMap((entry) =>
    readdirSync(here(`./plugins/${entry.name}/tests`))
      .filter((f) => PLUGIN_API_TEST.test(f))
      .map((f) => `plugins/${entry.name}/tests/${f}`),
  );
/** every API test file, relative to the root */
const apiFiles = [
  ...readdirSync(here('./tests/api'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `tests/api/${f}`),
  ...pluginApiFiles,
];
/** API test files that run per dialect (they call testDialects()); the others run once */
const perDialect = apiFiles.filter((f) => readFileSync(here(`./${f}`), 'utf8').includes('testDialects('));
/**
 * MariaDB runs where the dialect makes a difference: row locks and conditional updates under
 * concurrency, unique-conflict handling, collation-sensitive search, leases, migrations. The other
 * files use the same portable queries PostgreSQL and SQLite already run.
 */
const MARIADB_FILES = [
  'account',
  'admin-roles',
  'admin-user-coins',
  'admin-users',
  'afk-instances',
  'afk-payouts',
  // announcements: read marks inserted once under a unique key (a race answered by an update), LIKE filters
  'announcements',
  'auth',
  // several instances on one database: cache versions, the key check, instances, job leases
  'cluster',
  'credits',
  'database',
  'gift',
  'j4r',
  // the image library: names unique whatever their case, a racing upload skipped (INSERT IGNORE)
  'image-library',
  'leaderboard',
  'links',
  'lookup',
  // connections the server kills (KILL) must not end the process
  'outage',
  // the same under a gift load: nothing lost or doubled
  'outage-load',
  'mail',
  // the template editor's unique names (moved out of mail)
  'mail-templates',
  'password-reset',
  // plugins' declared mail templates stored when missing (insert-if-absent)
  'plugin-mail-templates',
  'pterodactyl-accounts',
  'redeem',
  // its migration takes over a table a core migration made
  'redirect-links',
  'referrals',
  'renewals',
  'server-catalog',
  'server-queue',
  'servers',
  'servers-resources',
  'sso',
  // the tickets desk: sorting by priority (a CASE over a string), the hours column added by ALTER TABLE
  'staff-assign',
  'departments-hours',
  // tickets: the open-ticket limit and status changes as conditional writes; attachments rolled back with their
  // message; the unread counts compare nullable timestamps
  'tickets',
  'attachments',
  'badges',
  'linked-server',
  // announcements: three ALTER TABLEs, and mail batches claimed by a conditional update of a cursor
  'announcement-mail',
  // the core's mail choices: one row per account and kind, written as insert-unless-taken then update
  'mail-preferences',
  'store',
  'wallet',
  // department webhooks: deliveries claimed by a conditional UPDATE (MySQL counts changed rows)
  'webhooks',
  // image hosting: the quota as a conditional UPDATE (changed rows), the upload rolled back with a refused wallet debit
  'image-hosting',
  // backups: a consistent-snapshot transaction, the restore without a transaction (DDL commits) and its put-back
  'backup-roundtrip',
  'backup-move',
  // the backups screen: its job lease in the database, a restore from the screen and the lease it brings back
  'backups',
];
/** a file's name in MARIADB_FILES: tests/api/redeem.test.ts and plugins/x/tests/redeem.api.test.ts are both "redeem" */
const testName = (file: string) => basename(file).replace(/(\.api)?\.test\.ts$/, '');
const apiProject = (dialect: string, index: number) => {
  const files = perDialect.filter((f) => dialect !== 'mysql' || MARIADB_FILES.includes(testName(f)));
  // the dialect-free API files run with the first dialect's project
  const once = index === 0 ? apiFiles.filter((f) => !perDialect.includes(f)) : [];
  return {
    ...shared,
    test: {
      name: `api-${dialect}`,
      include: [...files, ...once],
      environment: 'node',
      env: { OREPANEL_TEST_DIALECTS: dialect },
      // every API file imports the whole server and its plugins: once per worker, not once per file
      // (about 1.5 s of CPU a file). A file starts its own panels on databases of their own, and
      // nothing here mocks modules, so what the files share is code and caches of compiled code.
      isolate: false,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
};
const shared = {
  resolve: {
    alias: [
      { find: /^@orepanel\/sdk$/, replacement: here('./sdk/client.ts') },
      { find: /^@orepanel\/sdk\/server$/, replacement: here('./sdk/server.ts') },
      { find: /^@orepanel\/sdk\/testing$/, replacement: here('./sdk/testing.ts') },
      { find: /^@orepanel\/sdk\/testing\/server$/, replacement: here('./sdk/testing/server.ts') },
    ],
  },
  oxc: { jsx: { runtime: 'automatic' as const, importSource: '@emotion/react' } },
};

export default defineConfig({
  ...shared,
  test: {
    // vitest would use one worker on a 2-core machine; the API tests spend much of their time waiting
    // on the databases and on sockets, so three files at a time keep both cores busy
    maxWorkers: 3,
    projects: [
      {
        ...shared,
        test: {
          name: 'unit',
          include: ['{server,sdk,kernel,plugins,tests}/**/*.test.{ts,tsx}'],
          exclude: ['tests/e2e/**', 'tests/api/**', 'plugins/*/tests/*.api.test.ts', 'plugins/*/tests/*.e2e.test.ts', 'node_modules/**', 'dist/**'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...DIALECTS.map(apiProject),
      {
        ...shared,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts', 'plugins/*/tests/*.e2e.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
