// @vitest-environment jsdom
// spec §4.1 with issue 15: the custom stylesheet and script load first — by their revision when the
// boot data names one, not at all when it says they are empty, by the plain address without boot data.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUSTOM_CSS_URL, CUSTOM_JS_URL, loadCustomAssets } from './custom-assets';

/** Answers every element added to <head> with a load event, and lists their addresses. */
function answerLoads() {
  const added: string[] = [];
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof HTMLLinkElement || node instanceof HTMLScriptElement)) continue;
        added.push(node instanceof HTMLLinkElement ? (node.getAttribute('href') ?? '') : (node.getAttribute('src') ?? ''));
        node.dispatchEvent(new Event('load'));
      }
    }
  });
  observer.observe(document.head, { childList: true });
  return { added, stop: () => observer.disconnect() };
}

/** The custom stylesheet link a pre-rendered page carries (server/http/prerender.ts). */
function stylesheetOnPage(href: string): HTMLLinkElement {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.setAttribute('href', href);
  link.dataset.orepanel = 'custom';
  document.head.appendChild(link);
  return link;
}

afterEach(() => {
  document.head.innerHTML = '';
});

describe('loadCustomAssets', () => {
  it('asks for neither when the boot data says both are empty', async () => {
    const loads = answerLoads();
    const log = { warn: vi.fn() };
    await loadCustomAssets(document, log, { css: null, js: null });
    loads.stop();
    expect(loads.added).toEqual([]);
    expect(document.head.querySelectorAll('[data-orepanel="custom"]')).toHaveLength(0);
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('fetches a non-empty one by its revision (cached for good) and skips the empty one', async () => {
    const loads = answerLoads();
    await loadCustomAssets(document, { warn: vi.fn() }, { css: 'r3v-css', js: null });
    loads.stop();
    expect(loads.added).toEqual([`${CUSTOM_CSS_URL}?v=r3v-css`]);
  });

  it('without boot data, loads both by their plain address, as before', async () => {
    const loads = answerLoads();
    await loadCustomAssets(document, { warn: vi.fn() }, null);
    loads.stop();
    expect(loads.added.sort()).toEqual([CUSTOM_CSS_URL, CUSTOM_JS_URL].sort());
  });

  it('waits for the stylesheet a pre-rendered page already carries instead of adding it again', async () => {
    const present = stylesheetOnPage(`${CUSTOM_CSS_URL}?v=r3v-css`);
    const loads = answerLoads();
    let done = false;
    const loading = loadCustomAssets(document, { warn: vi.fn() }, { css: 'r3v-css', js: null }).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    present.dispatchEvent(new Event('load'));
    await loading;
    loads.stop();
    expect(loads.added).toEqual([]);
    expect(document.head.querySelectorAll('[data-orepanel="custom"]')).toHaveLength(1);
  });

  it('adds its own when the one on the page is of another revision', async () => {
    stylesheetOnPage(`${CUSTOM_CSS_URL}?v=old`);
    const loads = answerLoads();
    await loadCustomAssets(document, { warn: vi.fn() }, { css: 'new', js: null });
    loads.stop();
    expect(loads.added).toEqual([`${CUSTOM_CSS_URL}?v=new`]);
  });
});
