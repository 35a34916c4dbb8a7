// @vitest-environment jsdom
// The redirect links in the sidebar: fetched from GET /api/system/redirect-links once the shell shows,
// rendered as external links (new tab, no opener), an address that is not http(s) never rendered,
// fetched again when the redirect-links plugin announces a change.
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { kernelEvents } from '../../sdk/client/events';
import { setHttpFetch } from '../../sdk/client/http';
import { addPluginCatalogue } from '../../sdk/client/i18n';
import en from '../../locales/en.json';
import { navRedirectLinks, REDIRECT_LINKS_CHANGED, REDIRECT_LINKS_URL } from './redirect-links';
import { Sidebar } from './Sidebar';

describe('navRedirectLinks', () => {
  it('listens to the event the redirect-links plugin emits after a change', () => {
    // plugins/redirect-links/client/link-events.ts emits this very name
    expect(REDIRECT_LINKS_CHANGED).toBe('redirect-links:changed');
  });

  it('keeps http(s) links in the order served and draws unknown icons as a link', () => {
    const answer = {
      data: [
        { id: 2, name: 'Discord', url: 'https://discord.gg/x', icon: 'users', order: 1 },
        { id: 3, name: 'Evil', url: 'javascript:alert(1)', icon: null, order: 2 },
        { id: 4, name: 'Relative', url: '/dashboard', icon: null, order: 3 },
        { id: 5, name: ' ', url: 'https://example.com', icon: null, order: 4 },
        { id: 6, name: 'Status', url: 'http://status.example.com', icon: 'no-such-icon', order: 5 },
        'garbage',
      ],
    };
    expect(navRedirectLinks(answer)).toEqual([
      { id: 2, name: 'Discord', url: 'https://discord.gg/x', icon: 'users' },
      { id: 6, name: 'Status', url: 'http://status.example.com', icon: 'link' },
    ]);
    expect(navRedirectLinks(null)).toEqual([]);
    expect(navRedirectLinks({ data: 'x' })).toEqual([]);
  });
});

// React's act() warns unless the environment says it is a test
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let container: HTMLElement | null = null;

afterEach(() => {
  if (root) act(() => root!.unmount());
  container?.remove();
  root = null;
  container = null;
  setHttpFetch(null);
});

async function renderSidebar(answer: () => unknown) {
  addPluginCatalogue('kernel', 'en', en);
  const calls: string[] = [];
  setHttpFetch(async (url) => {
    calls.push(url);
    if (url !== REDIRECT_LINKS_URL) return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
    return new Response(JSON.stringify(answer()), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  const router = createMemoryRouter([{ path: '*', element: createElement(Sidebar, { open: true, onClose: () => undefined }) }]);
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => {
    root!.render(createElement(RouterProvider, { router }));
  });
  return { calls, container };
}

const flush = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

describe('the sidebar’s redirect links', () => {
  it('shows each link as an external link in its own section', async () => {
    const { container, calls } = await renderSidebar(() => ({
      data: [
        { id: 1, name: 'Discord', url: 'https://discord.gg/x', icon: 'users', order: 1 },
        { id: 2, name: 'Evil', url: 'javascript:alert(1)', icon: null, order: 2 },
      ],
    }));
    await flush();
    expect(calls).toEqual([REDIRECT_LINKS_URL]);
    const section = container.querySelector(`section[aria-label="${en.nav.sections.links}"]`);
    expect(section).toBeTruthy();
    const anchors = [...section!.querySelectorAll('a')];
    expect(anchors).toHaveLength(1);
    expect(anchors[0].getAttribute('href')).toBe('https://discord.gg/x');
    expect(anchors[0].getAttribute('target')).toBe('_blank');
    expect(anchors[0].getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    expect(anchors[0].textContent).toContain('Discord');
    expect(anchors[0].textContent).toContain(en.shell.opensInNewTab);
    expect(container.innerHTML).not.toContain('javascript:');
  });

  it('shows no section without links, and fetches again when the redirect-links plugin says they changed', async () => {
    let answer: unknown = { data: [] };
    const { container, calls } = await renderSidebar(() => answer);
    await flush();
    expect(container.querySelector(`section[aria-label="${en.nav.sections.links}"]`)).toBeNull();

    answer = { data: [{ id: 7, name: 'Wiki', url: 'https://wiki.example.com', icon: null, order: 0 }] };
    await act(async () => kernelEvents.emit(REDIRECT_LINKS_CHANGED, undefined));
    await flush();
    expect(calls).toEqual([REDIRECT_LINKS_URL, REDIRECT_LINKS_URL]);
    expect(container.querySelector('a[href="https://wiki.example.com"]')).toBeTruthy();
  });

  it('keeps the sidebar working when the links cannot be fetched', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { container } = await renderSidebar(() => {
      throw new Error('down');
    });
    await flush();
    expect(container.querySelector('nav')).toBeTruthy();
    expect(container.querySelector(`section[aria-label="${en.nav.sections.links}"]`)).toBeNull();
    expect(warn).toHaveBeenCalledWith('Failed to load the redirect links', expect.anything());
    warn.mockRestore();
  });
});
