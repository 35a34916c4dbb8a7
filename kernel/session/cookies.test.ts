// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { clearSessionCookies, cookieVariants, documentCookieJar } from './cookies';

describe('session cookies (spec §4)', () => {
  afterEach(() => {
    for (const name of ['user_token', 'op_session', 'locale_hint']) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });

  it('the session is valid while a user_token cookie exists', () => {
    const jar = documentCookieJar(document);
    expect(jar.has('user_token')).toBe(false);
    document.cookie = 'user_token=abc; path=/';
    expect(jar.has('user_token')).toBe(true);
    expect(jar.has('user')).toBe(false);
  });

  it('clearing expires the cookie in the document', () => {
    const jar = documentCookieJar(document);
    document.cookie = 'user_token=abc; path=/';
    document.cookie = 'locale_hint=x; path=/';
    clearSessionCookies(jar, location.hostname, '/dashboard');
    expect(jar.has('user_token')).toBe(false);
    expect(jar.has('locale_hint')).toBe(true);
  });

  it('covers the root, the current path and its parents, the host and its parent domains with a dot', () => {
    const variants = cookieVariants('panel.example.co.uk', '/mc-admin/users/7');
    const paths = new Set(variants.map((v) => v.path));
    for (const p of ['/', '/mc-admin', '/mc-admin/users', '/mc-admin/users/7']) expect(paths.has(p)).toBe(true);
    const domains = new Set(variants.map((v) => v.domain));
    for (const d of [undefined, 'panel.example.co.uk', '.panel.example.co.uk', '.example.co.uk', '.co.uk']) expect(domains.has(d)).toBe(true);
    expect(domains.has('.uk')).toBe(false);
  });

  it('uses no parent domains for an IP address or localhost', () => {
    expect(new Set(cookieVariants('127.0.0.1', '/').map((v) => v.domain))).toEqual(new Set([undefined, '127.0.0.1']));
    expect(new Set(cookieVariants('localhost', '/').map((v) => v.domain))).toEqual(new Set([undefined, 'localhost']));
  });
});
