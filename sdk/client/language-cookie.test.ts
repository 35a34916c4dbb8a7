// @vitest-environment jsdom
// issue 15: the `locale` cookie follows the stored language, so the server pre-renders public pages in
// the language the kernel will mount them in.
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage, mirrorLanguageCookie } from './i18n';

const cookie = () => /(?:^|;\s*)locale=([^;]*)/.exec(document.cookie)?.[1] ?? null;

afterEach(() => {
  localStorage.clear();
  document.cookie = 'locale=; path=/; max-age=0';
});

describe('the language cookie', () => {
  it('is set from the stored language and removed when none is stored', () => {
    localStorage.setItem('locale', 'ro');
    mirrorLanguageCookie();
    expect(cookie()).toBe('ro');
    localStorage.removeItem('locale');
    mirrorLanguageCookie();
    expect(cookie()).toBeNull();
  });

  it('ignores a stored value that is no language of the panel', () => {
    localStorage.setItem('locale', 'xx');
    mirrorLanguageCookie();
    expect(cookie()).toBeNull();
  });

  it('follows a language switch', async () => {
    await changeLanguage('fr');
    expect(localStorage.getItem('locale')).toBe('fr');
    expect(cookie()).toBe('fr');
  });
});
