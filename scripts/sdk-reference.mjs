#!/usr/bin/env node
// docs/sdk-reference.md: the sdk's components (with their props), hooks, icons and the rest of each
// entry point, generated from the committed API report (sdk/api-report/*.api.md), so the reference
// says exactly what a plugin can import — no more, no less — and changes when the API changes.
//
//   npm run sdk:reference              writes docs/sdk-reference.md
//   npm run sdk:reference -- --check   exits 1 when it is not current (tests/contract/sdk-reference.test.ts)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTRY_POINTS, REPORT_DIR, splitStatements } from './api-report.mjs';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REFERENCE_FILE = 'docs/sdk-reference.md';
const UPDATE = 'npm run sdk:reference';

/** The exported statements of one report (what its entry exports), and the helper ones it shows after them. */
function readReport(root, report) {
  const text = readFileSync(join(root, REPORT_DIR, report), 'utf8');
  const code = text.slice(text.indexOf('```ts\n') + 6, text.lastIndexOf('```'));
  const cut = (marker) => (code.includes(marker) ? code.indexOf(marker) : code.length);
  const exportedEnd = Math.min(cut('\n// re-exported from packages'), cut('\n// used by the API above'), cut('\n// module augmentations'));
  const exported = splitStatements(code.slice(0, exportedEnd).replace(/^\/\/ exported as .*$/gm, ''));
  const helpers = splitStatements(code.slice(exportedEnd).replace(/^\/\/.*$/gm, ''));
  const reexported = code.includes('// re-exported from packages')
    ? code
        .slice(cut('\n// re-exported from packages'))
        .split('\n')
        .slice(2)
        .filter((line) => line.startsWith('export'))
    : [];
  return { exported, helpers, reexported };
}

const nameOf = (statement) =>
  /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:function|const|let|class|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/.exec(statement)?.[1] ?? null;
const kindOf = (statement) => /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(function|const|let|class|interface|type|enum|namespace)\b/.exec(statement)?.[1] ?? null;
const isComponent = (statement) => kindOf(statement) === 'function' && /^[A-Z]/.test(nameOf(statement) ?? '') && /JSX\.Element;?$/.test(statement);
const isHook = (statement) => kindOf(statement) === 'function' && /^use[A-Z]/.test(nameOf(statement) ?? '');

/** The members of an interface statement, one per line, without the braces. */
function members(statement) {
  const body = statement.slice(statement.indexOf('{') + 1, statement.lastIndexOf('}'));
  return body
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** `Props` type a component takes: `({ … }: ButtonProps)` → ButtonProps. */
function propsTypeOf(statement) {
  return /\(\s*(?:\{[\s\S]*\}|[\w$]+)\s*:\s*([A-Z][\w$]*)(?:<[^>]*>)?\s*\)\s*:/.exec(statement)?.[1] ?? null;
}

const code = (text) => `\`${text.replace(/`/g, '\\`')}\``;
const block = (text) => ['```ts', text, '```'];

function componentSection(exported) {
  const byName = new Map(exported.map((s) => [nameOf(s), s]));
  const out = ['### Components', ''];
  for (const statement of exported.filter(isComponent).sort((a, b) => nameOf(a).localeCompare(nameOf(b)))) {
    const name = nameOf(statement);
    const propsName = propsTypeOf(statement);
    const props = propsName ? byName.get(propsName) : undefined;
    out.push(`#### ${name}`, '');
    if (props && kindOf(props) === 'interface') {
      const extendsClause = /interface\s+\w+(?:<[^>]*>)?\s+extends\s+([^{]+)\{/.exec(props)?.[1]?.trim();
      out.push(`Props (${code(propsName)}${extendsClause ? `, besides ${code(extendsClause)}` : ''}):`, '', ...block(members(props).join('\n')), '');
    } else if (props) {
      out.push(...block(props), '');
    } else {
      out.push(...block(statement.replace(/:\s*import\("@emotion\/react\/jsx-runtime"\)\.JSX\.Element;?$/, '')), '');
    }
  }
  return out;
}

function iconSection(helpers) {
  const paths = helpers.find((s) => nameOf(s) === 'PATHS');
  if (!paths) return [];
  const names = [...paths.matchAll(/readonly\s+(?:'([^']+)'|"([^"]+)"|([\w$]+))\s*:/g)].map((m) => m[1] ?? m[2] ?? m[3]).sort();
  return [
    '### Icons',
    '',
    `The names an \`icon\` takes (\`IconName\`: nav items in plugin.json, \`<Icon name>\`, \`Button icon\`, \`EmptyState icon\`): ${names.length} icons.`,
    '',
    names.map(code).join(' · '),
    '',
  ];
}

function listSection(title, statements) {
  if (statements.length === 0) return [];
  return [`### ${title}`, '', ...block(statements.sort((a, b) => nameOf(a).localeCompare(nameOf(b))).join('\n\n')), ''];
}

function namesSection(title, statements) {
  if (statements.length === 0) return [];
  const names = [...new Set(statements.map(nameOf))].sort((a, b) => a.localeCompare(b));
  return [`### ${title}`, '', names.map(code).join(' · '), ''];
}

/** The reference's text. */
export function renderReference(root = REPO_ROOT) {
  const out = [
    '# SDK reference',
    '',
    `> Generated by \`${UPDATE}\` from the committed API report (${REPORT_DIR}/*.api.md); do not edit by hand.`,
    '> The guide is [plugins.md](plugins.md). Each section is one import path.',
    '',
  ];
  out.push('Contents:', '');
  for (const entry of ENTRY_POINTS)
    out.push(
      `- [\`${entry.name}\`](#${entry.name
        .replace(/[^a-z0-9 -]/gi, '')
        .replace(/ /g, '-')
        .toLowerCase()})`,
    );
  out.push('');
  for (const entry of ENTRY_POINTS) {
    const { exported, helpers, reexported } = readReport(root, entry.report);
    const named = exported.filter((s) => nameOf(s));
    const components = named.filter(isComponent);
    const hooks = named.filter(isHook);
    const propsNames = new Set(components.map(propsTypeOf).filter(Boolean));
    const values = named.filter((s) => ['function', 'const', 'let', 'class', 'enum'].includes(kindOf(s)) && !isComponent(s) && !isHook(s));
    const types = named.filter((s) => ['interface', 'type', 'namespace'].includes(kindOf(s)) && !propsNames.has(nameOf(s)));
    out.push(`## ${entry.name}`, '');
    if (components.length > 0) out.push(...componentSection(named));
    if (hooks.length > 0) out.push(...listSection('Hooks', hooks));
    out.push(...iconSection(helpers));
    out.push(...listSection(components.length > 0 ? 'Other functions and values' : 'Functions and values', values));
    // a short type alias says all it is in one line (ButtonSize = 'sm' | 'md' | 'lg'): shown whole
    const short = (st) => kindOf(st) === 'type' && !st.includes('\n') && st.length <= 160;
    out.push(...listSection('Types', types.filter(short)));
    out.push(
      ...namesSection(
        types.some(short) ? 'Interfaces and other types' : 'Types',
        types.filter((st) => !short(st)),
      ),
    );
    if (reexported.length > 0) out.push('### Re-exported from packages', '', ...block(reexported.join('\n')), '');
  }
  while (out[out.length - 1] === '') out.pop();
  return `${out.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const file = join(REPO_ROOT, REFERENCE_FILE);
  const text = renderReference();
  if (process.argv.includes('--check')) {
    if (readFileSync(file, 'utf8') !== text) {
      process.stderr.write(`${REFERENCE_FILE} is not current: run ${UPDATE}\n`);
      process.exit(1);
    }
    process.stdout.write(`${REFERENCE_FILE}: current\n`);
  } else {
    writeFileSync(file, text);
    process.stdout.write(`wrote ${REFERENCE_FILE}\n`);
  }
}
