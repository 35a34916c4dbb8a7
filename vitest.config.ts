import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Two projects: everything that runs in-process (unit, API, contract; DOM tests opt into jsdom with a
// `// @vitest-environment jsdom` comment), and the browser end-to-end tests, which drive Debian's
// chromium against the built panel one file at a time.
const shared = {
  resolve: {
    alias: [
      { find: /^@orepanel\/sdk$/, replacement: here('./sdk/client.ts') },
      { find: /^@orepanel\/sdk\/server$/, replacement: here('./sdk/server.ts') },
      { find: /^@orepanel\/sdk\/testing$/, replacement: here('./sdk/testing.ts') },
    ],
  },
  oxc: { jsx: { runtime: 'automatic' as const, importSource: '@emotion/react' } },
};

export default defineConfig({
  ...shared,
  test: {
    projects: [
      {
        ...shared,
        test: {
          name: 'unit',
          include: ['{server,sdk,kernel,plugins,tests}/**/*.test.{ts,tsx}'],
          exclude: ['tests/e2e/**', 'node_modules/**', 'dist/**'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...shared,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
