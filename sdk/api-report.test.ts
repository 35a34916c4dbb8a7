// The sdk's public surface is committed in sdk/api-report/ (scripts/api-report.mjs): a change to what
// a plugin can import must show as a diff of the report, and the suite fails until it is committed.
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareReports, ENTRY_POINTS, generateApiReport, lineDiff, readCommittedReport, REPO_ROOT, splitStatements, UPDATE_COMMAND } from '../scripts/api-report.mjs';

describe('the sdk API report', () => {
  it('is current: the committed report is what the sdk exports now', { timeout: 90_000 }, () => {
    const difference = compareReports(readCommittedReport(), generateApiReport());
    if (difference) expect.fail(difference);
  });

  it('does not move when code moves between the sdk modules, and shows a change of the surface as a diff', { timeout: 90_000 }, () => {
    const copy = mkdtempSync(join(tmpdir(), 'orepanel-api-report-test-'));
    try {
      cpSync(join(REPO_ROOT, 'sdk'), join(copy, 'sdk'), { recursive: true, filter: (path) => !path.includes('/api-report') });
      cpSync(join(REPO_ROOT, 'tsconfig.json'), join(copy, 'tsconfig.json'));
      symlinkSync(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
      const server = ENTRY_POINTS.filter((entry) => entry.name === '@orepanel/sdk/server');
      const committed = new Map([...readCommittedReport()].filter(([name]) => name === server[0].report));
      const edit = (file: string, from: string, to: string) => {
        const path = join(copy, file);
        const text = readFileSync(path, 'utf8');
        expect(text).toContain(from);
        writeFileSync(path, text.replace(from, to));
      };

      // likeLiteral moves to a module of its own: the same surface
      const likeLiteral = /\/\*\*\n \* `text` for a LIKE pattern[\s\S]*?\n}\n/.exec(readFileSync(join(copy, 'sdk/server/database.ts'), 'utf8'))![0];
      edit('sdk/server/database.ts', likeLiteral, '');
      writeFileSync(join(copy, 'sdk/server/like.ts'), likeLiteral);
      edit('sdk/server.ts', "export * from './server/time';", "export * from './server/time';\nexport * from './server/like';");
      expect(compareReports(committed, generateApiReport(copy, server))).toBe('');

      // a new member of the plugin context: a diff naming it, and the command that updates the report
      edit('sdk/server/plugin.ts', '  readonly clock: PluginClock;', '  readonly clock: PluginClock;\n  readonly weather: string;');
      const difference = compareReports(committed, generateApiReport(copy, server));
      expect(difference).toContain('sdk/api-report/server.api.md differs (- committed, + now):');
      expect(difference).toContain('      readonly clock: PluginClock;\n+     readonly weather: string;');
      expect(difference).toContain(`run \`${UPDATE_COMMAND}\``);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('reads declaration statements whole: blocks, multi-line types, strings and template types', () => {
    const text = [
      "import type { A } from './a';",
      'export interface B {',
      '    a: "}";',
      '    b: `${string};{`;',
      '}',
      'export type C = {',
      '    c: 1;',
      '} | {',
      '    d: 2;',
      '};',
      "declare module 'fastify' {",
      '    interface X {',
      '        y?: string;',
      '    }',
      '}',
      'export declare function f(x: { a: 1 }): void;',
    ].join('\n');
    expect(splitStatements(text)).toEqual([
      "import type { A } from './a';",
      'export interface B {\n    a: "}";\n    b: `${string};{`;\n}',
      'export type C = {\n    c: 1;\n} | {\n    d: 2;\n};',
      "declare module 'fastify' {\n    interface X {\n        y?: string;\n    }\n}",
      'export declare function f(x: { a: 1 }): void;',
    ]);
  });

  it('diffs by lines with context', () => {
    expect(lineDiff('a\nb\nc', 'a\nb\nc')).toBe('');
    expect(lineDiff('1\n2\n3\n4\n5\n6\n7', '1\n2\n3\nfour\n5\n6\n7', 1)).toBe('  …\n  3\n- 4\n+ four\n  5\n  …');
  });
});
