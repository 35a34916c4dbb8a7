// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { attachMainStylesheet, MAIN_STYLESHEET_ELEMENT_ID } from './main-stylesheet';

const HREF = '/assets/main.css?v=abc123';

beforeEach(() => {
  document.head.innerHTML = `<link rel="preload" href="${HREF}" as="style"><style id="${MAIN_STYLESHEET_ELEMENT_ID}" data-href="${HREF}">body { margin: 0; }</style><style data-emotion="css">.x{}</style>`;
});

const inlineCopy = () => document.getElementById(MAIN_STYLESHEET_ELEMENT_ID);
const linked = () => document.head.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');

describe('the base stylesheet: inline for the first frame, then the preloaded file', () => {
  it('puts the preloaded file in the inline copy’s place in the cascade, and drops the copy once the file applies', () => {
    attachMainStylesheet(document);
    const link = linked();
    expect(link?.getAttribute('href')).toBe(HREF);
    // before the copy: after the preload, before the components' styles
    expect([...document.head.children].map((el) => el.tagName.toLowerCase() + (el.id ? `#${el.id}` : ''))).toEqual([
      'link',
      'link',
      `style#${MAIN_STYLESHEET_ELEMENT_ID}`,
      'style',
    ]);
    link?.dispatchEvent(new Event('load'));
    expect(inlineCopy()).toBeNull();
  });

  it('keeps the inline copy when the file fails to load', () => {
    attachMainStylesheet(document);
    linked()?.dispatchEvent(new Event('error'));
    expect(inlineCopy()).not.toBeNull();
  });

  it('does nothing on a page without the inline copy', () => {
    inlineCopy()?.remove();
    attachMainStylesheet(document);
    expect(linked()).toBeNull();
  });
});
