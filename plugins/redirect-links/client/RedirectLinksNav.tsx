// The redirect links in the navigation: the sidebar's nav.sections slot renders this component, a
// "Links" section of external addresses (a new tab each, no opener), shown only when there are links.
// It fetches them once the shell shows (GET /api/redirect-links) instead of index.html's boot data
// carrying them: only the shell needs them (not the login page), and the sidebar does not wait for
// them. The admin screens announce a change, and the list is fetched again. While the plugin is
// disabled its manifest is not served, so the section is gone with it.
import { http, isIconName, SidebarLink, SidebarSection, type IconName, type SidebarSectionSlotProps } from '@orepanel/sdk';
import { useEffect, useState } from 'react';
import { isHttpUrl } from '../shared/link-rules';
import { onLinksChanged } from './link-events';

/** where the server plugin serves the navigation's list (server/nav-routes.ts) */
export const NAV_LINKS_URL = '/api/redirect-links';

export interface NavRedirectLink {
  id: number;
  name: string;
  url: string;
  icon: IconName;
}

/**
 * The links of an answer that are safe to render, in the order served. The server checks every
 * address already; a link that is not http(s) is still dropped here, so a bad row can never put a
 * javascript: address into the sidebar.
 */
export function navRedirectLinks(answer: unknown): NavRedirectLink[] {
  const data = (answer as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return [];
  const out: NavRedirectLink[] = [];
  for (const item of data as unknown[]) {
    if (!item || typeof item !== 'object') continue;
    const { id, name, url, icon } = item as Record<string, unknown>;
    if (typeof id !== 'number' || typeof name !== 'string' || name.trim() === '' || typeof url !== 'string' || !isHttpUrl(url)) continue;
    out.push({ id, name, url, icon: typeof icon === 'string' && isIconName(icon) ? icon : 'link' });
  }
  return out;
}

/** The links to show; empty until they arrive, and when they cannot be fetched (the rest of the sidebar works on). */
export function useRedirectLinks(): NavRedirectLink[] {
  const [links, setLinks] = useState<NavRedirectLink[]>([]);
  useEffect(() => {
    let controller: AbortController | null = null;
    const load = () => {
      controller?.abort();
      const current = new AbortController();
      controller = current;
      http
        .get<unknown>(NAV_LINKS_URL, { signal: current.signal })
        .then((answer) => {
          if (!current.signal.aborted) setLinks(navRedirectLinks(answer));
        })
        .catch((error: unknown) => {
          if (!current.signal.aborted) console.warn('Failed to load the redirect links', error);
        });
    };
    load();
    const stop = onLinksChanged(load);
    return () => {
      stop();
      controller?.abort();
    };
  }, []);
  return links;
}

export default function RedirectLinksNav({ first }: SidebarSectionSlotProps) {
  const links = useRedirectLinks();
  if (links.length === 0) return null;
  return (
    <SidebarSection section="links" first={first}>
      {links.map((link) => (
        <SidebarLink key={link.id} href={link.url} icon={link.icon} label={link.name} data={{ 'data-redirect-link': link.id }} />
      ))}
    </SidebarSection>
  );
}
