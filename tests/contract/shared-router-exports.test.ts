// react-router-dom as the kernel shares it with plugins: every export of the package's browser entry,
// except the documented server / RSC / framework-mode ones (kernel/modules/react-router-dom.exclusions.json).
// Fails when a router upgrade adds a browser export the kernel does not share (regenerate with
// `node kernel/build/router-exports.mjs --write`), when the list keeps a stale exclusion, or when a
// plugin build imports an excluded name.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ReactRouterDom from 'react-router-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlugin } from '../../kernel/build/plugin-preset.mjs';
import { browserExportNames, readRouterExclusions, renderRouterBrowserModule, routerBrowserModuleFile, routerVersion } from '../../kernel/build/router-exports.mjs';
import * as SharedRouter from '../../kernel/modules/react-router-dom-browser';
import { SHARED_MODULES } from '../../kernel/modules/shared-modules';

let browserExports: string[];
const exclusions = readRouterExclusions();
const work = mkdtempSync(join(tmpdir(), 'orepanel-router-'));

beforeAll(async () => {
  browserExports = await browserExportNames();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('react-router-dom shared with plugins', () => {
  it('reads a real export list from the browser entry', () => {
    expect(browserExports.length).toBeGreaterThan(80);
    for (const name of ['createBrowserRouter', 'RouterProvider', 'Link', 'NavLink', 'useNavigate', 'useLocation', 'Outlet']) expect(browserExports).toContain(name);
  });

  it('the kernel shares every browser export that is not on the documented exclusion list', async () => {
    const shared = Object.keys(await SHARED_MODULES['react-router-dom'].load());
    const missing = browserExports.filter((name) => !Object.hasOwn(exclusions, name) && !shared.includes(name));
    expect(missing, 'run node kernel/build/router-exports.mjs --write').toEqual([]);
  });

  it('the kernel shares none of the excluded names, and each exclusion says why', () => {
    const shared = Object.keys(SharedRouter);
    expect(shared.filter((name) => Object.hasOwn(exclusions, name))).toEqual([]);
    for (const [name, reason] of Object.entries(exclusions)) expect(reason.trim().length, name).toBeGreaterThan(10);
  });

  it('lists no exclusion the package no longer exports', () => {
    expect(Object.keys(exclusions).filter((name) => !browserExports.includes(name))).toEqual([]);
  });

  it('hands out the package’s own functions (a subset of the namespace, not copies)', async () => {
    const shared = (await SHARED_MODULES['react-router-dom'].load()) as Record<string, unknown>;
    const full = ReactRouterDom as unknown as Record<string, unknown>;
    for (const name of Object.keys(shared)) expect(shared[name], name).toBe(full[name]);
  });

  it('kernel/modules/react-router-dom-browser.ts is exactly what the generator writes', () => {
    const expected = renderRouterBrowserModule(
      browserExports.filter((name) => !Object.hasOwn(exclusions, name)),
      routerVersion(),
    );
    expect(readFileSync(routerBrowserModuleFile, 'utf8')).toBe(expected);
  });

  it('refuses to build a plugin that imports a server-only router export, naming it and why', async () => {
    const dir = join(work, 'cookie-eater');
    mkdirSync(join(dir, 'client'), { recursive: true });
    writeFileSync(join(dir, 'plugin.json'), JSON.stringify({ id: 'cookie-eater', name: 'Cookie eater', version: '1.0.0', sdk: '^2.0.0', locales: [] }));
    writeFileSync(
      join(dir, 'client', 'index.ts'),
      "import { definePlugin } from '@orepanel/sdk';\nimport { createCookie } from 'react-router-dom';\nexport default definePlugin({ id: 'cookie-eater', setup() { createCookie('x'); } });\n",
    );
    await expect(buildPlugin({ pluginDir: dir, publicDir: join(work, 'public') })).rejects.toThrow(
      /plugin "cookie-eater" imports createCookie \(server: cookies are set by the API host.*\) from react-router-dom/,
    );
  });
});
