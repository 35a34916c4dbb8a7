// The redirect links of the navigation (/mc-admin/redirect-links): external addresses an
// administrator adds to the sidebar. The shell fetches them once it is shown (GET
// /api/system/redirect-links) instead of carrying them in index.html's boot data: only the shell
// needs them (not the login page), and the sidebar does not wait for them. The redirect-links plugin
// announces a change on the event bus, and the shell fetches them again.
import { useEffect, useState } from 'react';
import { kernelEvents } from '../../sdk/client/events';
import { http } from '../../sdk/client/http';
import { isIconName, type IconName } from '../../sdk/client/ui/icons';
import { isHttpUrl } from '../../sdk/redirect-link-rules';

export const REDIRECT_LINKS_URL = '/api/redirect-links';
/** Emitted by the redirect-links plugin after it created, changed or deleted a link. */
export const REDIRECT_LINKS_CHANGED = 'redirect-links:changed';

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
        .get<unknown>(REDIRECT_LINKS_URL, { signal: current.signal })
        .then((answer) => {
          if (!current.signal.aborted) setLinks(navRedirectLinks(answer));
        })
        .catch((error: unknown) => {
          if (!current.signal.aborted) console.warn('Failed to load the redirect links', error);
        });
    };
    load();
    kernelEvents.on(REDIRECT_LINKS_CHANGED, load);
    return () => {
      kernelEvents.off(REDIRECT_LINKS_CHANGED, load);
      controller?.abort();
    };
  }, []);
  return links;
}
