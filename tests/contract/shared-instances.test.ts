// Contract (a): a BUILT plugin bundle loaded in a fresh SystemJS registry receives the very same react,
// react-router-dom, i18next and @orepanel/sdk instances as the kernel. The bundle is fetched through
// SystemJS's fetch hook (node has no <script> tags), which also checks its SRI integrity.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as i18next from 'i18next';
import * as React from 'react';
import * as ReactI18next from 'react-i18next';
import * as ReactRouterDom from 'react-router-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '@orepanel/sdk';
import { installPlugin } from '../../sdk/client/install';
import { createKernelHooks, pluginHookTargets } from '../../kernel/lifecycle';
import { createPluginRegistry, registerIntegrity, type SystemLoader } from '../../kernel/modules/system-registry';
import { buildFixtures, type BuiltFixtures } from './support/fixtures';

let fixtures: BuiltFixtures;

beforeAll(async () => {
  fixtures = await buildFixtures(['fx-shared']);
});
afterAll(() => fixtures?.remove());

const ORIGIN = 'http://panel.test';

/** Lets a registry fetch built files from disk, checking the integrity SystemJS passes along. */
function fetchFromDisk(registry: SystemLoader, publicDir: string, fetched: string[]): void {
  const loader = registry as unknown as {
    shouldFetch: () => boolean;
    fetch: (url: string, init: { integrity?: string }) => Promise<Response>;
  };
  loader.shouldFetch = () => true;
  loader.fetch = async (url, init) => {
    fetched.push(url);
    const bytes = readFileSync(join(publicDir, new URL(url).pathname));
    if (init.integrity) {
      const actual = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
      if (actual !== init.integrity) throw new TypeError(`integrity mismatch for ${url}`);
    }
    return new Response(bytes, { headers: { 'content-type': 'application/javascript' } });
  };
}

async function loadFixture(): Promise<{ module: Record<string, unknown>; fetched: string[]; entryUrl: string }> {
  const served = fixtures.served['fx-shared'];
  const registry = createPluginRegistry();
  const fetched: string[] = [];
  fetchFromDisk(registry, fixtures.publicDir, fetched);
  const entryUrl = `${ORIGIN}${served.entry}`;
  registerIntegrity(registry, entryUrl, served.integrity as string);
  const module = (await registry.import(entryUrl)) as Record<string, unknown>;
  return { module, fetched, entryUrl };
}

describe('contract (a): a built plugin shares the kernel instances', () => {
  it('gets the kernel React, router, i18next, react-i18next and sdk — the same objects, not copies', async () => {
    const { module } = await loadFixture();
    const shared = module.shared as Record<string, Record<string, unknown>>;
    expect(shared.React.useState).toBe(React.useState);
    expect(shared.React.createElement).toBe(React.createElement);
    expect(shared.React.default).toBe((React as unknown as { default: unknown }).default);
    expect(shared.ReactRouterDom.useNavigate).toBe(ReactRouterDom.useNavigate);
    expect(shared.ReactRouterDom.Link).toBe(ReactRouterDom.Link);
    expect(shared.ReactRouterDom.UNSAFE_NavigationContext).toBe(ReactRouterDom.UNSAFE_NavigationContext);
    expect(shared.i18next.default).toBe(i18next.default);
    expect(shared.i18next.default).toBe(sdk.i18n);
    expect(shared.ReactI18next.useTranslation).toBe(ReactI18next.useTranslation);
    expect(shared.sdk.definePlugin).toBe(sdk.definePlugin);
    expect(shared.sdk.useSession).toBe(sdk.useSession);
    expect(shared.sdk.http).toBe(sdk.http);
  });

  it('is fetched once, with the integrity of its build record, and its page stays lazy', async () => {
    const { fetched, entryUrl } = await loadFixture();
    expect(fetched).toEqual([entryUrl]);
  });

  it('installs through the sdk contract and provides a lazy page that loads from the same registry', async () => {
    const { module } = await loadFixture();
    const hooks = createKernelHooks();
    const failures: unknown[] = [];
    const result = installPlugin(module.default, fixtures.served['fx-shared'], { hooks: pluginHookTargets(hooks), report: (f) => failures.push(f) });
    expect(failures).toEqual([]);
    expect(result.ok).toBe(true);
  });
});
