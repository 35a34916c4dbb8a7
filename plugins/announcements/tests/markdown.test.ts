// @vitest-environment jsdom
// The one renderer of announcement bodies (server/markdown.ts): whatever an administrator writes,
// the HTML readers get runs no script, loads nothing from elsewhere and opens links safely.
import { describe, expect, it } from 'vitest';
import { imageUrl, renderMarkdown } from '../server/markdown';

const KEY = 'AbCdEfGhIjKlMnOpQrSt_-';

describe('renderMarkdown', () => {
  it('escapes HTML written in the source: a <script> is text', () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<iframe src="https://evil.example"></iframe>');
    expect(html).not.toMatch(/<script|<iframe/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('leaves event attributes inert: they never become attributes of an element', () => {
    const html = renderMarkdown('<img src=x onerror=alert(1)> <a href="#" onclick="steal()">x</a>\n\n[a](https://ok.example "t\\" onmouseover=\\"x")');
    // parsed as a browser parses it: two paragraphs and the one Markdown link, no element with an on… attribute
    const body = new DOMParser().parseFromString(html, 'text/html').body;
    expect([...body.querySelectorAll('*')].map((e) => e.tagName)).toEqual(['P', 'P', 'A']);
    const handlers = [...body.querySelectorAll('*')].flatMap((e) => e.getAttributeNames().filter((name) => name.startsWith('on')));
    expect(handlers).toEqual([]);
  });

  it('drops javascript:, data:, vbscript: and protocol-relative links (left as text)', () => {
    for (const target of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:msgbox', '//evil.example/x']) {
      const html = renderMarkdown(`[click](${target})`);
      expect(html, target).not.toContain('<a');
    }
    expect(renderMarkdown('[x](java&#x73;cript:alert(1))')).not.toContain('<a');
  });

  it('opens http(s), mailto and the panel’s own links in a new tab with rel="noopener noreferrer"', () => {
    expect(renderMarkdown('[site](https://example.com/a?b=1)')).toBe('<p><a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer">site</a></p>\n');
    expect(renderMarkdown('[mail](mailto:help@example.com)')).toContain('href="mailto:help@example.com" target="_blank" rel="noopener noreferrer"');
    expect(renderMarkdown('[store](/store)')).toContain('<a href="/store" target="_blank" rel="noopener noreferrer">store</a>');
    // a bare address becomes a link the same way
    expect(renderMarkdown('see https://example.com')).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">');
  });

  it('shows only the panel’s own announcement images; any other source is its alt text', () => {
    expect(renderMarkdown(`![map](${imageUrl(KEY)})`)).toBe(`<p><img src="/api/user/announcements/images/${KEY}" alt="map" loading="lazy"></p>\n`);
    for (const src of [
      'https://tracker.example/p.gif',
      'data:image/png;base64,AAAA',
      '/api/user/announcements/images/short',
      `/api/user/announcements/images/${KEY}/../../x`,
      'javascript:alert(1)',
    ]) {
      const html = renderMarkdown(`![alt text](${src})`);
      expect(html, src).not.toContain('<img');
      expect(html, src).toContain('alt text');
    }
  });

  it('keeps ordinary formatting', () => {
    expect(renderMarkdown('# Title\n\n**bold** and _it_\n\n- one\n- two')).toBe(
      '<h1>Title</h1>\n<p><strong>bold</strong> and <em>it</em></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n',
    );
  });
});
