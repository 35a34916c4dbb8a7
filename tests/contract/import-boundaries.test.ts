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
        "import type { ref } from '../../b/contract';",
        "import { ref as other } from '../../c/contract';",
        "import { secret } from '../../b/server/internal';",
        "import lodash from 'kysely';",
        "// import { nothing } from '../../b/server/internal'; (a comment is not an import)",
        "const lazy = () => import('../../../kernel/boot');",
      ].join('\n'),
      'plugins/a/server/index.ts': "import { sql } from 'kysely';\nimport { readFileSync } from 'node:fs';\nimport leftpad from 'left-pad';\n",
      'plugins/a/tests/page.test.tsx': "import { it } from 'vitest';\nimport manifest from '../../b/plugin.json';\nimport { secret } from '../../b/server/internal';\n",
      'tests/api/harness.ts': 'export const startPanel = 1;\n',
      'tests/api/smtp.ts': 'export const smtp = 1;\n',
      'tests/api/wallet.test.ts': 'export const fromATest = 1;\n',
      'tests/e2e/harness.ts': 'export const usePanelAndBrowser = 1;\n',
      'tests/fixtures/stripe.ts': 'export const stripe = 1;\n',
      'server/app.ts': 'export const buildApp = 1;\n',
      'plugins/a/tests/codes.api.test.ts': [
        "import { startPanel } from '../../../tests/api/harness';",
        "import { smtp } from '../../../tests/api/smtp';",
        "import { stripe } from '../../../tests/fixtures/stripe';",
        "import { secret } from '../../b/server/internal';",
        "import { fromATest } from '../../../tests/api/wallet.test';",
        "import { buildApp } from '../../../server/app';",
      ].join('\n'),
      'plugins/a/tests/shop.e2e.test.ts': "import { usePanelAndBrowser } from '../../../tests/e2e/harness';\nimport { stripe } from '../../../tests/fixtures/stripe';\n",
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
        'plugins/a/tests/codes.api.test.ts:4 ../../b/server/internal',
        'plugins/a/tests/codes.api.test.ts:5 ../../../tests/api/wallet.test',
        'plugins/a/tests/codes.api.test.ts:6 ../../../server/app',
        'plugins/a/tests/unit.test.ts:1 ../../../tests/api/harness',
        'kernel/boot.ts:1 ../plugins/a/client/Page',
        'server/core.ts:1 ../plugins/b/server/internal',
      ].sort(),
    );
    const rules = check(root).map((v) => v.rule);
    expect(rules).toContain('plugin "a" imports the contract of "c" without listing it in requires');
    expect(rules.some((r) => r.startsWith('the kernel imports a plugin'))).toBe(true);
  });

  it("lets a plugin import another plugin's contract.ts only when it requires that plugin, and keeps a contract on its own", () => {
    const root = tree({
      'plugins/shop/plugin.json': JSON.stringify({ id: 'shop', requires: ['bank'] }),
      'plugins/bank/plugin.json': JSON.stringify({ id: 'bank' }),
      'plugins/mail/plugin.json': JSON.stringify({ id: 'mail' }),
      'plugins/bank/server/ledger.ts': 'export const ledger = 1;\n',
      'plugins/bank/shared/rules.ts': 'export const rule = 1;\n',
      'plugins/bank/contract.ts': [
        "import { createServiceRef } from '@orepanel/sdk/server';",
        "import type { Kysely } from 'kysely';",
        "import { ledger } from './server/ledger';",
        "import type { Rule } from './shared/rules';",
        "import { sql } from 'kysely';",
        'export const BANK = createServiceRef<Kysely<unknown>>("bank.ledger");',
      ].join('\n'),
      'plugins/mail/contract.ts': 'export const MAIL = 1;\n',
      // a contract may name the types of a contract its own plugin requires
      'plugins/shop/contract.ts': "import type { BANK } from '../bank/contract';\n",
      'plugins/shop/server/index.ts': [
        "import { BANK } from '../../bank/contract';",
        "import { MAIL } from '../../mail/contract';",
        "import { ledger } from '../../bank/server/ledger';",
        "import { rule } from '../../bank/shared/rules';",
      ].join('\n'),
      'plugins/shop/client/Page.tsx': [
        "import type { BANK } from '../../bank/contract';",
        "import { BANK as value } from '../../bank/contract';",
        "import type { MAIL } from '../../mail/contract';",
      ].join('\n'),
    });
    const violations = check(root);
    expect(violations.map((v) => `${v.file}:${v.line} ${v.specifier}`).sort()).toEqual(
      [
        // not in requires
        'plugins/shop/server/index.ts:2 ../../mail/contract',
        'plugins/shop/client/Page.tsx:3 ../../mail/contract',
        // another plugin's files other than its contract
        'plugins/shop/server/index.ts:3 ../../bank/server/ledger',
        'plugins/shop/server/index.ts:4 ../../bank/shared/rules',
        // a client takes only types from a contract
        'plugins/shop/client/Page.tsx:2 ../../bank/contract',
        // a contract importing its own plugin's code, or a package's code
        'plugins/bank/contract.ts:3 ./server/ledger',
        'plugins/bank/contract.ts:4 ./shared/rules',
        'plugins/bank/contract.ts:5 kysely',
      ].sort(),
    );
    const rule = (at: string) => violations.find((v) => `${v.file}:${v.line}` === at)?.rule;
    expect(rule('plugins/shop/server/index.ts:2')).toBe('plugin "shop" imports the contract of "mail" without listing it in requires');
    expect(rule('plugins/shop/server/index.ts:3')).toMatch(
      /^plugin "shop" reaches outside its folder \(to plugins\/bank\/server\/ledger.ts\); use the sdk or the other plugin's contract.ts$/,
    );
    expect(rule('plugins/shop/client/Page.tsx:2')).toBe('plugin "shop"\'s client imports values from the contract of "bank"; a client takes only its types (import type)');
    expect(rule('plugins/bank/contract.ts:3')).toMatch(/^the contract of "bank" imports its own plugin's server\/ledger.ts/);
    expect(rule('plugins/bank/contract.ts:5')).toMatch(/^the contract of "bank" imports "kysely"; .*only as types/);
  });

  it("lets a plugin import the contract of a plugin it lists as optional (ctx.services.find), and no other's", () => {
    const root = tree({
      'plugins/desk/plugin.json': JSON.stringify({ id: 'desk', optional: ['hosting'] }),
      'plugins/hosting/plugin.json': JSON.stringify({ id: 'hosting' }),
      'plugins/mail/plugin.json': JSON.stringify({ id: 'mail' }),
      'plugins/hosting/contract.ts': 'export const HOSTING = 1;\n',
      'plugins/mail/contract.ts': 'export const MAIL = 1;\n',
      'plugins/desk/server/index.ts': ["import { HOSTING } from '../../hosting/contract';", "import { MAIL } from '../../mail/contract';"].join('\n'),
    });
    expect(check(root).map((v) => `${v.file}:${v.line} ${v.rule}`)).toEqual([
      'plugins/desk/server/index.ts:2 plugin "desk" imports the contract of "mail" without listing it in requires',
    ]);
  });

  it('holds every contract of this repository to the rule: the sdk and types only', () => {
    const contracts = check(findPackageRoot()).filter((v) => v.file.endsWith('/contract.ts'));
    expect(contracts).toEqual([]);
  });

  it('reads every import form, not comments', () => {
    const text = "import a from 'x';\nimport type { B } from \"y\";\nexport * from './z';\nconst c = await import('w');\n/* import d from 'no'; */\nimport 'side-effect';\n";
    expect((importsOf as (t: string) => { specifier: string; line: number; typeOnly: boolean }[])(text)).toEqual([
      { specifier: 'x', line: 1, typeOnly: false },
      { specifier: 'y', line: 2, typeOnly: true },
      { specifier: './z', line: 3, typeOnly: false },
      { specifier: 'w', line: 4, typeOnly: false },
      { specifier: 'side-effect', line: 6, typeOnly: false },
    ]);
  });
});
