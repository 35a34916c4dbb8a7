// Preload hints per route (issue 15): the requested route's plugin entry (requirements first, with
// their integrity), its page's chunks and, inside the shell, the shell's chunk — after the kernel's
// script tag; nothing for a path no route takes; nothing that is not one of our own files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { RoutePreloads, routeMatcher } from './route-preloads';

const dir = mkdtempSync(join(tmpdir(), 'orepanel-preloads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const served = [
  { id: 'core-ui', entry: '/plugins/core-ui/core-ui-AAAAAAAA.js', integrity: 'sha384-abc+/=' },
  {
    id: 'auth',
    entry: '/plugins/auth/auth-BBBBBBBB.js',
    integrity: 'sha384-def',
    requires: ['core-ui'],
    routes: [
      { path: '/auth/login', component: 'LoginPage', layout: 'bare' },
      { path: '/auth/:provider', component: 'SsoPage', layout: 'bare' },
    ],
  },
  { id: 'servers', entry: '/plugins/servers/servers-CCCCCCCC.js', integrity: 'sha384-ghi', routes: [{ path: '/servers/:id/*', component: 'ServerPage' }] },
  { id: 'evil', entry: '/plugins/evil/x.js"><script>alert(1)</script>', routes: [{ path: '/evil', component: 'EvilPage' }] },
];
const buildManifest = join(dir, 'plugins.json');
writeFileSync(
  buildManifest,
  JSON.stringify({
    auth: { pages: { LoginPage: ['/plugins/auth/LoginPage-DDDDDDDD.js', '/plugins/auth/AuthFooter-EEEEEEEE.js'] } },
    servers: { pages: { ServerPage: ['/plugins/servers/ServerPage-FFFFFFFF.js'] } },
  }),
);
const kernelModules = join(dir, 'kernel-modules.json');
writeFileSync(kernelModules, JSON.stringify({ 'assets/kernel-GGGGGGGG.js': [], 'assets/AppShell-HHHHHHHH.js': [] }));

const preloads = new RoutePreloads({ servedJson: () => JSON.stringify(served), buildManifest, kernelModules });
const request = (url: string) => ({ url }) as FastifyRequest;
const PAGE = '<html><head><link rel="stylesheet" href="/assets/main.css"><script type="module" src="/assets/kernel-GGGGGGGG.js"></script></head><body></body></html>';

describe('route preload hints', () => {
  it('matches a route path as the router does: one segment per parameter, the rest for *', () => {
    expect(routeMatcher('/servers/:id/*').test('/servers/12/files/a')).toBe(true);
    expect(routeMatcher('/auth/:provider').test('/auth/x/y')).toBe(false);
    expect(routeMatcher('/auth/login').test('/auth/login/')).toBe(true);
  });

  it('keys a request by its route: a literal path wins over a pattern, an unknown path has none', () => {
    expect(preloads.key(request('/auth/login?next=1'))).toBe(preloads.key(request('/auth/login')));
    expect(preloads.key(request('/auth/login'))).not.toBe(preloads.key(request('/auth/github')));
    expect(preloads.key(request('/nowhere'))).toBeNull();
  });

  it('hints the entries (requirements first, with integrity), the page chunks, right after the kernel script', () => {
    const key = preloads.key(request('/auth/login')) as string;
    const html = preloads.apply(PAGE, key);
    const kernelAt = html.indexOf('kernel-GGGGGGGG.js');
    const hints = [...html.matchAll(/<link rel="(?:preload|modulepreload)" href="([^"]+)"[^>]*>/g)].map((m) => m[1]);
    expect(hints).toEqual([
      '/plugins/core-ui/core-ui-AAAAAAAA.js',
      '/plugins/auth/auth-BBBBBBBB.js',
      '/plugins/auth/LoginPage-DDDDDDDD.js',
      '/plugins/auth/AuthFooter-EEEEEEEE.js',
    ]);
    expect(html.indexOf('/plugins/core-ui/')).toBeGreaterThan(kernelAt);
    expect(html).toContain('<link rel="preload" href="/plugins/auth/auth-BBBBBBBB.js" as="script" integrity="sha384-def">');
    // a bare page: no shell
    expect(html).not.toContain('AppShell');
  });

  it('adds the shell chunk for a page inside it; a page without recorded chunks gets its entry only', () => {
    const html = preloads.apply(PAGE, preloads.key(request('/servers/7/console')) as string);
    expect(html).toContain('<link rel="preload" href="/plugins/servers/ServerPage-FFFFFFFF.js" as="script">');
    expect(html).toContain('<link rel="modulepreload" href="/assets/AppShell-HHHHHHHH.js">');
    const sso = preloads.apply(PAGE, preloads.key(request('/auth/github')) as string);
    expect([...sso.matchAll(/rel="preload"/g)]).toHaveLength(2);
  });

  it('names nothing that is not one of our files (an entry that could break out of the attribute)', () => {
    const html = preloads.apply(PAGE, preloads.key(request('/evil')) as string);
    expect(html).not.toContain('/plugins/evil');
    expect(html).not.toContain('alert(1)');
  });
});
