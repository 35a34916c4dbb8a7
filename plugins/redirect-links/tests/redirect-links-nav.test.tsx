// @vitest-environment jsdom
// The redirect links in the sidebar (the nav.sections slot): fetched from GET /api/redirect-links once
// the shell shows, rendered as external links (new tab, no opener) in a "Links" section that only
// exists when there are links, an address that is not http(s) never rendered, fetched again when the
// admin screens announce a change, and the rest of the sidebar unharmed when the list cannot be had.
import { Slot } from '@orepanel/sdk';
import { cleanup, renderPlugin, type HttpHandler } from '@orepanel/sdk/testing';
import { createElement, Fragment } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import plugin from '../client';
import { announceLinksChanged } from '../client/link-events';
import { NAV_LINKS_URL, navRedirectLinks } from '../client/RedirectLinksNav';
import manifest from '../plugin.json';

afterEach(async () => {
  await cleanup();
});

describe('navRedirectLinks', () => {
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

/** The plugin installed as the kernel installs it, and the sidebar's slot rendered beside an empty page. */
async function renderSidebarSlot(links: HttpHandler) {
  const app = await renderPlugin(plugin, {
    manifest,
    route: '/elsewhere',
    http: { [`GET ${NAV_LINKS_URL}`]: links },
    wrapper: (children) => createElement(Fragment, null, children, createElement('nav', null, createElement(Slot, { name: 'nav.sections', props: { first: false } }))),
  });
  const calls = () => app.httpCalls.filter((c) => c.path === NAV_LINKS_URL).length;
  return { app, calls };
}

/** the section's title is the kernel's nav.sections.links (its catalogue is not loaded here: the key shows) */
const section = () => document.querySelector('nav section[aria-label="nav.sections.links"]');

describe('the sidebar’s redirect links', () => {
  it('shows each link as an external link in its own section', async () => {
    const { app, calls } = await renderSidebarSlot({
      body: {
        data: [
          { id: 1, name: 'Discord', url: 'https://discord.gg/x', icon: 'users', order: 1 },
          { id: 2, name: 'Evil', url: 'javascript:alert(1)', icon: null, order: 2 },
        ],
      },
    });
    const anchors = await app.waitFor(() => {
      const found = [...(section()?.querySelectorAll('a') ?? [])];
      expect(found).toHaveLength(1);
      return found;
    });
    expect(calls()).toBe(1);
    expect(anchors[0].getAttribute('href')).toBe('https://discord.gg/x');
    expect(anchors[0].getAttribute('target')).toBe('_blank');
    expect(anchors[0].getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    expect(anchors[0].dataset.redirectLink).toBe('1');
    expect(anchors[0].textContent).toContain('Discord');
    expect(document.body.innerHTML).not.toContain('javascript:');
  });

  it('shows no section without links, and fetches again when the admin screens announce a change', async () => {
    let data: unknown[] = [];
    const { app, calls } = await renderSidebarSlot(() => ({ body: { data } }));
    await app.waitFor(() => expect(calls()).toBe(1));
    expect(section()).toBeNull();

    data = [{ id: 7, name: 'Wiki', url: 'https://wiki.example.com', icon: null, order: 0 }];
    announceLinksChanged();
    await app.waitFor(() => expect(document.querySelector('nav a[href="https://wiki.example.com"]')).toBeTruthy());
    expect(calls()).toBe(2);
  });

  it('shows nothing and keeps going when the links cannot be fetched', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { app } = await renderSidebarSlot({ status: 503, body: { error: { code: 'UNAVAILABLE', message: 'Restarting.' } } });
    await app.waitFor(() => expect(warn).toHaveBeenCalledWith('Failed to load the redirect links', expect.anything()));
    expect(section()).toBeNull();
    expect(document.querySelector('nav')).toBeTruthy();
    warn.mockRestore();
  });
});
