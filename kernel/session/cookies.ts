// The cookies the session depends on (spec §4: "a session is valid when a user_token cookie exists")
// and how they are cleared after a session error: a cookie is only removed by a write with the same
// path and domain it was set with, and the kernel cannot know them, so every likely variant is expired.
import { SESSION_COOKIE } from '../../sdk/types';

/** The HttpOnly secret cookie the server authenticates by (cleared too, in case a proxy made it readable). */
export const SECRET_SESSION_COOKIE = 'op_session';

/** Cookies a session error clears. */
export const SESSION_COOKIES: readonly string[] = [SESSION_COOKIE, SECRET_SESSION_COOKIE];

export interface CookieVariant {
  path: string;
  /** undefined: a host-only cookie (set without a Domain attribute) */
  domain?: string;
}

/** Reads and expires cookies; the document's cookies in the browser, a fake in tests. */
export interface CookieJar {
  has(name: string): boolean;
  expire(name: string, variant: CookieVariant): void;
}

/** The cookie jar of a document (`document.cookie`). */
export function documentCookieJar(doc: Document = document): CookieJar {
  return {
    has(name) {
      return doc.cookie.split(';').some((part) => {
        const eq = part.indexOf('=');
        return (eq === -1 ? part : part.slice(0, eq)).trim() === name;
      });
    },
    expire(name, { path, domain }) {
      const domainPart = domain === undefined ? '' : `; domain=${domain}`;
      doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; max-age=0; path=${path}${domainPart}`;
    },
  };
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The path and domain variants a cookie may have been set with on `hostname` while the browser is at
 * `pathname`: the root, the current path and each of its parents; host-only, the host, and the host and
 * each parent domain with a leading dot (never a bare top-level domain).
 */
export function cookieVariants(hostname: string, pathname: string): CookieVariant[] {
  const paths = new Set<string>(['/']);
  const segments = pathname.split('/').filter(Boolean);
  for (let i = segments.length; i > 0; i--) {
    const path = `/${segments.slice(0, i).join('/')}`;
    paths.add(path);
    paths.add(`${path}/`);
  }
  const domains: (string | undefined)[] = [undefined];
  const host = hostname.toLowerCase();
  if (host) {
    domains.push(host);
    const isAddress = IPV4.test(host) || host.includes(':');
    if (!isAddress && host.includes('.')) {
      domains.push(`.${host}`);
      const labels = host.split('.');
      for (let i = 1; i < labels.length - 1; i++) domains.push(`.${labels.slice(i).join('.')}`);
    }
  }
  const variants: CookieVariant[] = [];
  for (const path of paths) for (const domain of domains) variants.push(domain === undefined ? { path } : { path, domain });
  return variants;
}

/** spec §4: clears the session cookies in every path and domain variant. */
export function clearSessionCookies(jar: CookieJar, hostname: string, pathname: string): void {
  const variants = cookieVariants(hostname, pathname);
  for (const name of SESSION_COOKIES) for (const variant of variants) jar.expire(name, variant);
}
