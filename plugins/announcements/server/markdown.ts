// The one place an announcement's Markdown becomes HTML (the pages, the admin preview and any mail
// all show what this returns). Safe by construction rather than by cleaning afterwards:
// - html: false — HTML written in the source is escaped, never passed through (<script>, onerror=…);
// - links: only http(s):, mailto: and the panel's own paths ("/x", never "//host"); anything else
//   (javascript:, data:, vbscript:, file:) stays plain text; every link opens in a new tab with
//   rel="noopener noreferrer";
// - images: only the panel's own announcement images (IMAGE_PATH + a file key); any other source is
//   shown as its alt text, so an announcement cannot load a tracking pixel from elsewhere.
import MarkdownIt from 'markdown-it';

/** Where an announcement's image is served; the only image source a body may use. */
export const IMAGE_PATH = '/api/user/announcements/images/';
const OWN_IMAGE = /^\/api\/user\/announcements\/images\/[A-Za-z0-9_-]{22}$/;
const SAFE_LINK = /^(https?:\/\/|mailto:|\/(?!\/))/i;

export function imageUrl(key: string): string {
  return `${IMAGE_PATH}${key}`;
}

function createRenderer(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  // a refused link is left as text: markdown-it keeps the source when validateLink says no
  md.validateLink = (url) => SAFE_LINK.test(url.trim());
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer');
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  const defaultImage = md.renderer.rules.image ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const src = token.attrGet('src') ?? '';
    if (!OWN_IMAGE.test(src)) return md.utils.escapeHtml(token.content);
    token.attrSet('loading', 'lazy');
    return defaultImage(tokens, idx, options, env, self);
  };
  return md;
}

const renderer = createRenderer();

/** The announcement body as safe HTML. */
export function renderMarkdown(source: string): string {
  return renderer.render(source);
}
