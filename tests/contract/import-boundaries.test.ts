// The import rules of `npm run lint` (scripts/check-boundaries.mjs): the repository keeps them, and a
// deliberately bad tree breaks each one by name.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module script without declarations
import { checkBoundaries, importsOf } from '../../scripts/check-boundaries.mjs';
import { findPackageRoot } from '../../server/paths';

interface Violation {
  file: string;
  line: number;
  specifier: string;
  rule: string;
}
const check = checkBoundaries as (root: string) => Violation[];

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'orepanel-boundaries-'));
  made.push(root);
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ dependencies: { kysely: '1' }, devDependencies: { vitest: '1' } }),
    'sdk/shared-modules.json': JSON.stringify({ modules: { react: 'eager', '@orepanel/sdk': 'eager' } }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('import boundaries', () => {
  it('hold in this repository', () => {
    expect(check(findPackageRoot())).toEqual([]);
  });

  it('refuse each kind of bad import, naming file, line and rule', () => {
    const root = tree({
      'plugins/a/plugin.json': JSON.stringify({ id: 'a', requires: ['b'] }),
      'plugins/b/plugin.json': JSON.stringify({ id: 'b' }),
      'plugins/c/plugin.json': JSON.stringify({ id: 'c' }),
      'plugins/b/contract.ts': 'export const ref = 1;\n',
      'plugins/c/contract.ts': 'export const ref = 1;\n',
      'plugins/b/server/internal.ts': 'export const secret = 1;\n',
      'plugins/a/shared/rules.ts': 'export const rule = 1;\n',
      'plugins/a/client/Page.tsx': [
        "import React from 'react';",
        "import { http } from '@orepanel/sdk';",
        "import { rule } from '../shared/rules';",
        "import { ref } from '../../b/contract';",
        "import { ref as other } from '../../c/contract';",
        "import { secret } from '../../b/server/internal';",
        "import lodash from 'kysely';",
        "// import { nothing } from '../../b/server/internal'; (a comment is not an import)",
        "const lazy = () => import('../../../kernel/boot');",
      ].join('\n'),
      'plugins/a/server/index.ts': "import { sql } from 'kysely';\nimport { readFileSync } from 'node:fs';\nimport leftpad from 'left-pad';\n",
      'plugins/a/tests/page.test.tsx': "import { it } from 'vitest';\nimport manifest from '../../b/plugin.json';\nimport { secret } from '../../b/server/internal';\n",
      'tests/api/harness.ts': 'export const startPanel = 1;\n',
      'tests/api/other.ts': 'export const other = 1;\n',
      'plugins/a/tests/codes.api.test.ts':
        "import { startPanel } from '../../../tests/api/harness';\nimport { other } from '../../../tests/api/other';\nimport { secret } from '../../b/server/internal';\n",
      'plugins/a/tests/unit.test.ts': "import { startPanel } from '../../../tests/api/harness';\n",
      'kernel/boot.ts': "import page from '../plugins/a/client/Page';\n",
      'server/core.ts': "import { secret } from '../plugins/b/server/internal';\n",
    });
    const found = check(root).map((v) => `${v.file}:${v.line} ${v.specifier}`);
    expect(found.sort()).toEqual(
      [
        'plugins/a/client/Page.tsx:5 ../../c/contract',
        'plugins/a/client/Page.tsx:6 ../../b/server/internal',
        'plugins/a/client/Page.tsx:7 kysely',
        'plugins/a/client/Page.tsx:9 ../../../kernel/boot',
        'plugins/a/server/index.ts:3 left-pad',
        'plugins/a/tests/page.test.tsx:3 ../../b/server/internal',
        'plugins/a/tests/codes.api.test.ts:2 ../../../tests/api/other',
        'plugins/a/tests/codes.api.test.ts:3 ../../b/server/internal',
        'plugins/a/tests/unit.test.ts:1 ../../../tests/api/harness',
        'kernel/boot.ts:1 ../plugins/a/client/Page',
        'server/core.ts:1 ../plugins/b/server/internal',
      ].sort(),
    );
    const rules = check(root).map((v) => v.rule);
    expect(rules).toContain('plugin "a" imports the contract of "c" without listing it in requires');
    expect(rules.some((r) => r.startsWith('the kernel imports a plugin'))).toBe(true);
  });

  it('reads every import form, not comments', () => {
    const text = "import a from 'x';\nimport type { B } from \"y\";\nexport * from './z';\nconst c = await import('w');\n/* import d from 'no'; */\nimport 'side-effect';\n";
    expect((importsOf as (t: string) => { specifier: string; line: number }[])(text)).toEqual([
      { specifier: 'x', line: 1 },
      { specifier: 'y', line: 2 },
      { specifier: './z', line: 3 },
      { specifier: 'w', line: 4 },
      { specifier: 'side-effect', line: 6 },
    ]);
  });
});
