// `@orepanel/sdk/vitest`: the test setup of a plugin project, so that its tests run as the panel's own
// plugin tests do with nothing copied by hand:
//   - JSX through @emotion/react's automatic runtime (the `css` prop), as the panel builds it;
//   - `*.test.tsx` in jsdom, with the plugin's catalogues (locales/<lang>.json) given to renderPlugin;
//   - `*.test.ts` in node (the server test kit starts a real panel on SQLite: give it time);
//   - the sdk is run through vitest rather than node directly, so the panel the server test kit starts
//     can load the plugin's server part from its TypeScript sources.
import { fileURLToPath } from 'node:url';

const setupFile = fileURLToPath(new URL('./dist/vitest-setup.js', import.meta.url));
const IGNORED = ['node_modules/**', 'dist/**'];

/**
 * @param {{ root?: string, test?: Record<string, unknown> }} [options]
 *   root: the plugin project (the folder holding plugin.json; default the current folder);
 *   test: more vitest `test` options, merged over the preset's
 */
export function definePluginTestConfig({ root = process.cwd(), test = {} } = {}) {
  return {
    root,
    oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
    test: {
      env: { OREPANEL_PLUGIN_DIR: root },
      server: { deps: { inline: [/@orepanel[\\/]sdk/] } },
      projects: [
        {
          extends: true,
          // a page test renders the whole sdk in jsdom: on a busy laptop or CI runner that takes longer than vitest's 5 s
          test: { name: 'client', include: ['**/*.test.tsx'], exclude: IGNORED, environment: 'jsdom', setupFiles: [setupFile], testTimeout: 30_000 },
        },
        {
          extends: true,
          test: { name: 'server', include: ['**/*.test.ts'], exclude: IGNORED, environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 },
        },
      ],
      ...test,
    },
  };
}
